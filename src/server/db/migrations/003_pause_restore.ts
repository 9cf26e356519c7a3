/**
 * Pause and restore: who created each project (the free project limit counts the projects a member owns),
 * the development switch that makes a project's next restore fail, and the message of a failed restore
 * (the restoring page shows it). Existing projects are credited to the demo Owner when that account exists.
 */
export default /* sql */ `
alter table projects add column created_by integer references accounts(id) on delete set null;
alter table projects add column fail_next_restore boolean not null default false;
alter table projects add column restore_error text;
create index projects_created_by_idx on projects(created_by);
update projects set created_by = (select id from accounts where primary_email = 'owner@example.com') where created_by is null;
`
