/**
 * Database branching: preview branches whose database is built by running the connected repository's migrations and
 * seed (Management API contract: CreateBranchBody, BranchResponse, BranchDetailResponse, UpdateBranchBody,
 * BranchDeleteResponse, BranchActionBody, BranchUpdateResponse; spec 3, 7, 8 and 9).
 * Paths ({branch_id_or_ref}: the branch's id, a uuid, or its preview project's ref):
 *   POST   /v1/projects/{ref}/branches                    CreateBranchBody → 201 BranchResponse (status CREATING_PROJECT)
 *            400 bad body · 403 Read-only member ('projects:write') or free plan (code 'branching_requires_paid_plan')
 *            · 409 no connected repository ('no_repository_connection'), Postgres below 15 ('postgres_version_too_old'),
 *            a branch name already used in the project ('branch_name_taken'), a branch of a branch ('branch_of_branch')
 *            · 404 the repository has no such git branch ('git_branch_not_found')
 *   GET    /v1/projects/{ref}/branches                    → BranchList (the parent's preview branches)
 *   GET    /v1/projects/{ref}/branches/{name}             → BranchResponse, or 404
 *   GET    /v1/branches/{branch_id_or_ref}                → BranchDetailResponse (no password or JWT secret)
 *   PATCH  /v1/branches/{branch_id_or_ref}                UpdateBranchBody → BranchResponse
 *   DELETE /v1/branches/{branch_id_or_ref}                → BranchDeleteResponse; the branch's database is dropped
 *   POST   /v1/branches/{branch_id_or_ref}/reset          BranchActionBody → 201 BranchUpdateResponse; the database is
 *            rebuilt from the template and every migration of the git branch's head runs again (up to
 *            migration_version when given, the seed then left out; otherwise the seed runs again). Allowed at any time:
 *            a build in progress is abandoned for the new one
 *   GET    /v1/branches/{branch_id_or_ref}/diff           → text/plain: the schema difference, one line a change
 *   POST   /v1/branches/{branch_id_or_ref}/merge          BranchActionBody → 201 MergeResponse: the branch's recorded
 *            migrations the parent has not recorded run on the parent in version order, each in its own transaction and
 *            recorded there (up to migration_version when given); a failing one stops the merge: 422 MergeFailure
 *            (code 'merge_migration_failed') naming it, the migrations before it stay applied
 * Platform reads for the dashboard (session cookie):
 *   GET    /platform/projects/{ref}/branching/plan?git_branch={branch} → BranchingPlan: the dry run, nothing runs
 *   GET    /platform/branches/{branch_id_or_ref}/migrations            → BranchMigrations: each migration's result
 *   GET    /platform/branches/{branch_id_or_ref}/diff                  → BranchDiff: the schema difference, structured
 *   GET    /platform/branches/{branch_id_or_ref}/merge-plan            → MergePlan: what a merge would run
 * Reading needs membership of the parent's organization; every change needs projects:write.
 */
import * as z from 'zod/mini'
import { BranchName as GitBranchName } from './github'
import { V1ProjectStatus } from './v1'

// ---------------------------------------------------------------------------------------------------------------
// Branches (Management API shapes)

/** The branch's status in the contract (deprecated there in favour of action runs; the dashboard reads it). */
export const BranchStatus = z.enum([
  'CREATING_PROJECT',
  'RUNNING_MIGRATIONS',
  'MIGRATIONS_PASSED',
  'MIGRATIONS_FAILED',
  'FUNCTIONS_DEPLOYED',
  'FUNCTIONS_FAILED',
])
export type BranchStatus = z.infer<typeof BranchStatus>

/** Statuses after which nothing more happens to a branch until it is reset. */
export const isBranchSettled = (status: BranchStatus) => status !== 'CREATING_PROJECT' && status !== 'RUNNING_MIGRATIONS'

/** A preview branch's name: 1–63 characters, letters, digits, '-', '_', '.' and '/', unique in its parent project. */
export const PreviewBranchName = z.string().check(
  z.minLength(1, 'branch_name is required'),
  z.maxLength(63, 'branch_name must be at most 63 characters'),
  z.regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'branch_name may hold only letters, digits, ".", "_", "-" and "/", and starts with a letter or digit'),
)

export const CreateBranchBody = z.object({
  branch_name: PreviewBranchName,
  /** The git branch of the connected repository whose migrations build the branch (required here: the local
   *  platform builds every preview branch from its repository). */
  git_branch: GitBranchName,
  region: z.optional(z.string().check(z.maxLength(64))),
  persistent: z.optional(z.boolean()),
  is_default: z.optional(z.literal(false)),
  with_data: z.optional(z.literal(false)),
})
export type CreateBranchBody = z.infer<typeof CreateBranchBody>

export const BranchResponse = z.object({
  id: z.string(),
  name: z.string(),
  /** The preview branch's own project. */
  project_ref: z.string(),
  parent_project_ref: z.string(),
  is_default: z.boolean(),
  git_branch: z.optional(z.string()),
  pr_number: z.optional(z.number().check(z.int())),
  persistent: z.boolean(),
  status: BranchStatus,
  created_at: z.string(),
  updated_at: z.string(),
  review_requested_at: z.optional(z.string()),
  with_data: z.boolean(),
  /** The branch project's own status (COMING_UP while it is built, then ACTIVE_HEALTHY). */
  preview_project_status: z.optional(V1ProjectStatus),
})
export type BranchResponse = z.infer<typeof BranchResponse>

export const BranchList = z.array(BranchResponse)
export type BranchList = z.infer<typeof BranchList>

export const BranchDetailResponse = z.object({
  ref: z.string(),
  postgres_version: z.string(),
  postgres_engine: z.string(),
  release_channel: z.string(),
  status: V1ProjectStatus,
  db_host: z.string(),
  db_port: z.number().check(z.int(), z.positive()),
  db_user: z.optional(z.string()),
})
export type BranchDetailResponse = z.infer<typeof BranchDetailResponse>

/** PATCH: rename, point at another git branch, keep it (persistent), ask for review. `reset_on_push` is deprecated
 *  in the contract and ignored; the status is the platform's to set. */
export const UpdateBranchBody = z.object({
  branch_name: z.optional(PreviewBranchName),
  git_branch: z.optional(GitBranchName),
  persistent: z.optional(z.boolean()),
  request_review: z.optional(z.boolean()),
  reset_on_push: z.optional(z.boolean()),
})
export type UpdateBranchBody = z.infer<typeof UpdateBranchBody>

export const BranchDeleteResponse = z.object({ message: z.literal('ok') })
export type BranchDeleteResponse = z.infer<typeof BranchDeleteResponse>

/** A migration's version: the digits before the first '_' of its file name. */
export const MigrationVersion = z.string().check(z.regex(/^\d{1,32}$/, 'migration_version must be digits'))

export const BranchActionBody = z.object({ migration_version: z.optional(MigrationVersion) })
export type BranchActionBody = z.infer<typeof BranchActionBody>

export const BranchUpdateResponse = z.object({ workflow_run_id: z.string(), message: z.literal('ok') })
export type BranchUpdateResponse = z.infer<typeof BranchUpdateResponse>

/** A migration as recorded in `supabase_migrations.schema_migrations`. */
export const RecordedMigration = z.object({ version: z.string(), name: z.string() })
export type RecordedMigration = z.infer<typeof RecordedMigration>

export const MergeResponse = z.object({
  ...BranchUpdateResponse.shape,
  /** What ran on the parent, in order (empty: the parent had every one already). */
  applied: z.array(RecordedMigration),
})
export type MergeResponse = z.infer<typeof MergeResponse>

/** A statement that failed, with Postgres's own error. */
export const MigrationError = z.object({
  /** Postgres's message, as it gave it. */
  message: z.string(),
  /** The SQLSTATE ('42P01' …) when Postgres gave one. */
  code: z.nullable(z.string()),
  /** The statement that failed (the whole file when it could not be split). */
  statement: z.string(),
})
export type MigrationError = z.infer<typeof MigrationError>

/** 422 of a merge whose migration failed on the parent (code 'merge_migration_failed'). */
export const MergeFailure = z.object({
  message: z.string(),
  code: z.literal('merge_migration_failed'),
  migration: RecordedMigration,
  error: MigrationError,
  /** What ran before it (committed). */
  applied: z.array(RecordedMigration),
})
export type MergeFailure = z.infer<typeof MergeFailure>

// ---------------------------------------------------------------------------------------------------------------
// The dry run: what creating a branch from a git branch would run

export const PlanWarningCode = z.enum([
  /** A file of supabase/migrations whose name is not `<digits>_<name>.sql`: it is skipped. */
  'bad_name',
  /** Two files with one version: the second is refused by the history table's primary key. */
  'duplicate_version',
  /** Sequentially numbered versions (0001, 0002 …) that skip a number. */
  'gap',
  /** A file new to the parent whose version is older than the parent's latest recorded one. */
  'out_of_order',
  /** A version the parent has recorded that the git branch has no file for. */
  'missing_in_repository',
  /** The contents could not be read: the import of migrations is skipped (spec 8). */
  'import_skipped',
])
export type PlanWarningCode = z.infer<typeof PlanWarningCode>

export const PlanWarning = z.object({
  code: PlanWarningCode,
  /** The file (or recorded version) it is about; null when about the whole directory. */
  file: z.nullable(z.string()),
  message: z.string(),
})
export type PlanWarning = z.infer<typeof PlanWarning>

export const PlannedMigration = z.object({
  /** File name, as in supabase/migrations ('20240101000000_create_todos.sql'). */
  file: z.string(),
  version: z.string(),
  name: z.string(),
  /** Not recorded in the parent's supabase_migrations.schema_migrations. */
  new_to_parent: z.boolean(),
})
export type PlannedMigration = z.infer<typeof PlannedMigration>

/** A content fetch that failed (spec 8): the status code and text; 500 when the answer could not be parsed. */
export const ContentFetchError = z.object({ status: z.number().check(z.int()), statusText: z.string() })
export type ContentFetchError = z.infer<typeof ContentFetchError>

export const BranchingPlanQuery = z.object({ git_branch: GitBranchName })
export type BranchingPlanQuery = z.infer<typeof BranchingPlanQuery>

export const BranchingPlan = z.object({
  /** 'owner/repo' of the connection. */
  repository: z.string(),
  git_branch: z.string(),
  /** Directory the files were read from ('supabase/migrations', under the connection's workdir). */
  migrations_path: z.string(),
  /** The files that will run, in the order they run (sorted by name; badly named files left out). */
  migrations: z.array(PlannedMigration),
  warnings: z.array(PlanWarning),
  seed: z.object({ path: z.string(), present: z.boolean() }),
  /** Set when reading the repository failed; `migrations` is then empty and an 'import_skipped' warning says so. */
  error: z.nullable(ContentFetchError),
})
export type BranchingPlan = z.infer<typeof BranchingPlan>

// ---------------------------------------------------------------------------------------------------------------
// A branch's build: each migration's result, and the seed's

export const StepStatus = z.enum(['pending', 'running', 'applied', 'failed', 'skipped'])
export type StepStatus = z.infer<typeof StepStatus>

export const MigrationResult = z.object({
  file: z.string(),
  version: z.string(),
  name: z.string(),
  status: StepStatus,
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  /** How long it ran, in milliseconds (null until it has run). */
  duration_ms: z.nullable(z.number().check(z.nonnegative())),
  error: z.nullable(MigrationError),
})
export type MigrationResult = z.infer<typeof MigrationResult>

export const SeedResult = z.object({
  path: z.string(),
  /** 'skipped' when the git branch has no seed.sql, or a migration failed before it. */
  status: StepStatus,
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  duration_ms: z.nullable(z.number().check(z.nonnegative())),
  error: z.nullable(MigrationError),
})
export type SeedResult = z.infer<typeof SeedResult>

export const BranchMigrations = z.object({
  branch_id: z.string(),
  status: BranchStatus,
  git_branch: z.string(),
  migrations: z.array(MigrationResult),
  seed: SeedResult,
  /** Warnings of the plan the build ran (bad names skipped, duplicates …) and a skipped import. */
  warnings: z.array(PlanWarning),
})
export type BranchMigrations = z.infer<typeof BranchMigrations>

// ---------------------------------------------------------------------------------------------------------------
// Schema difference between a branch and its parent (from both databases' catalogs)

export const DiffObjectKind = z.enum(['schema', 'table', 'column', 'constraint', 'index', 'function', 'policy', 'enum', 'view'])
export type DiffObjectKind = z.infer<typeof DiffObjectKind>

export const DiffChange = z.object({
  kind: DiffObjectKind,
  change: z.enum(['added', 'removed', 'changed']),
  schema: z.string(),
  /** The table it belongs to (columns, constraints, indexes, policies); null otherwise. */
  table: z.nullable(z.string()),
  name: z.string(),
  /** The parent's definition (null when added) and the branch's (null when removed). */
  parent: z.nullable(z.string()),
  branch: z.nullable(z.string()),
})
export type DiffChange = z.infer<typeof DiffChange>

export const BranchDiff = z.object({
  branch_id: z.string(),
  /** The schemas compared (those the migrations write to: every schema but the system's and the platform's). */
  schemas: z.array(z.string()),
  changes: z.array(DiffChange),
})
export type BranchDiff = z.infer<typeof BranchDiff>

export const MergePlan = z.object({
  branch_id: z.string(),
  /** The branch's recorded migrations the parent has not recorded, in the order a merge runs them. */
  migrations: z.array(RecordedMigration),
})
export type MergePlan = z.infer<typeof MergePlan>
