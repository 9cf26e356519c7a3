/**
 * API keys and JWT secret rotation. One row of keys per project that finished setting up (the keys are JWTs
 * signed with the project's secret, so they are created in code: at the COMING_UP → ACTIVE_HEALTHY transition,
 * and by the start-up backfill for projects that existed before this migration).
 * A rotation is a row in jwt_secret_updates plus a lifecycle transition; the new secret waits in pending_secret
 * until the engine applies it and is cleared when the update ends either way.
 */
export default /* sql */ `
create table project_api_keys (
  project_id integer primary key references projects(id) on delete cascade,
  jwt_secret text not null check (length(jwt_secret) >= 32),
  anon_key text not null,
  service_role_key text not null,
  fail_next_jwt_update boolean not null default false,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table jwt_secret_updates (
  id integer generated always as identity primary key,
  project_id integer not null references projects(id) on delete cascade,
  change_tracking_id text not null unique,
  status text not null check (status in ('updating', 'updated', 'failed')),
  progress text not null,
  error text,
  pending_secret text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index jwt_secret_updates_project_idx on jwt_secret_updates(project_id, id);
-- One update at a time per project.
create unique index jwt_secret_updates_one_running on jwt_secret_updates(project_id) where status = 'updating';
`
