/**
 * A project's database settings the Management API keeps: the addresses its Postgres port accepts (the wire port
 * reads them at every start-up; no row: every address), and its REST API's settings (no row: schema public and
 * REST_MAX_ROWS).
 */
export default /* sql */ `
create table project_network_restrictions (
  project_id integer primary key references projects(id) on delete cascade,
  db_allowed_cidrs text[] not null,
  db_allowed_cidrs_v6 text[] not null,
  old_db_allowed_cidrs text[],
  old_db_allowed_cidrs_v6 text[],
  updated_at timestamptz not null,
  applied_at timestamptz not null
);

create table project_postgrest_config (
  project_id integer primary key references projects(id) on delete cascade,
  db_schema text not null,
  max_rows integer not null check (max_rows between 0 and 1000000),
  updated_at timestamptz not null
);
`
