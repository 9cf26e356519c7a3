import * as z from 'zod'
import { OrgSlug, PostgrestStatus, ProjectStatus } from './common'

/**
 * Development controls, served under /dev only when DEV_CONTROLS=1.
 *   POST /dev/projects                       DevCreateProjectBody -> Project
 *   POST /dev/projects/{ref}/status          DevSetStatusBody     -> Project
 *   POST /dev/projects/{ref}/postgrest       DevSetPostgrestBody  -> Project
 *   POST /dev/latency                        DevLatencyBody       -> { ms }
 */
export const DevCreateProjectBody = z.object({
  organization_slug: OrgSlug,
  name: z.string().trim().min(1).max(64).optional(),
  status: ProjectStatus.default('ACTIVE_HEALTHY'),
  postgrestStatus: PostgrestStatus.default('ONLINE'),
})
export const DevSetStatusBody = z.object({ status: ProjectStatus })
export const DevSetPostgrestBody = z.object({ postgrestStatus: PostgrestStatus })
export const DevLatencyBody = z.object({ ms: z.number().int().min(0).max(60_000) })
export const DevLatencyResponse = z.object({ ms: z.number().int() })
