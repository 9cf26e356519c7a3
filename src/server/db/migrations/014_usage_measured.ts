/**
 * Measured usage. The REST endpoint counts in memory and the usage meter (core/meter.ts) adds
 * its sums here periodically and on close, so a restart loses at most what arrived since the last flush:
 *  - project_usage_daily: per project and UTC day, requests, answer body bytes, response times (sum and longest),
 *    and the project database's size last measured that day (pg_database_size; null when not measured that day);
 *  - project_request_log: each project's latest REST requests (bounded: the meter deletes beyond the newest N),
 *    with a path from which keys and tokens were removed before it was kept.
 * project_usage (migration 004) stays what the development control adds on top of what is measured.
 */
export default /* sql */ `
create table project_usage_daily (
  project_id integer not null references projects(id) on delete cascade,
  day date not null,
  requests bigint not null default 0 check (requests >= 0),
  egress_bytes bigint not null default 0 check (egress_bytes >= 0),
  response_ms_total double precision not null default 0 check (response_ms_total >= 0),
  response_ms_max double precision not null default 0 check (response_ms_max >= 0),
  database_size_bytes bigint check (database_size_bytes >= 0),
  primary key (project_id, day)
);

create table project_request_log (
  id bigint generated always as identity primary key,
  project_id integer not null references projects(id) on delete cascade,
  at timestamptz not null,
  method text not null,
  path text not null,
  status integer not null,
  duration_ms double precision not null check (duration_ms >= 0),
  bytes bigint not null check (bytes >= 0)
);
create index project_request_log_project_idx on project_request_log(project_id, id desc);
`
