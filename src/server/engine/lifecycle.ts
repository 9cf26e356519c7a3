/**
 * Lifecycle engine: every timed status change is a row in lifecycle_transitions with a due time,
 * so a restarted server (or another process on the same Postgres) picks it up and nothing is lost.
 * A due row is taken (FOR UPDATE SKIP LOCKED) in a short store transaction and handed by its kind to the handler a
 * feature registered. A handler whose work is the store's alone answers with its outcome, recorded in that same
 * transaction. A handler with project work (a migration, a database made or dropped) answers with that work instead:
 * the row is then claimed (a token and a lease) and the transaction ends; the work runs with no store
 * transaction open, then a second short transaction records its outcome, if the row is still that claim's (a cancel
 * or a reset meanwhile wins, and a claim whose lease ran out belongs to whoever claimed it next). The store is one
 * connection on PGlite: a store transaction held for a migration's length would stop every request of the process.
 * Work of different projects runs at once, up to `concurrency`; a project's rows run one at a time, across processes
 * too (a project with a live claim is passed over). A process stopped between run and record leaves its claim to
 * run out: the work runs again, so it must find what it already did (branching's history does).
 * Every write of a project's status is the engine's `move`, so no way into a status can skip the hooks that status
 * needs: a status set from outside cancels the project's pending rows, then runs the on-entry hooks the features
 * contributed; a status reached through a timed transition runs the arrival hooks. A move names the status it moves
 * from and does nothing (and says so) when the project is no longer there, so a change made meanwhile (by a request,
 * or by another process on the same PostgreSQL) wins. The engine owns the queue and the status column only: it
 * knows no kind and no status's meaning; features register them.
 */
import { randomUUID } from 'node:crypto'
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

/**
 * Project work a handler asks the engine to run outside the store transaction. `run` gets the store for single
 * statements only (no transaction is open around it); `record` runs in the transaction that finds the row still
 * claimed, and returns the outcome recorded on it. A `run` that throws is recorded as an error outcome.
 */
export interface TransitionWork<T = unknown> {
  run(store: Queryable): Promise<T>
  record(tx: Queryable, result: T, now: Date): Promise<string>
}

/** Builds a TransitionWork with its result's type checked between `run` and `record`. */
export function projectWork<T>(
  run: (store: Queryable) => Promise<T>,
  record: (tx: Queryable, result: T, now: Date) => Promise<string>,
): TransitionWork {
  return { run, record: (tx, result, now) => record(tx, result as T, now) }
}

/**
 * Applies one due row inside the engine's short transaction: returns the outcome recorded on it ('applied',
 * 'skipped: …'), or the project work to run outside that transaction (see TransitionWork). What the handler wrote
 * before answering with work commits with the claim, so it must stay right if the work runs again after a crash.
 */
export type TransitionHandler = (tx: Queryable, row: TransitionRow, now: Date) => Promise<string | TransitionWork>

/** Runs inside the transaction that put the project (already updated) into `status`. */
export type StatusHook = (tx: Queryable, projectId: number, status: ProjectStatus, now: Date) => Promise<void>

/**
 * What a project needs before it arrives at a status (its database before ACTIVE_HEALTHY), run as a transition's
 * project work: no store transaction is open, `store` takes single statements. Must be idempotent.
 */
/**
 * What a feature does when a project is deleted, before its database is dropped: let go of what it holds open for
 * the project (its realtime sockets and change feed, say).
 */
export type RemovalHook = (project: { id: number; ref: string }) => Promise<void>

export type PrepareHook = (store: Queryable, projectId: number) => Promise<void>

/**
 * A move of a project's status (see Lifecycle.move).
 *  - from: the status the project must be in for the move to happen; 'any' for a status set whatever it was;
 *  - run: which hooks the move runs, in its transaction:
 *      'entry'   a status set from outside (a request, a development control): what was pending for the project is
 *                cancelled, then the entry hooks schedule what the new status needs;
 *      'arrival' a timed transition has brought the project there: the arrival hooks run (its API keys …);
 *      'none'    the caller schedules what the new status needs itself (an upgrade's steps, a branch's build).
 */
export interface StatusMove {
  from: ProjectStatus | 'any'
  to: ProjectStatus
  run: 'entry' | 'arrival' | 'none'
}

/** What a move did: 'applied', or why the project stayed where it was (a transition's outcome records it). */
export type MoveOutcome = 'applied' | `skipped: ${string}`

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
  /** Adds what a project needs before it arrives at `status` through a timed transition (see PrepareHook). */
  beforeArrival(status: ProjectStatus, hook: PrepareHook): void
  /** Whether arriving at `status` has something to prepare first. */
  prepares(status: ProjectStatus): boolean
  /** Runs the hooks added with beforeArrival for `status`, outside any store transaction. */
  prepareArrival(store: Queryable, projectId: number, status: ProjectStatus): Promise<void>
  handlerFor(kind: string): TransitionHandler | undefined
  onRemoval(hook: RemovalHook): void
  /** Runs the removal hooks of a project being deleted (before its database is dropped). */
  removing(project: { id: number; ref: string }): Promise<void>
  /**
   * Runs the entry hooks of a project just inserted with `status` (a new project, the seed): the one way into a
   * status that is not a move, since there was no status before.
   */
  enterStatus(tx: Queryable, projectId: number, status: ProjectStatus, now: Date): Promise<void>
  /**
   * Moves a project from `move.from` to `move.to` and runs the hooks `move.run` names, in `tx`; the only write of a
   * project's status. A project not in `from` is left as it is and the outcome says why.
   */
  move(tx: Queryable, projectId: number, move: StatusMove, now: Date): Promise<MoveOutcome>
}

export function createLifecycle(): Lifecycle {
  const handlers = new Map<string, TransitionHandler>()
  const entryHooks: StatusHook[] = []
  const arrivalHooks: StatusHook[] = []
  const prepareHooks = new Map<ProjectStatus, PrepareHook[]>()
  const removalHooks: RemovalHook[] = []
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
    beforeArrival(status, hook) {
      prepareHooks.set(status, [...(prepareHooks.get(status) ?? []), hook])
    },
    prepares: (status) => (prepareHooks.get(status)?.length ?? 0) > 0,
    async prepareArrival(store, projectId, status) {
      for (const hook of prepareHooks.get(status) ?? []) await hook(store, projectId)
    },
    handlerFor: (kind) => handlers.get(kind),
    onRemoval: (hook) => void removalHooks.push(hook),
    async removing(project) {
      for (const hook of removalHooks) await hook(project)
    },
    enterStatus: (tx, projectId, status, now) => run(entryHooks, tx, projectId, status, now),
    async move(tx, projectId, { from, to, run: hooks }, now) {
      // One statement checks `from` and writes `to`: on PostgreSQL a concurrent move of the same row waits for the
      // row lock and then finds the status it left, so of two moves from one status only one happens.
      const { rows } = await tx.query<{ id: number }>(
        `update projects set status = $2, updated_at = $3, status_changed_at = $3
         where id = $1 and ($4::text is null or status = $4) returning id`,
        [projectId, to, now.toISOString(), from === 'any' ? null : from],
      )
      if (!rows.length) return from === 'any' ? `skipped: no project ${projectId}` : `skipped: project no longer ${from}`
      if (hooks === 'entry') {
        await cancelPendingTransitions(tx, projectId, now)
        await run(entryHooks, tx, projectId, to, now)
      }
      if (hooks === 'arrival') await run(arrivalHooks, tx, projectId, to, now)
      return 'applied'
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

/**
 * The timed status change: a 'project.status' transition (payload { from, to }) that moves the project at `dueAt` if
 * it is still in `from`. The lifecycle feature registers what runs it; any feature schedules one (coming up, the two
 * steps of a pause).
 */
export const STATUS_CHANGE_KIND = 'project.status'

export function scheduleStatusChange(
  tx: Queryable,
  projectId: number,
  change: { from: ProjectStatus; to: ProjectStatus },
  dueAt: Date,
  now: Date,
): Promise<void> {
  return scheduleTransition(tx, projectId, STATUS_CHANGE_KIND, change, dueAt, now)
}

export async function cancelPendingTransitions(tx: Queryable, projectId: number, now: Date): Promise<void> {
  await tx.query(
    `update lifecycle_transitions set cancelled_at = $2, outcome = 'cancelled'
     where project_id = $1 and done_at is null and cancelled_at is null`,
    [projectId, now.toISOString()],
  )
}

export interface Engine {
  /**
   * Takes every transition due at the clock's now that this process may run, waits for the project work of the rows
   * it took (and takes what becomes due for those projects meanwhile); resolves to how many rows it took. A project
   * whose work another run (or another process) holds is left to that run.
   */
  runDue(): Promise<number>
  start(): void
  /** Stops the timer, takes no more rows, and waits for the work in progress to be recorded. */
  stop(): Promise<void>
}

export interface EngineOptions {
  db: Db
  clock: Clock
  tickMs: number
  lifecycle: Pick<Lifecycle, 'handlerFor'>
  log?: (msg: string) => void
  /** Projects whose work runs at once in this process (default 1); rows with no project work need no slot. */
  concurrency?: number
  /** How long a claim holds unless renewed (default 30 s); the running process renews it every third of that. */
  leaseMs?: number
}

/** How long a claim holds unless renewed, by default: a process stopped between run and record delays its row this long. */
export const CLAIM_LEASE_MS = 30_000
/** A row whose work was claimed this many times and never recorded is given up: its work keeps stopping the process. */
export const MAX_CLAIM_ATTEMPTS = 3
/** Class key of the transaction-scoped advisory lock that keeps two claims of one project from overlapping. */
const CLAIM_LOCK_CLASS = 7_262_017

type ClaimedRow = TransitionRow & { attempts: number }
type Claim = { kind: 'recorded' } | { kind: 'work'; row: TransitionRow; token: string; work: TransitionWork }

/** Thrown to roll a claim back: its handler asked for project work and no slot is free. */
class NoFreeSlot extends Error {}

export function createEngine(opts: EngineOptions): Engine {
  const { db, clock, tickMs, lifecycle } = opts
  // A transition's error may quote what it handled (a key, a token): masked before it is printed.
  const log = opts.log ?? ((msg: string) => console.error(redactSecrets(msg)))
  const concurrency = Math.max(1, opts.concurrency ?? 1)
  const leaseMs = opts.leaseMs ?? CLAIM_LEASE_MS
  let timer: ReturnType<typeof setInterval> | undefined
  let stopped = false
  /** Project id → its work running in this process. */
  const inFlight = new Map<number, Promise<void>>()
  /** Every runDue in progress (stop waits for them). */
  const runs = new Set<Promise<number>>()
  /** Runs now looking for rows: a tick starts none while one is. */
  let claiming = 0

  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs).toISOString()

  /**
   * Takes one due row: records it when its handler answers with an outcome, claims it when the handler answers with
   * project work (and a slot is free). Projects in `passOver` are not looked at. Undefined when nothing is due.
   */
  async function claimNext(passOver: Set<number>): Promise<Claim | undefined> {
    for (;;) {
      const now = clock.now()
      let taken: ClaimedRow | undefined
      let busyProject: number | undefined
      try {
        const claim = await db.transaction(async (tx): Promise<Claim | 'busy' | undefined> => {
          const { rows } = await tx.query<ClaimedRow>(
            `select t.id, t.project_id, t.kind, t.payload, t.due_at, t.attempts from lifecycle_transitions t
             where t.done_at is null and t.cancelled_at is null and t.due_at <= $1
               and (t.claimed_until is null or t.claimed_until < $1)
               and not (t.project_id = any($2::int[]))
               and not exists (select 1 from lifecycle_transitions c
                 where c.project_id = t.project_id and c.id <> t.id and c.claimed_until >= $1)
             order by t.due_at, t.id limit 1 for update of t skip locked`,
            [now.toISOString(), [...passOver]],
          )
          const row = rows[0]
          if (!row) return undefined
          // Another process may be claiming a row of this project now, its claim not yet committed: the lock tells,
          // and once it is held, a claim committed meanwhile is seen (each statement reads what is committed).
          busyProject = row.project_id
          const { rows: lock } = await tx.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1::int, $2::int) as ok', [
            CLAIM_LOCK_CLASS,
            row.project_id,
          ])
          if (!lock[0]?.ok) return 'busy'
          const { rows: live } = await tx.query(
            'select 1 from lifecycle_transitions where project_id = $1 and id <> $2 and claimed_until >= $3 limit 1',
            [row.project_id, row.id, now.toISOString()],
          )
          if (live[0]) return 'busy'
          taken = row
          const done = (outcome: string) =>
            tx.query(`update lifecycle_transitions set done_at = $2, outcome = $3, claimed_until = null where id = $1`, [
              row.id,
              now.toISOString(),
              outcome,
            ])
          if (row.attempts >= MAX_CLAIM_ATTEMPTS) {
            await done(`error: given up after ${row.attempts} attempts whose work was never recorded`)
            return { kind: 'recorded' }
          }
          const handler = lifecycle.handlerFor(row.kind)
          const answer = handler ? await handler(tx, row, now) : `skipped: unknown kind ${row.kind}`
          if (typeof answer === 'string') {
            await done(answer)
            return { kind: 'recorded' }
          }
          if (inFlight.size >= concurrency) throw new NoFreeSlot()
          const token = randomUUID()
          await tx.query(
            `update lifecycle_transitions set claim_token = $2, claimed_until = $3, attempts = attempts + 1 where id = $1`,
            [row.id, token, leaseEnd()],
          )
          return { kind: 'work', row, token, work: answer }
        })
        if (claim !== 'busy') return claim
        passOver.add(busyProject!)
      } catch (err) {
        if (err instanceof NoFreeSlot) {
          passOver.add(busyProject!)
          continue
        }
        if (!taken) throw err
        // Record the failure so a broken row is not retried on every tick.
        log(`lifecycle: transition ${taken.id} (${taken.kind}) failed: ${(err as Error).message}`)
        await db.query(`update lifecycle_transitions set done_at = $2, outcome = $3 where id = $1 and done_at is null`, [
          taken.id,
          now.toISOString(),
          `error: ${redactSecrets((err as Error).message)}`.slice(0, 500),
        ])
        return { kind: 'recorded' }
      }
    }
  }

  /** Runs a claimed row's work with no store transaction open, renewing the claim, then records it. Never throws. */
  async function execute(claim: Extract<Claim, { kind: 'work' }>): Promise<void> {
    const { row, token, work } = claim
    const renew = setInterval(() => {
      db.query('update lifecycle_transitions set claimed_until = $3 where id = $1 and claim_token = $2', [row.id, token, leaseEnd()]).catch(
        (err: Error) => log(`lifecycle: renewing the claim of transition ${row.id} failed: ${err.message}`),
      )
    }, Math.max(1, Math.floor(leaseMs / 3)))
    let result: { ok: true; value: unknown } | { ok: false; error: Error }
    try {
      result = { ok: true, value: await work.run(db) }
    } catch (err) {
      result = { ok: false, error: err as Error }
      log(`lifecycle: the work of transition ${row.id} (${row.kind}) failed: ${(err as Error).message}`)
    } finally {
      clearInterval(renew)
    }
    const now = clock.now()
    try {
      const recorded = await db.transaction(async (tx) => {
        // Still this claim's? A cancel (a reset, a status set from outside) or a claim taken after the lease ran out wins.
        const { rows } = await tx.query(
          `select id from lifecycle_transitions where id = $1 and claim_token = $2 and done_at is null and cancelled_at is null
           for update`,
          [row.id, token],
        )
        if (!rows[0]) return false
        const outcome = result.ok ? await work.record(tx, result.value, now) : `error: ${redactSecrets(result.error.message)}`.slice(0, 500)
        await tx.query(`update lifecycle_transitions set done_at = $3, outcome = $4, claimed_until = null where id = $1 and claim_token = $2`, [
          row.id,
          token,
          now.toISOString(),
          outcome,
        ])
        return true
      })
      if (!recorded) await release(row.id, token)
    } catch (err) {
      log(`lifecycle: recording transition ${row.id} (${row.kind}) failed: ${(err as Error).message}`)
      await db
        .query(
          `update lifecycle_transitions set done_at = $3, outcome = $4, claimed_until = null
           where id = $1 and claim_token = $2 and done_at is null and cancelled_at is null`,
          [row.id, token, now.toISOString(), `error: ${redactSecrets((err as Error).message)}`.slice(0, 500)],
        )
        .then(() => release(row.id, token))
        .catch((e: Error) => log(`lifecycle: transition ${row.id} keeps its claim until the lease ends: ${e.message}`))
    }
  }

  /** Lets go of a claim this run no longer records (its row was cancelled): the project's next row may run. */
  function release(id: number, token: string) {
    return db.query('update lifecycle_transitions set claimed_until = null where id = $1 and claim_token = $2', [id, token])
  }

  async function drain(): Promise<number> {
    let n = 0
    const mine = new Set<Promise<void>>()
    for (;;) {
      claiming++
      try {
        const passOver = new Set(inFlight.keys())
        while (!stopped) {
          const claim = await claimNext(passOver)
          if (!claim) break
          n++
          if (claim.kind === 'recorded') continue
          const projectId = claim.row.project_id
          passOver.add(projectId)
          const running: Promise<void> = execute(claim).finally(() => {
            inFlight.delete(projectId)
            mine.delete(running)
          })
          inFlight.set(projectId, running)
          mine.add(running)
        }
      } finally {
        claiming--
      }
      if (mine.size === 0) return n
      // A work finished: its project's next row may be due, and a slot is free.
      await Promise.race(mine)
    }
  }

  function runDue(): Promise<number> {
    const run = drain()
    runs.add(run)
    const forget = () => void runs.delete(run)
    run.then(forget, forget)
    return run
  }

  return {
    runDue,
    start() {
      if (timer) return
      stopped = false
      timer = setInterval(() => {
        if (claiming > 0) return
        runDue().catch((err: Error) => log(`lifecycle: tick failed: ${err.message}`))
      }, tickMs)
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      stopped = true
      while (runs.size > 0) await Promise.allSettled([...runs])
      stopped = false
    },
  }
}
