/** Postgres upgrades (one row per upgrade, the latest is the project's status), resource warnings, usage. */
export default /* sql */ `
create table project_upgrades (
  id integer generated always as identity primary key,
  project_id integer not null references projects(id) on delete cascade,
  tracking_id text not null unique,
  from_version text not null,
  target_version text not null,
  release_channel text not null,
  status text not null check (status in ('upgrading', 'upgraded', 'failed')),
  progress text not null,
  error text,
  -- Development control: the step (1-8) at which this upgrade fails; null runs it through.
  fail_at_step integer check (fail_at_step between 1 and 8),
  initiated_at timestamptz not null,
  latest_status_at timestamptz not null
);
create index project_upgrades_project_idx on project_upgrades(project_id, initiated_at desc);
-- At most one upgrade under way per project.
create unique index project_upgrades_one_running on project_upgrades(project_id) where status = 'upgrading';

-- Development control "fail the next upgrade": consumed by the next upgrade of the project.
create table project_upgrade_failures (
  project_id integer primary key references projects(id) on delete cascade,
  at_step integer not null check (at_step between 1 and 8)
);

create table project_resource_warnings (
  project_id integer primary key references projects(id) on delete cascade,
  is_readonly_mode_enabled boolean not null default false,
  disk_io_exhaustion text check (disk_io_exhaustion in ('warning', 'critical')),
  disk_space_exhaustion text check (disk_space_exhaustion in ('warning', 'critical')),
  cpu_exhaustion text check (cpu_exhaustion in ('warning', 'critical')),
  memory_and_swap_exhaustion text check (memory_and_swap_exhaustion in ('warning', 'critical')),
  updated_at timestamptz not null
);

create table project_usage (
  project_id integer not null references projects(id) on delete cascade,
  metric text not null,
  usage double precision not null check (usage >= 0),
  updated_at timestamptz not null,
  primary key (project_id, metric)
);
`
