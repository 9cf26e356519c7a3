/** When a project's status last changed: the waiting screens count from it, so a reload keeps the count. */
export default /* sql */ `
alter table projects add column status_changed_at timestamptz;
update projects set status_changed_at = coalesce(updated_at, inserted_at);
alter table projects alter column status_changed_at set not null;
alter table projects alter column status_changed_at set default now();
`
