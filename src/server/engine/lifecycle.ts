/**
 * Lifecycle engine: every timed status change is a row in lifecycle_transitions with a due time,
 * so a restarted server (or another process on the same Postgres) picks it up and nothing is lost.
 * Each tick claims one due row at a time (FOR UPDATE SKIP LOCKED), dispatches it by its kind to the handler a
 * feature registered, and marks it done in the same transaction. A status set from outside cancels the
 * project's pending rows first, then runs the on-entry hooks the features contributed.
 * The engine owns the queue only: it knows no kind and no status; features register them (see createLifecycle).
 */
import type { ProjectStatus } from '../../contracts/common'
import type { Clock } from '../config'
import { redactSecrets } from '../core/redact'
import type { Db, Queryable } from '../db'

export interface TransitionRow {
  id: number
  project_id: number
  kind: string
  payload: Record<string, unknown>
  due_at: Date
}

/** Applies one due row inside the engine's transaction; returns the outcome recorded on it ('applied', 'skipped: …'). */
export type TransitionHandler = (tx: Queryable, row: TransitionRow, now: Date) => Promise<string>

/** Runs inside the transaction that put the project (already updated) into `status`. */
export type StatusHook = (tx: Queryable, projectId: number, status: ProjectStatus, now: Date) => Promise<void>

/**
 * What the features contribute to the engine, built once per app instance (so two apps in one process never
 * share handlers):
 *  - transitions: the handler of each kind of durable row;
 *  - entry hooks: what entering a status from outside (a request, a development control, the seed) schedules;
 *  - arrival hooks: what a project reaching a status through a timed transition needs (e.g. its API keys).
 */
export interface Lifecycle {
  /** Registers the handler of a kind; a kind is registered once (a second registration throws). */
  registerTransition(kind: string, handler: TransitionHandler): void
  onEntry(hook: StatusHook): void
  onArrival(hook: StatusHook): void
  handlerFor(kind: string): TransitionHandler | undefined
  /** Runs the entry hooks: the project row already has `status`. */
  enterStatus(tx: Queryable, projectId: number, status: ProjectStatus, now: Date): Promise<void>
  /** Runs the arrival hooks: a transition has just moved the project into `status`. */
  arrive(tx: Queryable, projectId: number, status: ProjectStatus, now: Date): Promise<void>
  /** Sets a project's status from outside the engine: cancels what was pending, then runs the entry hooks. */
  setStatus(tx: Queryable, projectId: number, status: ProjectStatus, now: Date): Promise<void>
}

export function createLifecycle(): Lifecycle {
  const handlers = new Map<string, TransitionHandler>()
  const entryHooks: StatusHook[] = []
  const arrivalHooks: StatusHook[] = []
  const run = async (hooks: StatusHook[], tx: Queryable, projectId: number, status: ProjectStatus, now: Date) => {
    for (const hook of hooks) await hook(tx, projectId, status, now)
  }
  const lifecycle: Lifecycle = {
    registerTransition(kind, handler) {
      if (handlers.has(kind)) throw new Error(`lifecycle: a handler for '${kind}' is already registered`)
      handlers.set(kind, handler)
    },
    onEntry: (hook) => void entryHooks.push(hook),
    onArrival: (hook) => void arrivalHooks.push(hook),
    handlerFor: (kind) => handlers.get(kind),
    enterStatus: (tx, projectId, status, now) => run(entryHooks, tx, projectId, status, now),
    arrive: (tx, projectId, status, now) => run(arrivalHooks, tx, projectId, status, now),
    async setStatus(tx, projectId, status, now) {
      await cancelPendingTransitions(tx, projectId, now)
      await tx.query(`update projects set status = $2, updated_at = $3, status_changed_at = $3 where id = $1`, [
        projectId,
        status,
        now.toISOString(),
      ])
      await lifecycle.enterStatus(tx, projectId, status, now)
    },
  }
  return lifecycle
}

export async function scheduleTransition(
  tx: Queryable,
  projectId: number,
  kind: string,
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

export interface Engine {
  /** Applies every transition due at the clock's now; resolves to how many rows were processed. */
  runDue(): Promise<number>
  start(): void
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>
}

export function createEngine(opts: {
  db: Db
  clock: Clock
  tickMs: number
  lifecycle: Pick<Lifecycle, 'handlerFor'>
  log?: (msg: string) => void
}): Engine {
  const { db, clock, tickMs, lifecycle } = opts
  // A transition's error may quote what it handled (a key, a token): masked before it is printed.
  const log = opts.log ?? ((msg: string) => console.error(redactSecrets(msg)))
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
        const handler = lifecycle.handlerFor(row.kind)
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
        `error: ${redactSecrets((err as Error).message)}`.slice(0, 500),
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
