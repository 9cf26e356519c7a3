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
  /** payload { from, to }: moves the project only if it is still in `from`. */
  async 'project.status'(tx, row, now) {
    const { from, to } = row.payload as { from: ProjectStatus; to: ProjectStatus }
    const { rows } = await tx.query<{ id: number }>(
      `update projects set status = $3, updated_at = $4, status_changed_at = $4 where id = $1 and status = $2 returning id`,
      [row.project_id, from, to, now.toISOString()],
    )
    return rows.length ? 'applied' : `skipped: project no longer ${from}`
  },
}

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
  if (status === 'COMING_UP') {
    const due = new Date(now.getTime() + durations.comingUpMs)
    await scheduleTransition(tx, projectId, 'project.status', { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, due, now)
  }
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
