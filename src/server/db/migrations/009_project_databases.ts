/**
 * Project databases (src/server/projectdb): which demo schema a demo project's database is created with.
 * A project without a row gets the bare template. The databases themselves live outside the store (a PGlite folder
 * or a database per project), so nothing here says whether one exists.
 */
export default /* sql */ `
create table project_databases (
  project_id integer primary key references projects(id) on delete cascade,
  demo_schema text not null
);
`
