/**
 * Timed status changes: the 'project.status' transition (payload { from, to }) moves a project only if it is still
 * in `from`, so a change made meanwhile from outside wins. Coming up is one: a project entering COMING_UP becomes
 * ACTIVE_HEALTHY after LIFECYCLE_COMING_UP_MS. Pause schedules its two steps with the same kind.
 */
import type { ProjectStatus } from '../../../contracts/common'
import type { ServerConfig } from '../../config'
import type { Queryable } from '../../db'
import { scheduleTransition, type Lifecycle } from '../../engine/lifecycle'

const STATUS_KIND = 'project.status'

/** Schedules the move of a project from `from` to `to` at `dueAt`. */
export function scheduleStatusChange(
  tx: Queryable,
  projectId: number,
  change: { from: ProjectStatus; to: ProjectStatus },
  dueAt: Date,
  now: Date,
): Promise<void> {
  return scheduleTransition(tx, projectId, STATUS_KIND, change, dueAt, now)
}

export function registerStatusLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle']): void {
  lifecycle.registerTransition(STATUS_KIND, async (tx, row, now) => {
    const { from, to } = row.payload as { from: ProjectStatus; to: ProjectStatus }
    const { rows } = await tx.query<{ id: number }>(
      `update projects set status = $3, updated_at = $4, status_changed_at = $4 where id = $1 and status = $2 returning id`,
      [row.project_id, from, to, now.toISOString()],
    )
    if (!rows.length) return `skipped: project no longer ${from}`
    await lifecycle.arrive(tx, row.project_id, to, now)
    return 'applied'
  })

  lifecycle.onEntry(async (tx, projectId, status, now) => {
    if (status !== 'COMING_UP') return
    const due = new Date(now.getTime() + durations.comingUpMs)
    await scheduleStatusChange(tx, projectId, { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, due, now)
  })
}
