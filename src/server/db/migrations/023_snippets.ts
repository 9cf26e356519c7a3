/**
 * The SQL Editor:
 *  - sql_snippets: saved queries of a project, private to their author ('user') or shared with its members
 *    ('project'); the Management API's /v1/snippets answers them;
 *  - sql_snippet_favorites: who marked which snippet a favourite (each person's own mark);
 *  - sql_history: each person's last runs on a project (the route keeps the newest 100 per person and project).
 */
export default /* sql */ `
create table sql_snippets (
  id uuid primary key,
  project_id integer not null references projects(id) on delete cascade,
  owner_id integer not null references accounts(id) on delete cascade,
  updated_by_id integer references accounts(id) on delete set null,
  name text not null check (char_length(name) between 1 and 256),
  description text,
  visibility text not null check (visibility in ('user', 'project')),
  sql text not null,
  inserted_at timestamptz not null,
  updated_at timestamptz not null
);
create index sql_snippets_project_idx on sql_snippets(project_id, owner_id);
create index sql_snippets_owner_idx on sql_snippets(owner_id);

create table sql_snippet_favorites (
  snippet_id uuid not null references sql_snippets(id) on delete cascade,
  account_id integer not null references accounts(id) on delete cascade,
  primary key (snippet_id, account_id)
);
create index sql_snippet_favorites_account_idx on sql_snippet_favorites(account_id);

create table sql_history (
  id bigint generated always as identity primary key,
  project_id integer not null references projects(id) on delete cascade,
  account_id integer not null references accounts(id) on delete cascade,
  query text not null,
  role text not null check (role in ('postgres', 'anon', 'authenticated')),
  ran_at timestamptz not null,
  duration_ms double precision,
  error text
);
create index sql_history_person_idx on sql_history(project_id, account_id, id desc);
`
