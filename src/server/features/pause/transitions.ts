/**
 * The timed steps of a pause and of a restore. A pause schedules both steps at once (GOING_DOWN → PAUSING →
 * INACTIVE), so each is durable from the start and each moves only from its `from`. A restore ends with the
 * 'project.restore' transition: RESTORING → ACTIVE_HEALTHY, or RESTORATION_FAILED with a recorded message when the
 * development control asked this project's next restore to fail (the switch is used up). Either way it is an
 * arrival: the arrival hooks run, as for a project that has finished coming up.
 */
import type { ServerConfig } from '../../config'
import { takeDevSwitch } from '../../core/devSwitches'
import { scheduleTransition, type Lifecycle } from '../../engine/lifecycle'
import { scheduleStatusChange } from '../../engine/lifecycle'
import { lockIfRestoring, setRestoreError } from './store'

const RESTORE_KIND = 'project.restore'

/** What a failed restore records; the restoring page shows it. */
export const RESTORE_FAILURE_MESSAGE =
  'The database could not be restored from its backup: the restore job stopped before the database came back online.'

export function registerPauseLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle']): void {
  lifecycle.registerTransition(RESTORE_KIND, async (tx, row, now) => {
    if (!(await lockIfRestoring(tx, row.project_id))) return 'skipped: project no longer RESTORING'
    const failed = (await takeDevSwitch(tx, row.project_id, 'fail_next_restore')) !== undefined
    await setRestoreError(tx, row.project_id, failed ? RESTORE_FAILURE_MESSAGE : null)
    // The project is locked and RESTORING: the move happens, and its arrival hooks run as on every way up.
    const to = failed ? 'RESTORATION_FAILED' : 'ACTIVE_HEALTHY'
    const outcome = await lifecycle.move(tx, row.project_id, { from: 'RESTORING', to, run: 'arrival' }, now)
    if (outcome !== 'applied') return outcome
    return failed ? 'applied: restoration failed' : 'applied'
  })

  lifecycle.onEntry(async (tx, projectId, status, now) => {
    if (status === 'GOING_DOWN') {
      const toPausing = new Date(now.getTime() + durations.goingDownMs)
      const toInactive = new Date(toPausing.getTime() + durations.pausingMs)
      await scheduleStatusChange(tx, projectId, { from: 'GOING_DOWN', to: 'PAUSING' }, toPausing, now)
      await scheduleStatusChange(tx, projectId, { from: 'PAUSING', to: 'INACTIVE' }, toInactive, now)
    }
    if (status === 'PAUSING') {
      const due = new Date(now.getTime() + durations.pausingMs)
      await scheduleStatusChange(tx, projectId, { from: 'PAUSING', to: 'INACTIVE' }, due, now)
    }
    if (status === 'RESTORING') {
      await scheduleTransition(tx, projectId, RESTORE_KIND, {}, new Date(now.getTime() + durations.restoringMs), now)
    }
  })
}
