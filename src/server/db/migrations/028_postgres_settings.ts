/**
 * The Postgres settings a project asked for through the Management API (name → the value as Postgres prints it),
 * applied to its database as database-level settings; no row: the engine's defaults.
 * The Postgres port's listeners of every process on this store and how many clients each serves per project, so the
 * per-project connection limit holds across processes; a listener that stopped renewing seen_at (a killed process)
 * no longer counts.
 */
export default /* sql */ `
create table project_postgres_settings (
  project_id integer primary key references projects(id) on delete cascade,
  settings jsonb not null,
  updated_at timestamptz not null
);

create table wire_listeners (
  id text primary key,
  seen_at timestamptz not null
);

create table wire_client_counts (
  listener_id text not null references wire_listeners(id) on delete cascade,
  project_id integer not null references projects(id) on delete cascade,
  clients integer not null check (clients >= 0),
  primary key (listener_id, project_id)
);
`
