/**
 * What every new project database starts with, prepared once per engine (a PGlite template folder, a Postgres
 * template database) and copied for each project: the API roles, the grants the platform's projects have on schema
 * public (also for objects made later, through default privileges), and schema storage with its buckets table.
 */
import { createHash } from 'node:crypto'

/** Roles are cluster-wide on Postgres: created when missing (another server on the cluster may have made them). */
export const ROLES_SQL = `
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
exception when duplicate_object or unique_violation then
  -- another process created them at the same moment
  null;
end
$$;
`

/** Runs in the template database as its owner (the connecting user on Postgres, postgres on PGlite). */
export const DATABASE_SQL = `
grant usage on schema public to anon, authenticated, service_role;
grant all on all tables in schema public to anon, authenticated, service_role;
grant all on all sequences in schema public to anon, authenticated, service_role;
grant all on all functions in schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

create schema storage;
grant usage on schema storage to service_role;
create table storage.buckets (
  id text primary key,
  name text not null unique,
  public boolean not null default false,
  allowed_mime_types text[] null,
  file_size_limit bigint null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table storage.buckets is 'Storage buckets of the project.';
grant all on storage.buckets to service_role;
alter default privileges in schema storage grant all on tables to service_role;
`

export const TEMPLATE_SQL = ROLES_SQL + DATABASE_SQL

/** Short hash of the template's SQL: a changed template gets a new cached copy instead of a stale one. */
export const TEMPLATE_HASH = createHash('sha256').update(TEMPLATE_SQL).digest('hex').slice(0, 12)
