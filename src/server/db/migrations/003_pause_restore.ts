/**
 * Pause and restore: who created each project (the free project limit counts the projects a member owns),
 * the development switch that makes a project's next restore fail, and the message of a failed restore
 * (the restoring page shows it). Crediting existing projects to the demo Owner is demo data: src/server/seed.ts.
 */
export default /* sql */ `
alter table projects add column created_by integer references accounts(id) on delete set null;
alter table projects add column fail_next_restore boolean not null default false;
alter table projects add column restore_error text;
create index projects_created_by_idx on projects(created_by);
`
