/**
 * Edge functions that run.
 *  - edge_function_files: the source files of a function's deployed version (a deploy through the Management API
 *    sends several; a function created with a single body has none and runs its body as its entrypoint). A deploy
 *    replaces them in the transaction that bumps the version, so a deploy cut off half-way leaves the old version.
 *  - project_secrets: a project's Edge Function secrets, given to its functions as environment variables. The value
 *    is kept (a function needs it in clear); the API only ever answers its SHA-256 digest.
 */
export default /* sql */ `
create table edge_function_files (
  function_id uuid not null references edge_functions(id) on delete cascade,
  name text not null check (name <> '' and name !~ '(^|/)\\.\\.(/|$)' and name !~ '^/'),
  content text not null,
  primary key (function_id, name)
);

create table project_secrets (
  project_id integer not null references projects(id) on delete cascade,
  name text not null check (name ~ '^[A-Za-z_][A-Za-z0-9_]*$'),
  value text not null,
  updated_at timestamptz not null,
  primary key (project_id, name)
);
`
