/**
 * The GitHub integration and the platform's own Git hosting.
 *  - integration_installations: an integration installed in an organization (spec 3); for GitHub, `account_name` is
 *    the owner its repositories live under (`/git/{account_name}/{repo}.git`), unique among GitHub installations.
 *  - github_authorizations: a person's authorization of the GitHub app (one per account).
 *  - git_repositories: the repositories of an installation. Their contents are bare Git repositories on disk
 *    (src/server/features/github/paths.ts), named by id; `demo` names the demo content a repository starts with when
 *    its folder is first made (src/server/features/github/demo.ts), null for one made by a push.
 *  - github_connections: a project linked to a repository, at most one each way (the unique keys stop a race).
 */
export default /* sql */ `
create table integration_installations (
  id integer generated always as identity primary key,
  organization_id integer not null references organizations(id) on delete cascade,
  integration text not null check (integration in ('GitHub', 'Vercel', 'Supabase')),
  account_name text not null check (account_name ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$'),
  account_type text not null default 'Organization' check (account_type in ('Organization', 'User')),
  avatar_url text not null default '',
  connection_owner text not null,
  added_by integer not null references accounts(id),
  inserted_at timestamptz not null,
  unique (organization_id, integration)
);
create unique index integration_installations_github_account_idx
  on integration_installations (lower(account_name)) where integration = 'GitHub';

create table github_authorizations (
  id integer generated always as identity primary key,
  account_id integer not null unique references accounts(id) on delete cascade,
  sender_id integer not null,
  inserted_at timestamptz not null
);

create table git_repositories (
  id integer generated always as identity primary key,
  installation_id integer not null references integration_installations(id) on delete cascade,
  name text not null check (name ~ '^[A-Za-z0-9_.-]{1,100}$' and name !~ '^\\.+$' and name !~ '\\.git$'),
  default_branch text not null default 'main',
  demo text check (demo in ('notes', 'plain', 'broken')),
  created_at timestamptz not null
);
create unique index git_repositories_name_idx on git_repositories (installation_id, lower(name));

create table github_connections (
  id integer generated always as identity primary key,
  installation_id integer not null references integration_installations(id) on delete cascade,
  project_id integer not null unique references projects(id) on delete cascade,
  repository_id integer not null unique references git_repositories(id) on delete cascade,
  added_by integer not null references accounts(id),
  workdir text not null default '.',
  branch_limit integer not null default 50 check (branch_limit >= 0),
  new_branch_per_pr boolean not null default false,
  supabase_changes_only boolean not null default false,
  inserted_at timestamptz not null,
  updated_at timestamptz not null
);
create index github_connections_installation_idx on github_connections (installation_id);
`
