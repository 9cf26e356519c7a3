/**
 * Lifecycle engine: every timed status change is a row in lifecycle_transitions with a due time,
 * so a restarted server (or another process on the same Postgres) picks it up and nothing is lost.
 * Each tick claims one due row at a time (FOR UPDATE SKIP LOCKED), applies it and marks it done in
 * the same transaction. A status set from outside cancels the project's pending rows first.
 * Kinds are handlers in `handlers`; later slices add pause, restore, upgrade steps, JWT rotation.
 */
import type { ProjectStatus } from '../contracts/common'
import type { Clock, ServerConfig } from './config'
import type { Db, Queryable } from './db'
import { applyJwtSecretUpdate, ensureProjectKeys, isSettingUp } from './keys'
import { applyUpgradeStep, beginUpgrade } from './upgrade'

export interface TransitionRow {
  id: number
  project_id: number
  kind: string
  payload: Record<string, unknown>
  due_at: Date
}

/** Returns the outcome recorded on the row ('applied', 'skipped: …'). */
type Handler = (tx: Queryable, row: TransitionRow, now: Date) => Promise<string>

const handlers: Record<string, Handler> = {
  /** payload { upgrade_id, step }: one of the eight steps of a Postgres upgrade (src/server/upgrade.ts). */
  'project.upgrade.step': applyUpgradeStep,
  /** payload { from, to }: moves the project only if it is still in `from`. */
  async 'project.status'(tx, row, now) {
    const { from, to } = row.payload as { from: ProjectStatus; to: ProjectStatus }
    const { rows } = await tx.query<{ id: number }>(
      `update projects set status = $3, updated_at = $4, status_changed_at = $4 where id = $1 and status = $2 returning id`,
      [row.project_id, from, to, now.toISOString()],
    )
    if (!rows.length) return `skipped: project no longer ${from}`
    // A project that has finished coming up gets its JWT secret and API keys (src/server/keys.ts).
    if (to === 'ACTIVE_HEALTHY') await ensureProjectKeys(tx, row.project_id, now)
    return 'applied'
  },
  /** payload { update_id }: re-signs the API keys with the new JWT secret, or fails as asked (src/server/keys.ts). */
  'jwt.secret.update': (tx, row, now) => applyJwtSecretUpdate(tx, row, now),
  /**
   * payload {}: ends a restore. RESTORING → ACTIVE_HEALTHY, or RESTORATION_FAILED with a recorded message when
   * the development control asked this project's next restore to fail (the switch is used up).
   */
  async 'project.restore'(tx, row, now) {
    const { rows } = await tx.query<{ fail_next_restore: boolean }>(
      `select fail_next_restore from projects where id = $1 and status = 'RESTORING' for update`,
      [row.project_id],
    )
    if (!rows[0]) return 'skipped: project no longer RESTORING'
    const failed = rows[0].fail_next_restore
    await tx.query(
      `update projects set status = $2, restore_error = $3, fail_next_restore = false, updated_at = $4, status_changed_at = $4
       where id = $1`,
      [
        row.project_id,
        failed ? 'RESTORATION_FAILED' : 'ACTIVE_HEALTHY',
        failed ? RESTORE_FAILURE_MESSAGE : null,
        now.toISOString(),
      ],
    )
    return failed ? 'applied: restoration failed' : 'applied'
  },
}

/** What a failed restore records; the restoring page shows it. */
export const RESTORE_FAILURE_MESSAGE =
  'The database could not be restored from its backup: the restore job stopped before the database came back online.'

export async function scheduleTransition(
  tx: Queryable,
  projectId: number,
  kind: keyof typeof handlers,
  payload: Record<string, unknown>,
  dueAt: Date,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into lifecycle_transitions (project_id, kind, payload, due_at, created_at)
     values ($1, $2, $3::jsonb, $4, $5)`,
    [projectId, kind, JSON.stringify(payload), dueAt.toISOString(), now.toISOString()],
  )
}

export async function cancelPendingTransitions(tx: Queryable, projectId: number, now: Date): Promise<void> {
  await tx.query(
    `update lifecycle_transitions set cancelled_at = $2, outcome = 'cancelled'
     where project_id = $1 and done_at is null and cancelled_at is null`,
    [projectId, now.toISOString()],
  )
}

/** What entering a status schedules (the project row already has that status). */
export async function scheduleOnEntry(
  tx: Queryable,
  projectId: number,
  status: ProjectStatus,
  now: Date,
  durations: ServerConfig['lifecycle'],
): Promise<void> {
  // Past setting up, a project has its API keys (a no-op when it has them already).
  if (!isSettingUp(status)) await ensureProjectKeys(tx, projectId, now)
  if (status === 'COMING_UP') {
    const due = new Date(now.getTime() + durations.comingUpMs)
    await scheduleTransition(tx, projectId, 'project.status', { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, due, now)
  }
  // A pause: both steps are scheduled at once, so each is durable from the start; each moves only from its `from`.
  if (status === 'GOING_DOWN') {
    const toPausing = new Date(now.getTime() + durations.goingDownMs)
    const toInactive = new Date(toPausing.getTime() + durations.pausingMs)
    await scheduleTransition(tx, projectId, 'project.status', { from: 'GOING_DOWN', to: 'PAUSING' }, toPausing, now)
    await scheduleTransition(tx, projectId, 'project.status', { from: 'PAUSING', to: 'INACTIVE' }, toInactive, now)
  }
  if (status === 'PAUSING') {
    const due = new Date(now.getTime() + durations.pausingMs)
    await scheduleTransition(tx, projectId, 'project.status', { from: 'PAUSING', to: 'INACTIVE' }, due, now)
  }
  if (status === 'RESTORING') {
    await scheduleTransition(tx, projectId, 'project.restore', {}, new Date(now.getTime() + durations.restoringMs), now)
  }
  // A project put UPGRADING from outside (seed, development control) gets an upgrade record that does not advance:
  // a stuck upgrade, as the upgrade page and its overdue prompt show. Real upgrades start at POST /v1/…/upgrade.
  if (status === 'UPGRADING') await beginUpgrade(tx, projectId, { stepMs: durations.upgradeStepMs, now, scheduleSteps: false })
}

/** Sets a project's status from outside the engine: cancels what was pending, then schedules anew. */
export async function setProjectStatus(
  tx: Queryable,
  projectId: number,
  status: ProjectStatus,
  now: Date,
  durations: ServerConfig['lifecycle'],
): Promise<void> {
  await cancelPendingTransitions(tx, projectId, now)
  await tx.query(`update projects set status = $2, updated_at = $3, status_changed_at = $3 where id = $1`, [
    projectId,
    status,
    now.toISOString(),
  ])
  await scheduleOnEntry(tx, projectId, status, now, durations)
}

export interface Engine {
  /** Applies every transition due at the clock's now; resolves to how many rows were processed. */
  runDue(): Promise<number>
  start(): void
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>
}

export function createEngine(opts: { db: Db; clock: Clock; tickMs: number; log?: (msg: string) => void }): Engine {
  const { db, clock, tickMs } = opts
  const log = opts.log ?? ((msg: string) => console.error(msg))
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<number> | undefined

  /** Claims, applies and marks one due row in one transaction; false when none is due. */
  async function runOne(): Promise<boolean> {
    const now = clock.now()
    let failed: TransitionRow | undefined
    try {
      return await db.transaction(async (tx) => {
        const { rows } = await tx.query<TransitionRow>(
          `select id, project_id, kind, payload, due_at from lifecycle_transitions
           where done_at is null and cancelled_at is null and due_at <= $1
           order by due_at, id limit 1 for update skip locked`,
          [now.toISOString()],
        )
        const row = rows[0]
        if (!row) return false
        failed = row
        const handler = handlers[row.kind]
        const outcome = handler ? await handler(tx, row, now) : `skipped: unknown kind ${row.kind}`
        await tx.query(`update lifecycle_transitions set done_at = $2, outcome = $3 where id = $1`, [
          row.id,
          now.toISOString(),
          outcome,
        ])
        return true
      })
    } catch (err) {
      if (!failed) throw err
      // Record the failure so a broken row is not retried on every tick.
      log(`lifecycle: transition ${failed.id} (${failed.kind}) failed: ${(err as Error).message}`)
      await db.query(`update lifecycle_transitions set done_at = $2, outcome = $3 where id = $1 and done_at is null`, [
        failed.id,
        now.toISOString(),
        `error: ${(err as Error).message}`.slice(0, 500),
      ])
      return true
    }
  }

  async function runDueNow(): Promise<number> {
    let n = 0
    while (await runOne()) n++
    return n
  }

  function runDue(): Promise<number> {
    // One run at a time per process; a caller arriving meanwhile waits for it, then runs again.
    const result = (running ?? Promise.resolve(0)).catch(() => 0).then(runDueNow)
    const tracked: Promise<number> = result.finally(() => {
      if (running === tracked) running = undefined
    })
    tracked.catch(() => {})
    running = tracked
    return result
  }

  return {
    runDue,
    start() {
      if (timer) return
      timer = setInterval(() => {
        if (running) return
        runDue().catch((err: Error) => log(`lifecycle: tick failed: ${err.message}`))
      }, tickMs)
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running?.catch(() => {})
    },
  }
}
