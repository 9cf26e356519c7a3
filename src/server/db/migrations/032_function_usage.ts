/**
 * Edge function invocations per project and UTC day: the usage page's FUNCTION_INVOCATIONS. Counted by the function
 * runtime in memory and added here every few seconds and on close.
 */
export default /* sql */ `
create table function_usage_daily (
  project_id integer not null references projects(id) on delete cascade,
  day date not null,
  invocations bigint not null default 0,
  primary key (project_id, day)
);
`
