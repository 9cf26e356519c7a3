/**
 * The SQL of branches (migration 016): a branch with its parent's and its own project's refs, its build steps, and
 * the mapping of rows to the contract's shapes.
 */
import type {
  BranchMigrations,
  BranchResponse,
  BranchStatus,
  MigrationError,
  MigrationResult,
  PlanWarning,
  SeedResult,
  StepStatus,
} from '../../../contracts/branching'
import type { ProjectStatus } from '../../../contracts/common'
import type { Queryable } from '../../db'
import { iso } from '../../core/rows'

export interface BranchRow {
  id: string
  parent_project_id: number
  parent_ref: string
  project_id: number
  project_ref: string
  project_status: ProjectStatus
  organization_id: number
  name: string
  git_branch: string
  git_sha: string
  repository: string
  persistent: boolean
  status: BranchStatus
  build: number
  db_build: number
  warnings: PlanWarning[]
  review_requested_at: Date | string | null
  created_at: Date | string
  updated_at: Date | string
}

const branchSelect = `select b.id, b.parent_project_id, pp.ref as parent_ref, b.project_id, bp.ref as project_ref,
  bp.status as project_status, bp.organization_id, b.name, b.git_branch, b.git_sha, b.repository, b.persistent,
  b.status, b.build, b.db_build, b.warnings, b.review_requested_at, b.created_at, b.updated_at
  from branches b join projects pp on pp.id = b.parent_project_id join projects bp on bp.id = b.project_id`

type V1ProjectStatus = NonNullable<BranchResponse['preview_project_status']>

/** The v1 status enum spells RESTORATION_FAILED as RESTORE_FAILED (src/contracts/v1.ts). */
export const v1Status = (status: ProjectStatus): V1ProjectStatus => (status === 'RESTORATION_FAILED' ? 'RESTORE_FAILED' : status)

export function toBranchResponse(row: BranchRow): BranchResponse {
  return {
    id: row.id,
    name: row.name,
    project_ref: row.project_ref,
    parent_project_ref: row.parent_ref,
    is_default: false,
    git_branch: row.git_branch,
    persistent: row.persistent,
    status: row.status,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(row.review_requested_at ? { review_requested_at: iso(row.review_requested_at) } : {}),
    with_data: false,
    preview_project_status: v1Status(row.project_status),
  }
}

/** A new branch (its project made in the same transaction), building its first build. */
export async function insertBranch(
  tx: Queryable,
  b: {
    id: string
    parentProjectId: number
    projectId: number
    name: string
    gitBranch: string
    gitSha: string
    repository: string
    persistent: boolean
    warnings: PlanWarning[]
    now: Date
  },
): Promise<void> {
  await tx.query(
    `insert into branches (id, parent_project_id, project_id, name, git_branch, git_sha, repository, persistent, status,
       warnings, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'CREATING_PROJECT', $9::jsonb, $10, $10)`,
    [b.id, b.parentProjectId, b.projectId, b.name, b.gitBranch, b.gitSha, b.repository, b.persistent, JSON.stringify(b.warnings), b.now.toISOString()],
  )
}

/** The parent project is marked as having branches (once). */
export async function markBranchEnabled(tx: Queryable, parentProjectId: number, now: Date): Promise<void> {
  await tx.query('update projects set is_branch_enabled = true, updated_at = $2 where id = $1 and not is_branch_enabled', [
    parentProjectId,
    now.toISOString(),
  ])
}

/**
 * The branch's changed fields (an absent one is kept); `request_review` true stamps the review request, false
 * clears it. A new name is the branch's project's name too.
 */
export async function updateBranch(
  tx: Queryable,
  b: { id: string; projectId: number },
  change: { branch_name?: string; git_branch?: string; persistent?: boolean; request_review?: boolean },
  now: string,
): Promise<void> {
  await tx.query(
    `update branches set name = coalesce($2, name), git_branch = coalesce($3, git_branch), persistent = coalesce($4, persistent),
       review_requested_at = case when $5::boolean is null then review_requested_at when $5::boolean then $6::timestamptz else null end,
       updated_at = $6
     where id = $1`,
    [b.id, change.branch_name ?? null, change.git_branch ?? null, change.persistent ?? null, change.request_review ?? null, now],
  )
  if (change.branch_name !== undefined) await tx.query('update projects set name = $2 where id = $1', [b.projectId, change.branch_name])
}

/** The next build of the branch from `gitSha`; returns its number. */
export async function startNextBuild(tx: Queryable, branchId: string, gitSha: string, warnings: PlanWarning[], now: Date): Promise<number> {
  const { rows } = await tx.query<{ build: number }>(
    `update branches set build = build + 1, status = 'CREATING_PROJECT', git_sha = $2, warnings = $3::jsonb, updated_at = $4
     where id = $1 returning build`,
    [branchId, gitSha, JSON.stringify(warnings), now.toISOString()],
  )
  return rows[0].build
}

/** The branch's project's row: its steps and transitions go with it by cascade. */
export async function deleteBranchProject(db: Queryable, projectId: number): Promise<void> {
  await db.query('delete from projects where id = $1', [projectId])
}

/** The Postgres version of the branch's project ('' when it is gone). */
export async function dbVersionOf(db: Queryable, projectId: number): Promise<string> {
  const { rows } = await db.query<{ db_version: string }>('select db_version from projects where id = $1', [projectId])
  return rows[0]?.db_version ?? ''
}

export async function listBranchesOf(db: Queryable, parentProjectId: number): Promise<BranchRow[]> {
  const { rows } = await db.query<BranchRow>(`${branchSelect} where b.parent_project_id = $1 order by b.created_at, b.name`, [parentProjectId])
  return rows
}

export async function findBranchByName(db: Queryable, parentProjectId: number, name: string): Promise<BranchRow | undefined> {
  const { rows } = await db.query<BranchRow>(`${branchSelect} where b.parent_project_id = $1 and b.name = $2`, [parentProjectId, name])
  return rows[0]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** By the branch's id (a uuid) or its project's ref; `forUpdate` locks the branch's row. */
export async function findBranch(db: Queryable, idOrRef: string, forUpdate = false): Promise<BranchRow | undefined> {
  const where = UUID.test(idOrRef) ? 'b.id = $1::uuid' : 'bp.ref = $1'
  const { rows } = await db.query<BranchRow>(`${branchSelect} where ${where}${forUpdate ? ' for update of b' : ''}`, [idOrRef])
  return rows[0]
}

/** The branch whose own project is `projectId` (a project that is a preview branch), if any. */
export async function branchOfProject(db: Queryable, projectId: number): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>('select id from branches where project_id = $1', [projectId])
  return rows[0]
}

// ---------------------------------------------------------------------------------------------------------------
// Build steps

export interface StepRow {
  branch_id: string
  position: number
  kind: 'migration' | 'seed'
  file: string
  version: string
  name: string
  sql: string
  status: StepStatus
  started_at: Date | string | null
  finished_at: Date | string | null
  duration_ms: number | null
  error_message: string | null
  error_code: string | null
  error_statement: string | null
}

export interface NewStep {
  kind: 'migration' | 'seed'
  file: string
  version: string
  name: string
  sql: string
}

export async function replaceSteps(tx: Queryable, branchId: string, steps: NewStep[]): Promise<void> {
  await tx.query('delete from branch_steps where branch_id = $1', [branchId])
  for (const [position, s] of steps.entries()) {
    await tx.query(
      `insert into branch_steps (branch_id, position, kind, file, version, name, sql) values ($1, $2, $3, $4, $5, $6, $7)`,
      [branchId, position, s.kind, s.file, s.version, s.name, s.sql],
    )
  }
}

export async function stepsOf(db: Queryable, branchId: string): Promise<StepRow[]> {
  const { rows } = await db.query<StepRow>('select * from branch_steps where branch_id = $1 order by position', [branchId])
  return rows
}

export async function nextStep(tx: Queryable, branchId: string): Promise<StepRow | undefined> {
  const { rows } = await tx.query<StepRow>(
    `select * from branch_steps where branch_id = $1 and status in ('pending', 'running') order by position limit 1`,
    [branchId],
  )
  return rows[0]
}

export async function finishStep(
  tx: Queryable,
  step: Pick<StepRow, 'branch_id' | 'position'>,
  result: { status: StepStatus; startedAt: Date; durationMs: number; error?: MigrationError | null },
): Promise<void> {
  await tx.query(
    `update branch_steps set status = $3, started_at = $4, finished_at = $5, duration_ms = $6,
       error_message = $7, error_code = $8, error_statement = $9
     where branch_id = $1 and position = $2`,
    [
      step.branch_id,
      step.position,
      result.status,
      result.startedAt.toISOString(),
      new Date(result.startedAt.getTime() + Math.round(result.durationMs)).toISOString(),
      result.durationMs,
      result.error?.message ?? null,
      result.error?.code ?? null,
      result.error?.statement ?? null,
    ],
  )
}

/** Every step still to run is skipped (a migration failed before it). */
export async function skipRemaining(tx: Queryable, branchId: string): Promise<void> {
  await tx.query(`update branch_steps set status = 'skipped' where branch_id = $1 and status in ('pending', 'running')`, [branchId])
}

export interface BuildRow {
  id: string
  project_id: number
  project_ref: string
  status: string
  build: number
  db_build: number
}

/** The branch's build numbers and its project, the branch's row locked. */
export async function lockBuild(tx: Queryable, branchId: string): Promise<BuildRow | undefined> {
  const { rows } = await tx.query<BuildRow>(
    `select b.id, b.project_id, p.ref as project_ref, b.status, b.build, b.db_build
     from branches b join projects p on p.id = b.project_id where b.id = $1 for update of b`,
    [branchId],
  )
  return rows[0]
}

/** Records that the branch's database was made by build `build`. */
export async function setDbBuild(tx: Queryable, branchId: string, build: number): Promise<void> {
  await tx.query('update branches set db_build = $2 where id = $1', [branchId, build])
}

export async function setBranchStatus(tx: Queryable, branchId: string, status: BranchStatus, now: Date): Promise<void> {
  await tx.query('update branches set status = $2, updated_at = $3 where id = $1', [branchId, status, now.toISOString()])
}

const errorOf = (s: StepRow): MigrationError | null =>
  s.error_message === null ? null : { message: s.error_message, code: s.error_code, statement: s.error_statement ?? '' }

const timesOf = (s: StepRow) => ({
  started_at: s.started_at === null ? null : iso(s.started_at),
  finished_at: s.finished_at === null ? null : iso(s.finished_at),
  duration_ms: s.duration_ms === null ? null : Number(s.duration_ms),
})

export const SEED_PATH = 'supabase/seed.sql'

export function toBranchMigrations(branch: BranchRow, steps: StepRow[]): BranchMigrations {
  const migrations: MigrationResult[] = steps
    .filter((s) => s.kind === 'migration')
    .map((s) => ({ file: s.file, version: s.version, name: s.name, status: s.status, ...timesOf(s), error: errorOf(s) }))
  const seedStep = steps.find((s) => s.kind === 'seed')
  const seed: SeedResult = seedStep
    ? { path: seedStep.file, status: seedStep.status, ...timesOf(seedStep), error: errorOf(seedStep) }
    : { path: SEED_PATH, status: 'skipped', started_at: null, finished_at: null, duration_ms: null, error: null }
  return { branch_id: branch.id, status: branch.status, git_branch: branch.git_branch, migrations, seed, warnings: branch.warnings }
}
