/**
 * The development switches ('fail the next restore', 'fail the next JWT update', 'fail the next upgrade at step n')
 * in one table, instead of a column of projects, a column of project_api_keys and a table of their own. A row is a
 * switch that is on; the lifecycle uses it up (deletes it) when it fails the operation. Switches already set move
 * over, then the old column, column and table go.
 */
export default /* sql */ `
create table dev_switches (
  project_id integer not null references projects(id) on delete cascade,
  name text not null check (name in ('fail_next_restore', 'fail_next_jwt_update', 'fail_next_upgrade')),
  -- fail_next_upgrade: the step (1-8) at which the next upgrade fails; the other switches carry no value.
  at_step integer check (at_step between 1 and 8),
  primary key (project_id, name),
  check ((name = 'fail_next_upgrade') = (at_step is not null))
);

insert into dev_switches (project_id, name) select id, 'fail_next_restore' from projects where fail_next_restore;
insert into dev_switches (project_id, name) select project_id, 'fail_next_jwt_update' from project_api_keys where fail_next_jwt_update;
insert into dev_switches (project_id, name, at_step) select project_id, 'fail_next_upgrade', at_step from project_upgrade_failures;

alter table projects drop column fail_next_restore;
alter table project_api_keys drop column fail_next_jwt_update;
drop table project_upgrade_failures;
`
