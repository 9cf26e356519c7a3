/**
 * Project databases on the PostgreSQL server of DATABASE_URL: one database per project, named
 * `<store database>_p_<ref>`, made with `CREATE DATABASE … TEMPLATE` from a template database prepared once per
 * cluster and template SQL (kp_projectdb_template_<hash>). The API roles are cluster-wide: created when missing
 * and granted to the connecting user so that `set local role` works without superuser rights.
 * Creating one builds `<name>_partial` (template copy, then the optional schema) and renames it, so a database
 * with the project's name is always complete.
 * The people's SQL (SQL Editor, Management API, REST) never runs as the DATABASE_URL user, which is often a superuser
 * (a superuser's SQL reads the server's files and runs programs: `pg_read_file`, `COPY … PROGRAM`, and `RESET ROLE`
 * or `SET SESSION AUTHORIZATION` undo any `SET ROLE`): project sessions log in as the store's project owner role
 * `<store database>_p_owner`, without superuser, CREATEDB, CREATEROLE or BYPASSRLS rights, which owns schema public of
 * every project database of that store and may `set role` to the API roles. Its password is derived from DATABASE_URL
 * (HMAC), so every server process sharing the store computes the same one and none has to be stored. When the
 * DATABASE_URL user is no superuser itself, it may lack the right to create roles: then project sessions use it, and
 * can do no more than it can.
 */
import { createHmac } from 'node:crypto'
import pg from 'pg'
import { quoteIdent as ident } from '../../core/sql'
import type { Backend, Session } from './manager'
import { DATABASE_SQL, ROLES_SQL, TEMPLATE_HASH } from './template'
import type { ProjectQueryResult } from './types'

/** Arbitrary constant: serialises template preparation across processes sharing a cluster. */
const TEMPLATE_LOCK_KEY = 7_262_021_009


function resultOf(r: pg.QueryResult): ProjectQueryResult {
  const rows = (r.rows ?? []) as Record<string, unknown>[]
  return {
    rows,
    fields: (r.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: r.rowCount ?? rows.length,
  }
}

function urlFor(base: string, database: string): string {
  const url = new URL(base)
  url.pathname = `/${encodeURIComponent(database)}`
  return url.toString()
}

/** The names this engine gives a store's project databases (tests drop them by prefix). */
export function projectDbPrefix(databaseUrl: string): string {
  const url = new URL(databaseUrl)
  const store = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres'
  return `${store}_p_`
}

/** The login role the people's SQL runs as (see the header), and its password. */
export function projectOwnerOf(databaseUrl: string): { role: string; password: string } {
  const role = `${projectDbPrefix(databaseUrl)}owner`
  const password = createHmac('sha256', databaseUrl).update(`project database owner ${role}`).digest('hex')
  return { role, password }
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

/** Creates (or re-asserts the rights and password of) the project owner role; idempotent, safe under races. */
function ownerRoleSql(role: string, password: string): string {
  const rights = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls'
  return `
do $$
begin
  if not exists (select from pg_roles where rolname = ${literal(role)}) then
    create role ${ident(role)} ${rights} password ${literal(password)};
  else
    alter role ${ident(role)} ${rights} password ${literal(password)};
  end if;
exception when duplicate_object or unique_violation then
  null;
end
$$;
grant anon, authenticated, service_role to ${ident(role)};
`
}

/** Run as the DATABASE_URL user in a new project database: the owner role takes schema public and what it makes is the API roles' too. */
function ownershipSql(role: string): string {
  const owner = ident(role)
  return `
alter schema public owner to ${owner};
alter default privileges for role ${owner} in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role ${owner} in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role ${owner} in schema public grant all on functions to anon, authenticated, service_role;
grant usage on schema storage to ${owner};
grant all on all tables in schema storage to ${owner};
-- Schemas of its own, as the platform's postgres role may: migrations make them (supabase_migrations, private …).
do $$ begin execute format('grant create on database %I to %I', current_database(), ${literal(role)}); end $$;
`
}

export const POSTGRES_TEMPLATE_NAME = `kp_projectdb_template_${TEMPLATE_HASH}`

class ClientSession implements Session {
  private ended = false
  constructor(
    private readonly client: pg.Client,
    lost: () => void,
  ) {
    const onLost = () => {
      if (!this.ended) {
        this.ended = true
        lost()
      }
    }
    client.on('error', onLost)
    client.on('end', onLost)
  }
  async query(sql: string, params: unknown[] = []) {
    return resultOf(await this.client.query({ text: sql, values: params }))
  }
  async exec(sql: string) {
    const r = (await this.client.query(sql)) as pg.QueryResult | pg.QueryResult[]
    return (Array.isArray(r) ? r : [r]).map(resultOf)
  }
  close() {
    this.ended = true
    return this.client.end()
  }
  async kill() {
    this.ended = true
    // Closing the connection ends its backend on the server, which rolls the open transaction back.
    await this.client.end().catch(() => {})
  }
}

export function postgresBackend(databaseUrl: string): Backend {
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  admin.on('error', () => {})
  const prefix = projectDbPrefix(databaseUrl)
  const nameOf = (ref: string) => `${prefix}${ref}`
  if (nameOf('x'.repeat(20)).length + '_partial'.length > 63) {
    throw new Error(`the database name of DATABASE_URL is too long to name project databases after it (${prefix})`)
  }
  let template: Promise<void> | undefined
  const owner = projectOwnerOf(databaseUrl)
  /** Whether project sessions log in as the owner role (decided when the template is prepared). */
  let asOwner = false

  const dbExists = async (name: string) =>
    (await admin.query('select 1 from pg_database where datname = $1', [name])).rows.length > 0

  async function runIn(database: string, sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: urlFor(databaseUrl, database) })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }

  async function prepareTemplate(): Promise<void> {
    const client = await admin.connect()
    try {
      await client.query('select pg_advisory_lock($1::bigint)', [TEMPLATE_LOCK_KEY])
      try {
        await client.query(ROLES_SQL)
        // Lets a connecting user without superuser rights `set role` to them (a superuser may already).
        await client.query('grant anon, authenticated, service_role to current_user').catch(() => {})
        const { rows } = await client.query<{ rolsuper: boolean }>('select rolsuper from pg_roles where rolname = current_user')
        const superuser = rows[0]?.rolsuper === true
        try {
          await client.query(ownerRoleSql(owner.role, owner.password))
          asOwner = true
        } catch (err) {
          // A superuser must never hand its rights to the people's SQL: no owner role, no project databases.
          if (superuser) throw err
        }
        if (await dbExists(POSTGRES_TEMPLATE_NAME)) return
        const partial = `${POSTGRES_TEMPLATE_NAME}_partial`
        await client.query(`drop database if exists ${ident(partial)}`)
        await client.query(`create database ${ident(partial)}`)
        await runIn(partial, DATABASE_SQL)
        await client.query(`alter database ${ident(partial)} rename to ${ident(POSTGRES_TEMPLATE_NAME)}`)
      } finally {
        await client.query('select pg_advisory_unlock($1::bigint)', [TEMPLATE_LOCK_KEY]).catch(() => {})
      }
    } finally {
      client.release()
    }
  }

  const ensureTemplate = () => {
    template ??= prepareTemplate().catch((err: unknown) => {
      template = undefined
      throw err
    })
    return template
  }

  /** CREATE DATABASE … TEMPLATE fails while anything else is connected to the template: retried a few times. */
  async function createFromTemplate(name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${ident(name)} template ${ident(POSTGRES_TEMPLATE_NAME)}`)
        return
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err
        await new Promise((r) => setTimeout(r, 100 + attempt * 50))
      }
    }
  }

  return {
    kind: 'postgres',
    killGraceMs: 1_000,
    timeoutSql: (ms) => ` set local statement_timeout = ${Math.max(1, Math.floor(ms))};`,
    async open(ref, lost) {
      await ensureTemplate() // the roles exist before anything runs as them
      const url = new URL(urlFor(databaseUrl, nameOf(ref)))
      if (asOwner) {
        url.username = encodeURIComponent(owner.role)
        url.password = owner.password
      }
      const client = new pg.Client({ connectionString: url.toString() })
      client.on('error', () => {})
      await client.connect()
      return new ClientSession(client, lost)
    },
    exists: (ref) => dbExists(nameOf(ref)),
    prepare: () => ensureTemplate(),
    async create(ref, schemaSql) {
      const name = nameOf(ref)
      if (await dbExists(name)) return
      await ensureTemplate()
      const partial = `${name}_partial`
      await admin.query(`drop database if exists ${ident(partial)} with (force)`)
      await createFromTemplate(partial)
      if (asOwner) await runIn(partial, ownershipSql(owner.role))
      // The demo schema is made by the owner role, so the people's SQL can change what it made.
      if (schemaSql) await runIn(partial, asOwner ? `set role ${ident(owner.role)};\n${schemaSql}` : schemaSql)
      try {
        await admin.query(`alter database ${ident(partial)} rename to ${ident(name)}`)
      } catch (err) {
        // Another server on this cluster finished the same database meanwhile.
        if ((err as { code?: string }).code !== '42P04') throw err
        await admin.query(`drop database if exists ${ident(partial)} with (force)`)
      }
    },
    async drop(ref) {
      await admin.query(`drop database if exists ${ident(nameOf(ref))} with (force)`)
    },
    async serverVersion() {
      const { rows } = await admin.query<{ server_version: string }>('show server_version')
      return rows[0].server_version.split(' ')[0]
    },
    end: () => admin.end(),
  }
}
