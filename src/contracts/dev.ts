import * as z from 'zod/mini'
import { OrgSlug, PostgrestStatus, ProjectStatus } from './common'

/**
 * Development controls, served under /dev only when DEV_CONTROLS=1.
 *   POST /dev/projects                       DevCreateProjectBody -> Project
 *   POST /dev/projects/{ref}/status          DevSetStatusBody     -> Project
 *   POST /dev/projects/{ref}/postgrest       DevSetPostgrestBody  -> Project
 *   POST /dev/latency                        DevLatencyBody       -> { ms }
 *   POST /dev/projects/{ref}/advance         (no body)            -> DevAdvanceResponse
 */
export const DevCreateProjectBody = z.object({
  organization_slug: OrgSlug,
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
  status: z._default(ProjectStatus, 'ACTIVE_HEALTHY'),
  postgrestStatus: z._default(PostgrestStatus, 'ONLINE'),
})
export const DevSetStatusBody = z.object({ status: ProjectStatus })
export const DevSetPostgrestBody = z.object({ postgrestStatus: PostgrestStatus })
export const DevLatencyBody = z.object({ ms: z.number().check(z.int(), z.gte(0), z.lte(60_000)) })
export const DevLatencyResponse = z.object({ ms: z.number().check(z.int()) })
/** The transition the advance control made due now, as the engine recorded it ('applied', 'skipped: …', 'failed: …'). */
export const DevAdvanceResponse = z.object({ kind: z.string(), outcome: z.nullable(z.string()), cancelled: z.boolean() })
