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
 */
import type { ServerConfig } from '../../config'
import type { Queryable } from '../../db'
import { scheduleTransition, type Lifecycle, type TransitionRow } from '../../engine/lifecycle'
import type { ProjectDatabases } from '../projectdb/types'
import { applyMigration, applySeed, HISTORY_SQL, migrationError, StatementFailure } from './history'
import { finishStep, nextStep, setBranchStatus, skipRemaining, type StepRow } from './store'

export const BRANCH_STEP_KIND = 'branch.step'

interface StepPayload {
  branch_id: string
  build: number
}

interface BuildRow {
  id: string
  project_id: number
  project_ref: string
  status: string
  build: number
  db_build: number
}

export function scheduleBranchStep(tx: Queryable, projectId: number, payload: StepPayload, dueAt: Date, now: Date): Promise<void> {
  return scheduleTransition(tx, projectId, BRANCH_STEP_KIND, { ...payload }, dueAt, now)
}

export function registerBranchingLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle'], dbs: ProjectDatabases): void {
  const inBranchDb = <T>(ref: string, fn: Parameters<ProjectDatabases['transaction']>[2]) =>
    dbs.transaction(ref, { platform: true }, fn) as Promise<T>

  async function arriveUp(tx: Queryable, b: BuildRow, now: Date) {
    await tx.query(`update projects set status = 'ACTIVE_HEALTHY', updated_at = $2, status_changed_at = $2 where id = $1`, [
      b.project_id,
      now.toISOString(),
    ])
    await lifecycle.arrive(tx, b.project_id, 'ACTIVE_HEALTHY', now)
  }

  async function runStep(tx: Queryable, b: BuildRow, step: StepRow, now: Date): Promise<'applied' | 'failed'> {
    const began = performance.now()
    try {
      await inBranchDb(b.project_ref, (db) =>
        step.kind === 'seed' ? applySeed(db, step.file, step.sql) : applyMigration(db, { version: step.version, name: step.name, sql: step.sql }),
      )
      await finishStep(tx, step, { status: 'applied', startedAt: now, durationMs: performance.now() - began })
      return 'applied'
    } catch (err) {
      const error = err instanceof StatementFailure ? err.error : migrationError(err, step.sql)
      await finishStep(tx, step, { status: 'failed', startedAt: now, durationMs: performance.now() - began, error })
      return 'failed'
    }
  }

  lifecycle.registerTransition(BRANCH_STEP_KIND, async (tx, row: TransitionRow, now) => {
    const payload = row.payload as unknown as StepPayload
    const { rows } = await tx.query<BuildRow>(
      `select b.id, b.project_id, p.ref as project_ref, b.status, b.build, b.db_build
       from branches b join projects p on p.id = b.project_id where b.id = $1 for update of b`,
      [payload.branch_id],
    )
    const b = rows[0]
    if (!b) return 'skipped: the branch was deleted'
    if (b.build !== payload.build) return `skipped: build ${payload.build} was replaced by build ${b.build}`
    const next = () => scheduleBranchStep(tx, b.project_id, payload, new Date(now.getTime() + durations.branchStepMs), now)

    if (b.status === 'CREATING_PROJECT') {
      if (b.db_build !== b.build) {
        // A reset: the database of the previous build goes (dropping a missing one is a no-op), then a new one.
        if (b.db_build !== 0) await dbs.drop(b.project_ref)
        await tx.query('update branches set db_build = $2 where id = $1', [b.id, b.build])
      }
      await dbs.create(b.project_ref)
      await inBranchDb(b.project_ref, (db) => db.exec(HISTORY_SQL))
      await setBranchStatus(tx, b.id, 'RUNNING_MIGRATIONS', now)
      await next()
      return 'applied: database created'
    }
    if (b.status !== 'RUNNING_MIGRATIONS') return `skipped: the branch is ${b.status}`

    const step = await nextStep(tx, b.id)
    if (!step) {
      await setBranchStatus(tx, b.id, 'MIGRATIONS_PASSED', now)
      await arriveUp(tx, b, now)
      return 'applied: migrations passed'
    }
    const outcome = await runStep(tx, b, step, now)
    if (outcome === 'failed') {
      await skipRemaining(tx, b.id)
      await setBranchStatus(tx, b.id, 'MIGRATIONS_FAILED', now)
      await arriveUp(tx, b, now)
      return `applied: ${step.file} failed`
    }
    await next()
    return `applied: ${step.file}`
  })
}
