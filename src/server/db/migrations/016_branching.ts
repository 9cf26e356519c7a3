/**
 * Database branching.
 *  - branches: a preview branch of a parent project; its own project (`project_id`, made with it, deleted with it)
 *    holds its database. `status` is the contract's branch status; `build` counts the builds (a reset starts the
 *    next one, and the engine's steps of an older build are skipped); `db_build` is the build the branch's database
 *    was made for (a reset's first step drops and remakes it once). `git_sha` pins the commit the build reads, and
 *    `warnings` keeps the plan's warnings (bad names skipped …) for the branch's page.
 *  - branch_steps: what a build runs, in `position` order: the migration files (sorted by name), then the seed
 *    when the git branch has one. Each keeps its SQL (the build never reads the repository again) and its result.
 * What a step did to the branch's database is recorded in that database too, in the same transaction
 * (supabase_migrations.schema_migrations, supabase_migrations.seed_files): a step found there is never run again.
 */
export default /* sql */ `
create table branches (
  id uuid primary key,
  parent_project_id integer not null references projects(id) on delete cascade,
  project_id integer not null unique references projects(id) on delete cascade,
  name text not null,
  git_branch text not null,
  git_sha text not null,
  repository text not null,
  persistent boolean not null default false,
  status text not null check (status in ('CREATING_PROJECT', 'RUNNING_MIGRATIONS', 'MIGRATIONS_PASSED',
    'MIGRATIONS_FAILED', 'FUNCTIONS_DEPLOYED', 'FUNCTIONS_FAILED')),
  build integer not null default 1,
  db_build integer not null default 0,
  warnings jsonb not null default '[]'::jsonb,
  review_requested_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (parent_project_id, name)
);

create table branch_steps (
  branch_id uuid not null references branches(id) on delete cascade,
  position integer not null,
  kind text not null check (kind in ('migration', 'seed')),
  file text not null,
  version text not null,
  name text not null,
  sql text not null,
  status text not null default 'pending' check (status in ('pending', 'running', 'applied', 'failed', 'skipped')),
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms double precision,
  error_message text,
  error_code text,
  error_statement text,
  primary key (branch_id, position)
);
`
