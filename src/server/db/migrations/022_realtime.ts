/**
 * Realtime:
 *  - project_realtime_config: a project's realtime limits, in the Management API's names (/v1/projects/{ref}/config/
 *    realtime); a project without a row has the defaults (features/realtime/limits.ts), a null column its default;
 *  - realtime_usage_daily: what the usage page shows per project and UTC day, the messages the realtime service
 *    carried and the most sockets it held at once.
 */
export default /* sql */ `
create table project_realtime_config (
  project_id integer primary key references projects(id) on delete cascade,
  private_only boolean,
  max_concurrent_users integer check (max_concurrent_users between 1 and 50000),
  max_events_per_second integer check (max_events_per_second between 1 and 50000),
  max_bytes_per_second integer check (max_bytes_per_second between 1 and 10000000),
  max_channels_per_client integer check (max_channels_per_client between 1 and 10000),
  max_joins_per_second integer check (max_joins_per_second between 1 and 5000),
  max_presence_events_per_second integer check (max_presence_events_per_second between 1 and 5000),
  max_payload_size_in_kb integer check (max_payload_size_in_kb between 1 and 10000),
  connection_pool integer check (connection_pool between 1 and 100),
  suspend boolean,
  presence_enabled boolean,
  updated_at timestamptz not null default now()
);

create table realtime_usage_daily (
  project_id integer not null references projects(id) on delete cascade,
  day date not null,
  messages bigint not null default 0,
  peak_connections integer not null default 0,
  primary key (project_id, day)
);
`
