/**
 * The Postgres settings a project asked for through the Management API (name → the value as Postgres prints it),
 * applied to its database as database-level settings; no row: the engine's defaults.
 */
export default /* sql */ `
create table project_postgres_settings (
  project_id integer primary key references projects(id) on delete cascade,
  settings jsonb not null,
  updated_at timestamptz not null
);
`
