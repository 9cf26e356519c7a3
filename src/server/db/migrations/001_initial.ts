/** Accounts, sessions, access tokens, organizations, members, projects, lifecycle transitions. */
export default /* sql */ `
create table accounts (
  id integer generated always as identity primary key,
  username text not null unique,
  primary_email text not null unique,
  password_hash text not null,
  created_at timestamptz not null default now()
);

create table sessions (
  id integer generated always as identity primary key,
  account_id integer not null references accounts(id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index sessions_account_idx on sessions(account_id);

create table access_tokens (
  id integer generated always as identity primary key,
  account_id integer not null references accounts(id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  token_alias text not null,
  created_at timestamptz not null,
  last_used_at timestamptz
);
create index access_tokens_account_idx on access_tokens(account_id);

create table organizations (
  id integer generated always as identity primary key,
  slug text not null unique,
  name text not null,
  plan_id text not null check (plan_id in ('free', 'pro', 'team', 'enterprise')),
  opt_in_tags jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now()
);

create table members (
  organization_id integer not null references organizations(id) on delete cascade,
  account_id integer not null references accounts(id) on delete cascade,
  role text not null check (role in ('Owner', 'Administrator', 'Developer', 'Read-only')),
  primary key (organization_id, account_id)
);
create index members_account_idx on members(account_id);

create table projects (
  id integer generated always as identity primary key,
  ref text not null unique check (ref ~ '^[a-z]{20}$'),
  organization_id integer not null references organizations(id) on delete cascade,
  name text not null,
  status text not null check (status in ('INACTIVE', 'UPGRADING', 'RESTORING', 'COMING_UP', 'UNKNOWN',
    'GOING_DOWN', 'PAUSING', 'ACTIVE_HEALTHY', 'RESTORATION_FAILED')),
  postgrest_status text not null default 'ONLINE' check (postgrest_status in ('ONLINE', 'OFFLINE')),
  kps_version text,
  is_branch_enabled boolean not null default false,
  region text not null,
  db_version text not null,
  inserted_at timestamptz not null,
  updated_at timestamptz not null
);
create index projects_org_idx on projects(organization_id);

-- Durable lifecycle work: one row per scheduled change. The engine claims due rows
-- (FOR UPDATE SKIP LOCKED), applies them and sets done_at; a superseding change sets cancelled_at.
create table lifecycle_transitions (
  id integer generated always as identity primary key,
  project_id integer not null references projects(id) on delete cascade,
  kind text not null,
  payload jsonb not null default '{}'::jsonb,
  due_at timestamptz not null,
  created_at timestamptz not null,
  done_at timestamptz,
  cancelled_at timestamptz,
  outcome text
);
create index lifecycle_transitions_pending_idx on lifecycle_transitions(due_at)
  where done_at is null and cancelled_at is null;
create index lifecycle_transitions_project_idx on lifecycle_transitions(project_id);
`
