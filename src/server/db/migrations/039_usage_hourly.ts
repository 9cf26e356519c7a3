/**
 * Requests per project, UTC hour and product (rest, auth, storage, realtime, functions), the Management API's
 * usage.api-counts: the usage meter (core/meter.ts) adds them with the daily totals of migration 014.
 */
export default /* sql */ `
create table project_usage_hourly (
  project_id integer not null references projects(id) on delete cascade,
  hour timestamptz not null,
  product text not null,
  requests bigint not null default 0 check (requests >= 0),
  primary key (project_id, hour, product)
);
`
