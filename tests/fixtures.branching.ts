/** Branching fixtures: a connected project, its repository, a dry run, branches in every phase and their results. */
import type { BranchingProject, RepositoryFacts } from '../machines/branchingEnablement.machine'
import type { BranchDetail } from '../machines/branchStatus.machine'
import type { BranchDiff, BranchingPlan, BranchMigrations, BranchResponse, MergePlan } from '../src/contracts/branching'
import type { Connection, Repository } from '../src/contracts/github'
import { REF } from './fixtures'

export const BRANCHING_PROJECT: BranchingProject = { ref: REF, organizationSlug: 'demo-pro', organizationId: 2, region: 'us-east-1' }
export const REPO_NAME = 'demo-pro/recipes'

export const CONNECTED: RepositoryFacts = {
  connection: { connectionId: 7, repositoryId: 11, name: REPO_NAME },
  repositories: [
    { id: 11, name: REPO_NAME },
    { id: 12, name: 'demo-pro/broken' },
  ],
}
export const NOT_CONNECTED: RepositoryFacts = { connection: null, repositories: CONNECTED.repositories }

export const REPOSITORY: Repository = { id: 11, name: REPO_NAME, installation_id: 3, default_branch: 'main' }
export const CONNECTION: Connection = {
  id: 7,
  installation_id: 3,
  project: { id: 1, name: 'Analytics', ref: REF },
  repository: { id: 11, name: REPO_NAME },
  user: { id: 1, primary_email: 'owner@example.com', username: 'owner' },
  inserted_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  workdir: '.',
  branch_limit: 50,
  new_branch_per_pr: false,
  supabase_changes_only: false,
}

export const PLAN: BranchingPlan = {
  repository: REPO_NAME,
  git_branch: 'main',
  migrations_path: 'supabase/migrations',
  migrations: [
    { file: '0001_create_recipes.sql', version: '0001', name: 'create_recipes', new_to_parent: false },
    { file: '0003_add_ratings.sql', version: '0003', name: 'add_ratings', new_to_parent: true },
  ],
  warnings: [
    { code: 'gap', file: '0003_add_ratings.sql', message: 'Version 0002 is missing between 0001 and 0003' },
    { code: 'bad_name', file: 'notes.sql', message: 'notes.sql is not named <version>_<name>.sql: it is skipped' },
  ],
  seed: { path: 'supabase/seed.sql', present: true },
  error: null,
}

const at = (minute: number) => `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`

export function makeBranch(overrides: Partial<BranchResponse> = {}): BranchResponse {
  return {
    id: '5d0c8f0e-2c55-4c2a-9a5e-0f0f5b0b0b01',
    name: 'main',
    project_ref: 'bbbbbbbbbbbbbbbbbbbb',
    parent_project_ref: REF,
    is_default: false,
    git_branch: 'main',
    persistent: false,
    status: 'MIGRATIONS_PASSED',
    created_at: at(0),
    updated_at: at(1),
    with_data: false,
    preview_project_status: 'ACTIVE_HEALTHY',
    ...overrides,
  }
}

export const PASSED = makeBranch()
export const FAILED = makeBranch({
  id: '5d0c8f0e-2c55-4c2a-9a5e-0f0f5b0b0b02',
  name: 'broken',
  project_ref: 'cccccccccccccccccccc',
  git_branch: 'broken',
  status: 'MIGRATIONS_FAILED',
  created_at: at(2),
  updated_at: at(3),
})
export const BUILDING = makeBranch({
  id: '5d0c8f0e-2c55-4c2a-9a5e-0f0f5b0b0b03',
  name: 'feature',
  project_ref: 'dddddddddddddddddddd',
  git_branch: 'feature',
  status: 'RUNNING_MIGRATIONS',
  created_at: at(4),
  updated_at: at(4),
  preview_project_status: 'COMING_UP',
})

export const MIGRATIONS: BranchMigrations = {
  branch_id: FAILED.id,
  status: 'MIGRATIONS_FAILED',
  git_branch: 'broken',
  migrations: [
    { file: '0001_create_recipes.sql', version: '0001', name: 'create_recipes', status: 'applied', started_at: at(2), finished_at: at(2), duration_ms: 42, error: null },
    {
      file: '0002_bad.sql',
      version: '0002',
      name: 'bad',
      status: 'failed',
      started_at: at(2),
      finished_at: at(2),
      duration_ms: 3,
      error: { message: 'relation "missing_table" does not exist', code: '42P01', statement: 'alter table missing_table add column x int' },
    },
  ],
  seed: { path: 'supabase/seed.sql', status: 'skipped', started_at: null, finished_at: null, duration_ms: null, error: null },
  warnings: [],
}

export const DIFF: BranchDiff = {
  branch_id: FAILED.id,
  schemas: ['public'],
  changes: [{ kind: 'column', change: 'added', schema: 'public', table: 'recipes', name: 'rating', parent: null, branch: 'integer' }],
}

export const DETAIL: BranchDetail = { migrations: MIGRATIONS, diff: DIFF, diffError: null }

export const MERGE_PLAN: MergePlan = { branch_id: FAILED.id, migrations: [{ version: '0001', name: 'create_recipes' }] }
export const EMPTY_MERGE_PLAN: MergePlan = { branch_id: FAILED.id, migrations: [] }
