/**
 * What every new project database starts with, prepared once per engine (a PGlite template folder, a Postgres
 * template database) and copied for each project: the API roles, the grants the platform's projects have on schema
 * public (also for objects made later, through default privileges), and schema storage with its buckets and objects (storageSchema.ts).
 */
import { createHash } from 'node:crypto'
import { AUTH_SCHEMA_SQL } from './authSchema'
import { REALTIME_SCHEMA_SQL } from './realtimeSchema'
import { STORAGE_SCHEMA_SQL } from './storageSchema'

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
${AUTH_SCHEMA_SQL}
${STORAGE_SCHEMA_SQL}
${REALTIME_SCHEMA_SQL}`

export const TEMPLATE_SQL = ROLES_SQL + DATABASE_SQL

/** Short hash of the template's SQL: a changed template gets a new cached copy instead of a stale one. */
export const TEMPLATE_HASH = createHash('sha256').update(TEMPLATE_SQL).digest('hex').slice(0, 12)

/**
 * PGlite only, run last on the template and on any older project folder whose bootstrap role is still a superuser.
 * PGlite runs Postgres single-user: its one session always logs in as the bootstrap role (oid 10, `postgres`), and
 * PGlite's `username` option is only a `SET ROLE` that `RESET ROLE` undoes. So that role itself stops being a
 * superuser here, becoming what the platform's `postgres` role is: owner of the database and schema public, member
 * of the API roles, no SUPERUSER, CREATEROLE, CREATEDB, REPLICATION or BYPASSRLS. Postgres then refuses it `LOAD`
 * outside `$libdir/plugins`, `COPY` to or from a file or program, untrusted languages, `ALTER SYSTEM` and other
 * roles' authorization (42501).
 * It still owns the built-in catalog, and the owner of a function or view keeps the rights Postgres revokes from
 * PUBLIC (lo_import, lo_export, pg_read_file, pg_ls_dir, pg_file_settings …): those go to `supabase_admin`, a
 * superuser no session can become. The platform's own superuser work (the template's roles, grants and settings)
 * happens before this, once per template. Written to run again harmlessly, on a folder whose people were superusers
 * before: any other superuser, and membership in a superuser or in the server-file roles, is taken away too.
 */
export const PGLITE_LOCKDOWN_SQL = `
set allow_system_table_mods = on;
set search_path = pg_catalog;
do $$
declare
  r record;
begin
  if not exists (select from pg_roles where rolname = 'supabase_admin') then
    create role supabase_admin superuser nologin noinherit;
  end if;
  grant anon, authenticated, service_role to postgres;
  for r in select p.oid::regprocedure as routine from pg_proc p
    where p.proowner = 10 and p.pronamespace = 'pg_catalog'::regnamespace and p.proacl is not null
      and not exists (select from aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE')
  loop
    execute format('alter routine %s owner to supabase_admin', r.routine);
  end loop;
  -- The catalog's views read those tables with their owner's rights: every system view changes hands with them.
  for r in select c.oid::regclass as relation, c.relkind = 'v' as view from pg_class c
    where c.relowner = 10 and c.relnamespace in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
      and (c.relkind = 'v' or c.relkind = 'r' and c.relacl is not null
        and not exists (select from aclexplode(c.relacl) a where a.grantee = 0 and a.privilege_type = 'SELECT'))
  loop
    execute format('alter %s %s owner to supabase_admin', case when r.view then 'view' else 'table' end, r.relation);
  end loop;
  for r in select m.roleid::regrole as role, m.member::regrole as member, m.grantor::regrole as grantor
    from pg_auth_members m join pg_roles g on g.oid = m.roleid
    where g.rolsuper or g.rolname in ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
  loop
    execute format('revoke %s from %s granted by %s cascade', r.role, r.member, r.grantor);
  end loop;
end
$$;
-- One statement, the last: once the session's role is no superuser, it may change no role any more.
update pg_authid set rolsuper = false, rolcreaterole = false, rolcreatedb = false, rolreplication = false,
    rolbypassrls = rolbypassrls and oid <> 10
  where rolname <> 'supabase_admin' and (rolsuper or rolcreaterole or rolcreatedb or rolreplication or oid = 10);
`
