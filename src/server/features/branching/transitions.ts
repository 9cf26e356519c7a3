/**
 * A preview branch's build as durable transitions of the lifecycle engine: one 'branch.step' row per step, each
 * scheduling the next LIFECYCLE_BRANCH_STEP_MS later, so a restart resumes where the store says it was.
 *   CREATING_PROJECT    the branch's database from the template (a reset's first step drops the old one first),
 *                       with the migration history schema → RUNNING_MIGRATIONS
 *   RUNNING_MIGRATIONS  one step at a time: the next migration file, then the seed; a step whose record is already
 *                       in the branch's database (the database committed, the store did not: a crash between the two)
 *                       is marked applied without running again
 *   → MIGRATIONS_PASSED, or MIGRATIONS_FAILED at the first failing statement (its file, statement and Postgres error
 *     kept; the migrations before it stay applied and recorded, the steps after it are skipped). Either way the
 *     branch's project arrives at ACTIVE_HEALTHY (its keys, its database usable: the failure can be looked into).
 * A step row of an older build (before a reset) or of a deleted branch does nothing. The branch's project never
 * enters COMING_UP through the lifecycle's entry hooks (their timed COMING_UP → ACTIVE_HEALTHY is not its way up).
 * Each step's database work is the engine's project work: it runs with no store transaction open (a migration may
 * take as long as the project database's query time-out allows, and the store must keep serving meanwhile), and
 * its result is recorded in the store afterwards; a step run again after a crash between the two finds its record
 * in the branch's database.
 */
import type { ServerConfig } from '../../config'
import type { Queryable } from '../../db'
import type { MigrationError } from '../../../contracts/branching'
import { projectWork, scheduleTransition, type Lifecycle, type TransitionRow } from '../../engine/lifecycle'
import type { ProjectDatabases } from '../../projectdb/types'
import { applyMigration, applySeed, HISTORY_SQL, migrationError, StatementFailure } from './history'
import { finishStep, lockBuild, nextStep, setBranchStatus, setDbBuild, skipRemaining, type BuildRow, type StepRow } from './store'

export const BRANCH_STEP_KIND = 'branch.step'

interface StepPayload {
  branch_id: string
  build: number
}

interface StepResult {
  status: 'applied' | 'failed'
  durationMs: number
  error?: MigrationError
}

export function scheduleBranchStep(tx: Queryable, projectId: number, payload: StepPayload, dueAt: Date, now: Date): Promise<void> {
  return scheduleTransition(tx, projectId, BRANCH_STEP_KIND, { ...payload }, dueAt, now)
}

export function registerBranchingLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle'], dbs: ProjectDatabases): void {
  const inBranchDb = <T>(ref: string, fn: Parameters<ProjectDatabases['transaction']>[2]) =>
    dbs.transaction(ref, { platform: true }, fn) as Promise<T>

  // The branch's project is COMING_UP while its build is current (creation and reset put it there, and a status set
  // from outside cancels the build's rows).
  const arriveUp = (tx: Queryable, b: BuildRow, now: Date) =>
    lifecycle.move(tx, b.project_id, { from: 'COMING_UP', to: 'ACTIVE_HEALTHY', run: 'arrival' }, now)

  /** The branch's row, locked, when this step's build is still the branch's; otherwise why the step does nothing. */
  async function currentBuild(tx: Queryable, payload: StepPayload): Promise<BuildRow | string> {
    const b = await lockBuild(tx, payload.branch_id)
    if (!b) return 'skipped: the branch was deleted'
    if (b.build !== payload.build) return `skipped: build ${payload.build} was replaced by build ${b.build}`
    return b
  }

  /** Runs a step's file on the branch's database (no store transaction is open): what it did, never a throw. */
  async function runStep(b: BuildRow, step: StepRow): Promise<StepResult> {
    const began = performance.now()
    try {
      await inBranchDb(b.project_ref, (db) =>
        step.kind === 'seed' ? applySeed(db, step.file, step.sql) : applyMigration(db, { version: step.version, name: step.name, sql: step.sql }),
      )
      return { status: 'applied', durationMs: performance.now() - began }
    } catch (err) {
      const error = err instanceof StatementFailure ? err.error : migrationError(err, step.sql)
      return { status: 'failed', durationMs: performance.now() - began, error }
    }
  }

  lifecycle.registerTransition(BRANCH_STEP_KIND, async (tx, row: TransitionRow, now) => {
    const payload = row.payload as unknown as StepPayload
    const b = await currentBuild(tx, payload)
    if (typeof b === 'string') return b
    const next = (q: Queryable, at: Date) => scheduleBranchStep(q, b.project_id, payload, new Date(at.getTime() + durations.branchStepMs), at)
    /** The recording half of a step's work: the build must still be this one (a reset cancels this row first). */
    const stillCurrent = async (q: Queryable) => {
      const again = await currentBuild(q, payload)
      return typeof again === 'string' ? again : undefined
    }

    if (b.status === 'CREATING_PROJECT') {
      // A reset: the database of the previous build goes (dropping a missing one is a no-op), then a new one. db_build
      // is recorded after the drop, so a crash before the record drops again rather than keep the old build's tables.
      const reset = b.db_build !== b.build && b.db_build !== 0
      return projectWork(
        async () => {
          if (reset) await dbs.drop(b.project_ref)
          await dbs.create(b.project_ref)
          await inBranchDb(b.project_ref, (db) => db.exec(HISTORY_SQL))
        },
        async (q, _created, at) => {
          const gone = await stillCurrent(q)
          if (gone) return gone
          await setDbBuild(q, b.id, b.build)
          await setBranchStatus(q, b.id, 'RUNNING_MIGRATIONS', at)
          await next(q, at)
          return 'applied: database created'
        },
      )
    }
    if (b.status !== 'RUNNING_MIGRATIONS') return `skipped: the branch is ${b.status}`

    const step = await nextStep(tx, b.id)
    if (!step) {
      await setBranchStatus(tx, b.id, 'MIGRATIONS_PASSED', now)
      await arriveUp(tx, b, now)
      return 'applied: migrations passed'
    }
    return projectWork(
      () => runStep(b, step),
      async (q, result, at) => {
        const gone = await stillCurrent(q)
        if (gone) return gone
        await finishStep(q, step, { status: result.status, startedAt: now, durationMs: result.durationMs, error: result.error })
        if (result.status === 'failed') {
          await skipRemaining(q, b.id)
          await setBranchStatus(q, b.id, 'MIGRATIONS_FAILED', at)
          await arriveUp(q, b, at)
          return `applied: ${step.file} failed`
        }
        await next(q, at)
        return `applied: ${step.file}`
      },
    )
  })
}
