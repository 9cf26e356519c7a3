import * as z from 'zod/mini'
import { ProjectStatus } from './common'
import { Project } from './projects'

/**
 * Pause and restore.
 *   POST /v1/projects/{ref}/pause                                   (no body) -> 200, no body  (projects:write)
 *   POST /v1/projects/{ref}/restore                                 (no body) -> 200, no body
 *   POST /platform/projects/{ref}/restore                           (empty body) -> RestoreResponse
 *   GET  /platform/projects/{ref}/restore/status                    -> RestoreStatusResponse
 *   GET  /platform/organizations/{slug}/members/reached-free-project-limit -> MembersReachedFreeProjectLimit
 * A restore needs infra:execute:project-initialize-or-resume. A transition the current status does not allow
 * answers 409 with code 'invalid_transition' and a message naming that status.
 */

/** The restore and pause calls take no input; an empty body or `{}` is accepted, anything else is refused. */
export const EmptyBody = z.strictObject({})

/** The project as the restore left it: RESTORING. */
export const RestoreResponse = Project
export type RestoreResponse = z.infer<typeof RestoreResponse>

/** The status and, after a failed restore, what went wrong (null when nothing was recorded). */
export const RestoreStatusResponse = z.object({
  status: ProjectStatus,
  error: z.nullable(z.string()),
})
export type RestoreStatusResponse = z.infer<typeof RestoreStatusResponse>

/** A member of a free organization who already owns the maximum number of active free projects. */
export const MemberReachedFreeProjectLimit = z.object({
  username: z.string(),
  primary_email: z.string(),
  free_project_limit: z.number().check(z.int()),
})
export type MemberReachedFreeProjectLimit = z.infer<typeof MemberReachedFreeProjectLimit>
export const MembersReachedFreeProjectLimit = z.array(MemberReachedFreeProjectLimit)

/** POST /dev/projects/{ref}/fail-next-restore: the project's next restore ends in RESTORATION_FAILED. */
export const DevFailNextRestoreBody = z.object({ fail: z.boolean() })
export const DevFailNextRestoreResponse = z.object({ ref: z.string(), fail_next_restore: z.boolean() })
