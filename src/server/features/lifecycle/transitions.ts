/**
 * Timed status changes: the 'project.status' transition (payload { from, to }) moves a project only if it is still
 * in `from`, so a change made meanwhile from outside wins. Coming up is one: a project entering COMING_UP becomes
 * ACTIVE_HEALTHY after LIFECYCLE_COMING_UP_MS. Pause schedules its two steps with the same kind.
 * What a status needs before the project arrives (its database, before ACTIVE_HEALTHY) is project work: it runs
 * outside the store's transaction, and the move is recorded after it, if the project is still in `from`.
 */
import type { ProjectStatus } from '../../../contracts/common'
import type { ServerConfig } from '../../config'
import type { Queryable } from '../../db'
import { STATUS_CHANGE_KIND, projectWork, scheduleStatusChange, type Lifecycle } from '../../engine/lifecycle'
import { isInStatus } from './store'

export function registerStatusLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle']): void {
  const move = (tx: Queryable, projectId: number, change: { from: ProjectStatus; to: ProjectStatus }, now: Date) =>
    lifecycle.move(tx, projectId, { ...change, run: 'arrival' }, now)

  lifecycle.registerTransition(STATUS_CHANGE_KIND, async (tx, row, now) => {
    const change = row.payload as { from: ProjectStatus; to: ProjectStatus }
    if (!lifecycle.prepares(change.to)) return move(tx, row.project_id, change, now)
    if (!(await isInStatus(tx, row.project_id, change.from))) return `skipped: project no longer ${change.from}`
    return projectWork(
      (store) => lifecycle.prepareArrival(store, row.project_id, change.to),
      (tx2, _prepared, recordedAt) => move(tx2, row.project_id, change, recordedAt),
    )
  })

  lifecycle.onEntry(async (tx, projectId, status, now) => {
    if (status !== 'COMING_UP') return
    const due = new Date(now.getTime() + durations.comingUpMs)
    await scheduleStatusChange(tx, projectId, { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, due, now)
  })
}
