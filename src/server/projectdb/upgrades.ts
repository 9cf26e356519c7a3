/**
 * Schemas a product added to the template after project databases were already made from it: each engine checks
 * for them every time it opens a project's database (one catalog lookup, through the project's own session) and
 * brings a database that lacks one up to date before anything else runs on it. The scripts are idempotent, so two
 * servers opening one database at once, or an open that stopped half-way, come to the same end.
 *  - PGlite: the script runs on the project's session, as its owner (`postgres`, who owns the database there).
 *  - PostgreSQL: the project's role may not write a schema the platform owns, so the script runs on the engine's
 *    own connection (as the template's was), under an advisory lock, and the project's role gets the grants the
 *    template gives it (ownershipSql in postgres.ts).
 */
import { quoteIdent as ident } from '../core/sql'
import { AUTH_SCHEMA_SQL } from './authSchema'
import { REALTIME_SCHEMA_SQL } from './realtimeSchema'
import { STORAGE_SCHEMA_SQL } from './storageSchema'

export interface SchemaUpgrade {
  name: string
  /** One row with one boolean column `present`: whether the database has the schema as it is now. */
  presentSql: string
  /** The idempotent script that makes it so. */
  sql: string
  /** PostgreSQL: what the project's role is granted after the script ran as the engine's user. */
  ownerGrantsSql(role: string): string
}

export const PROJECT_UPGRADES: SchemaUpgrade[] = [
  {
    name: 'auth',
    // Its newest table: an older database may have the schema without it.
    presentSql: `select to_regclass('auth.flow_state') is not null as present`,
    sql: AUTH_SCHEMA_SQL,
    ownerGrantsSql: (role) => `
grant usage on schema auth to ${ident(role)};
grant all on all tables in schema auth to ${ident(role)};
grant all on all sequences in schema auth to ${ident(role)};
`,
  },
  {
    name: 'storage',
    // storage.buckets came first; an older database has it without the objects' table and helpers.
    presentSql: `select to_regclass('storage.objects') is not null and to_regprocedure('storage.bucket_holds_objects(text)') is not null as present`,
    sql: STORAGE_SCHEMA_SQL,
    // As a template database has it: the project owns its storage tables and writes their policies.
    ownerGrantsSql: (role) => `
grant usage, create on schema storage to ${ident(role)};
grant all on all tables in schema storage to ${ident(role)};
alter table storage.objects owner to ${ident(role)};
`,
  },
  {
    name: 'realtime',
    // Its change capture is the newest part: an older database may have realtime.messages without it.
    presentSql: `select to_regclass('realtime.messages') is not null and to_regprocedure('realtime.capture_change()') is not null as present`,
    sql: REALTIME_SCHEMA_SQL,
    // As the template's (ownershipSql in postgres.ts): the project adds its tables to its publication, writes the
    // policies of realtime.messages, and owns the functions the realtime service calls.
    ownerGrantsSql: (role) => `
grant usage, create on schema realtime to ${ident(role)};
alter table realtime.messages owner to ${ident(role)};
alter publication supabase_realtime owner to ${ident(role)};
alter function realtime.authorization_probe(text, text) owner to ${ident(role)};
alter function realtime.capture_change() owner to ${ident(role)};
`,
  },
]

/** Arbitrary constant (an int4, paired with the upgrade's name): one process at a time upgrades a database. */
export const UPGRADE_LOCK_CLASS = 72_620_224

interface Queries {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>
}

/**
 * PostgreSQL with a superuser DATABASE_URL only (the extension is no trusted one, and PGlite has no build of it):
 * plpgsql_check, which the CLI's `db lint` enables with a bare `CREATE EXTENSION IF NOT EXISTS` and calls by its bare
 * name. The project's role may not create it, so the platform does, in schema extensions as the platform keeps its
 * extensions, and puts that schema on the database's search path after public, as the platform's `postgres` role
 * has it. A server without the extension's package (Debian's postgresql-15-plpgsql-check) gets neither: the CLI
 * then shows PostgreSQL's own "extension is not available".
 */
export const PLPGSQL_CHECK_UPGRADE: SchemaUpgrade = {
  name: 'plpgsql_check',
  presentSql: `select exists (select from pg_extension where extname = 'plpgsql_check')
    or not exists (select from pg_available_extensions where name = 'plpgsql_check') as present`,
  sql: `
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists plpgsql_check with schema extensions;
do $$
begin
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());
end
$$;
`,
  ownerGrantsSql: (role) => `grant usage on schema extensions to ${ident(role)};
`,
}

/** The upgrades the database behind `session` lacks, among `upgrades`. */
export async function missingUpgrades(session: Queries, upgrades: SchemaUpgrade[] = PROJECT_UPGRADES): Promise<SchemaUpgrade[]> {
  const missing: SchemaUpgrade[] = []
  for (const upgrade of upgrades) {
    const { rows } = await session.query<{ present: boolean }>(upgrade.presentSql)
    if (!rows[0]?.present) missing.push(upgrade)
  }
  return missing
}

/** PostgreSQL: the script to run on the engine's own connection to the project's database (`role`: the project's). */
export function upgradeScript(upgrade: SchemaUpgrade, role: string): string {
  return `begin;
select pg_advisory_xact_lock(${UPGRADE_LOCK_CLASS}, hashtext('${upgrade.name}'));
${upgrade.sql}
${upgrade.ownerGrantsSql(role)}
commit;`
}
