/**
 * Project databases on the PostgreSQL server of DATABASE_URL: one database per project, named
 * `<store database>_p_<ref>`, made with `CREATE DATABASE … TEMPLATE` from a template database prepared once per
 * cluster and template SQL (kp_projectdb_template_<hash>). The API roles are cluster-wide: created when missing
 * and granted to the connecting user so that `set local role` works without superuser rights.
 * Creating one builds `<name>_partial` (template copy, then the optional schema) and renames it, so a database
 * with the project's name is always complete.
 *
 * The people's SQL (SQL Editor, Management API, REST) never runs as the DATABASE_URL user, which is often a superuser
 * (a superuser's SQL reads the server's files and runs programs: `pg_read_file`, `COPY … PROGRAM`, and `RESET ROLE`
 * or `SET SESSION AUTHORIZATION` undo any `SET ROLE`), nor as a role two projects share (a shared role sees and ends
 * every project's backends, and its `ALTER ROLE current_user` reaches every project). Each project logs in as a role
 * of its own, named as its database (role and database names are separate namespaces): no SUPERUSER, CREATEDB,
 * CREATEROLE, REPLICATION or BYPASSRLS, owner of its schema public and of what the demo schema made, a member of the
 * API roles for `set local role`. It may connect to its own database only: CONNECT is revoked from PUBLIC on every
 * project database, on the template and on the store's own database.
 * Its password is an HMAC, keyed by a random secret kept in the store's database (table projectdb_login_key, which no
 * project role may reach), of the role's name: every server process sharing the store computes the same password,
 * none is stored, and knowing one's own tells nothing of another's. The server sends PostgreSQL only a SCRAM verifier
 * of it, never the password itself.
 * Whatever the tenant changes on its own role (`ALTER ROLE current_user PASSWORD …`, `SET default_transaction_read_only`,
 * `SET statement_timeout` …) is undone each time the platform opens the project's database: the role's rights and
 * settings are set again before it logs in, and its password when that login fails.
 * A DATABASE_URL user that may not create roles (neither superuser nor CREATEROLE) gets no project databases: they
 * would have to run as that user, shared by every project and able to reach the store.
 * Databases made before per-project roles (all owned by one `<store database>_p_owner`) are converted when the engine
 * prepares, under an advisory lock; the shared role is dropped after.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import pg from 'pg'
import { quoteIdent as ident } from '../core/sql'
import type { Backend, Session } from './manager'
import { DATABASE_SQL, ROLES_SQL, TEMPLATE_HASH } from './template'
import { ProjectDbError, type ProjectQueryResult } from './types'
import { missingUpgrades, PLPGSQL_CHECK_UPGRADE, PROJECT_UPGRADES, upgradeScript } from './upgrades'

/**
 * SQLSTATEs of a rename onto a database that exists (another store's process finished the template first): 42P04, or
 * 23505 when the two renames meet in the catalog's unique index at the same moment.
 */
const TAKEN_NAME = new Set(['42P04', '23505'])

/** Arbitrary constant: serialises template preparation among the processes of one store. */
const TEMPLATE_LOCK_KEY = 7_262_021_009
/** Arbitrary constant (an int4, paired with the role name's hash): one process at a time sets up a project's role. */
const ROLE_LOCK_CLASS = 72_620_210

/** How long setting a project's role up waits for a lock on it before the open fails (and is tried again later). */
const ROLE_LOCK_TIMEOUT_MS = 3_000

/** The store's table of the key the project roles' passwords derive from (one row). */
const KEY_TABLE = 'projectdb_login_key'

function resultOf<R>(r: pg.QueryResult<R & pg.QueryResultRow>): ProjectQueryResult<R> {
  const rows: R[] = r.rows ?? []
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

/** The names this engine gives a store's project databases and their roles (tests drop them by prefix). */
export function projectDbPrefix(databaseUrl: string): string {
  const url = new URL(databaseUrl)
  const store = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres'
  return `${store}_p_`
}

/** The role every project of a store logged in as before each had its own; converted away when found. */
const legacyOwnerOf = (databaseUrl: string) => `${projectDbPrefix(databaseUrl)}owner`

const passwordOf = (key: string, role: string) => createHmac('sha256', key).update(`project database login ${role}`).digest('hex')

/** Reads the key, making it first when the store has none (concurrent makers agree on the first row). */
async function loginKeyIn(client: pg.ClientBase): Promise<string> {
  await client.query(`create table if not exists ${KEY_TABLE} (id boolean primary key default true check (id), secret text not null)`)
  await client.query(`revoke all on ${KEY_TABLE} from public`)
  await client.query(`insert into ${KEY_TABLE} (secret) values ($1) on conflict (id) do nothing`, [randomBytes(32).toString('hex')])
  const { rows } = await client.query<{ secret: string }>(`select secret from ${KEY_TABLE}`)
  return rows[0].secret
}

/**
 * The credentials a project's database is opened with (the platform's own, for a proxy that logs in as the project:
 * never hand them to a tenant). Reads the key from the store.
 */
export async function projectLogin(databaseUrl: string, ref: string): Promise<{ role: string; password: string; database: string }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ secret: string }>(`select secret from ${KEY_TABLE}`)
    if (!rows[0]) throw new Error('the project databases of this store are not prepared yet')
    const role = `${projectDbPrefix(databaseUrl)}${ref}`
    return { role, password: passwordOf(rows[0].secret, role), database: role }
  } finally {
    await client.end()
  }
}

/** A SCRAM-SHA-256 verifier of the password (RFC 5803, as PostgreSQL stores it): ALTER ROLE never carries the password. */
function scramVerifier(password: string): string {
  const iterations = 4096
  const salt = randomBytes(16)
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

/**
 * Creates a project's login role or sets it back to what the platform gave it: rights, no settings of its own, and
 * the password when a verifier is given (setting one costs PostgreSQL tens of milliseconds, so an open sets it only
 * when the login fails). Run in a transaction holding the role's advisory lock (concurrent ALTER ROLE of one role
 * fails). A DATABASE_URL user that is no superuser becomes a member, as it must to hand the role schema public; it
 * may not name SUPERUSER, REPLICATION or BYPASSRLS at all, and needs not: a role it made lacks them, and only a
 * superuser could give them.
 */
function roleSql(role: string, verifier: string | undefined, superuser: boolean): string {
  const r = ident(role)
  return `
do $$
begin
  if not exists (select from pg_roles where rolname = ${literal(role)}) then
    create role ${r};
  end if;
end
$$;
alter role ${r} login ${superuser ? 'nosuperuser noreplication nobypassrls ' : ''}nocreatedb nocreaterole inherit connection limit -1
  valid until 'infinity'${verifier ? ` password ${literal(verifier)}` : ''};
alter role ${r} reset all;
grant anon, authenticated, service_role to ${r};
${superuser ? '' : `grant ${r} to current_user;`}
`
}

/**
 * Who may connect to a project's database: its own role only (and the DATABASE_URL user, its owner). PUBLIC keeps
 * TEMPORARY, which the API roles use inside the project's own sessions.
 */
function databaseAclSql(database: string, role: string): string {
  const d = ident(database)
  const r = ident(role)
  return `
revoke connect on database ${d} from public;
grant connect, temporary, create on database ${d} to ${r};
alter role ${r} in database ${d} reset all;
`
}

/** Run as the DATABASE_URL user in a project database: the project's role takes schema public and what it makes is the API roles' too. */
function ownershipSql(role: string): string {
  const owner = ident(role)
  return `
alter schema public owner to ${owner};
alter default privileges for role ${owner} in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role ${owner} in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role ${owner} in schema public grant all on functions to anon, authenticated, service_role;
grant usage on schema storage to ${owner};
-- A new owner must be allowed to create in the table's schema (a superuser making the database skips that check).
grant create on schema storage to ${owner};
grant all on all tables in schema storage to ${owner};
grant usage on schema auth to ${owner};
grant all on all tables in schema auth to ${owner};
grant all on all sequences in schema auth to ${owner};
-- As on PGlite, where the owner made the template: the project owns its storage tables and writes their policies.
do $$
begin
  alter table storage.buckets owner to ${owner};
  if to_regclass('storage.objects') is not null then
    alter table storage.objects owner to ${owner};
  end if;
  -- The project adds its tables to its realtime publication and writes the policies of realtime.messages.
  if to_regclass('realtime.messages') is not null then
    grant usage, create on schema realtime to ${owner};
    alter table realtime.messages owner to ${owner};
    alter publication supabase_realtime owner to ${owner};
    alter function realtime.authorization_probe(text, text) owner to ${owner};
    alter function realtime.capture_change() owner to ${owner};
  end if;
end
$$;
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
  async query<R = Record<string, unknown>>(sql: string, params: unknown[] = []) {
    // Always the extended protocol, as PGlite's query is: one message carries one statement, so a COMMIT can never
    // ride along behind another statement (node-postgres would send a query without parameters as a simple query).
    // (queryMode is node-postgres's own option; its type declarations do not list it.)
    const config = { text: sql, values: params, queryMode: 'extended' } as pg.QueryConfig
    return resultOf<R>(await this.client.query<R & pg.QueryResultRow>(config))
  }
  async exec(sql: string) {
    const r = (await this.client.query(sql)) as pg.QueryResult | pg.QueryResult[]
    return (Array.isArray(r) ? r : [r]).map((one) => resultOf<Record<string, unknown>>(one))
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

/** Whether PUBLIC may still connect to the database (then a project role could too). */
async function publicMayConnect(client: pg.ClientBase, database: string): Promise<boolean> {
  const { rows } = await client.query(
    `select 1 from pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
     where d.datname = $1 and a.grantee = 0 and a.privilege_type = 'CONNECT'`,
    [database],
  )
  return rows.length > 0
}

export function postgresBackend(databaseUrl: string): Backend {
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  admin.on('error', () => {})
  const prefix = projectDbPrefix(databaseUrl)
  const nameOf = (ref: string) => `${prefix}${ref}`
  if (nameOf('x'.repeat(20)).length + '_partial'.length > 63) {
    throw new Error(`the database name of DATABASE_URL is too long to name project databases after it (${prefix})`)
  }
  let ready: Promise<{ key: string; superuser: boolean }> | undefined
  /** Each role's verifier, made once per process (PBKDF2 costs a few milliseconds; any salt verifies the same password). */
  const verifiers = new Map<string, string>()

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

  /** Sets the project's role up (see roleSql), with its password when asked, then, when given, who may connect to its database. */
  async function assertRole(
    ref: string,
    key: string,
    superuser: boolean,
    opts: { database?: string; password: boolean },
  ): Promise<{ role: string; password: string }> {
    const { database } = opts
    const role = nameOf(ref)
    const password = passwordOf(key, role)
    let verifier = verifiers.get(role)
    if (opts.password && !verifier) verifiers.set(role, (verifier = scramVerifier(password)))
    // One round trip: the lock, the role, the database's grants, in one transaction.
    const sql =
      `begin;\n` +
      // A tenant's transaction that changes its own role holds the role's row until its time-out: waiting on it must
      // not hold one of the few admin connections every project's opens share for that long.
      `set local lock_timeout = '${ROLE_LOCK_TIMEOUT_MS}ms';\n` +
      `select pg_advisory_xact_lock(${ROLE_LOCK_CLASS}, hashtext(${literal(role)}));\n` +
      roleSql(role, opts.password ? verifier : undefined, superuser) +
      (database ? databaseAclSql(database, role) : '') +
      'commit;'
    const client = await admin.connect()
    try {
      await client.query(sql)
    } catch (err) {
      await client.query('rollback').catch(() => {})
      throw err
    } finally {
      client.release()
    }
    return { role, password }
  }

  /**
   * The databases of the shared owner role of old get a role each: everything the shared role owned in them passes
   * to it, the shared role's grants there go, and the shared role is dropped. Runs under the template lock; a crash
   * half-way leaves the shared role, so the next start does the rest (every step may run again).
   */
  async function convertLegacy(client: pg.ClientBase, key: string, superuser: boolean): Promise<void> {
    const legacy = legacyOwnerOf(databaseUrl)
    if ((await client.query('select 1 from pg_roles where rolname = $1', [legacy])).rows.length === 0) return
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) and datname <> $2 order by datname',
      [prefix, legacy],
    )
    for (const { datname } of rows) {
      const ref = datname.slice(prefix.length).replace(/_partial$/, '')
      const { role } = await assertRole(ref, key, superuser, { database: datname, password: true })
      await runIn(datname, `reassign owned by ${ident(legacy)} to ${ident(role)};\ndrop owned by ${ident(legacy)};\n${ownershipSql(role)}`)
    }
    try {
      await client.query(`drop role ${ident(legacy)}`)
    } catch (err) {
      // Something outside this store's databases still depends on it: at least it logs in nowhere any more.
      await client.query(`alter role ${ident(legacy)} nologin password null`)
      console.error(`projectdb: the former shared role ${legacy} could not be dropped (${(err as Error).message}); it may no longer log in`)
    }
  }

  async function prepare(): Promise<{ key: string; superuser: boolean }> {
    const client = await admin.connect()
    try {
      await client.query('select pg_advisory_lock($1::bigint)', [TEMPLATE_LOCK_KEY])
      try {
        const { rows } = await client.query<{ rolsuper: boolean; rolcreaterole: boolean; store: string; me: string }>(
          'select rolsuper, rolcreaterole, current_database() as store, current_user as me from pg_roles where rolname = current_user',
        )
        const { rolsuper: superuser, rolcreaterole, store, me } = rows[0]
        if (!superuser && !rolcreaterole) {
          throw new ProjectDbError(
            `project databases need a DATABASE_URL user that may create roles (superuser, or CREATEROLE and CREATEDB), so ` +
              `that each project logs in as a role of its own; ${me} may not`,
            { code: 'database_unavailable' },
          )
        }
        await client.query(ROLES_SQL)
        // Lets a connecting user without superuser rights `set role` to them (a superuser may already).
        await client.query('grant anon, authenticated, service_role to current_user').catch(() => {})
        const key = await loginKeyIn(client)
        if (!(await dbExists(POSTGRES_TEMPLATE_NAME))) {
          // The lock above holds only among the processes of this store: an advisory lock is taken within one
          // database, and other stores (another platform, each server test file) share the cluster and this
          // template. So each builds a copy of its own, and the first rename wins; the others drop theirs.
          const partial = `${POSTGRES_TEMPLATE_NAME}_${randomBytes(4).toString('hex')}`
          await client.query(`create database ${ident(partial)}`)
          try {
            // Nobody but its maker connects: a session on the template would stop every CREATE DATABASE from it.
            await client.query(`revoke connect on database ${ident(partial)} from public`)
            await runIn(partial, DATABASE_SQL)
            await client.query(`alter database ${ident(partial)} rename to ${ident(POSTGRES_TEMPLATE_NAME)}`)
          } catch (err) {
            await client.query(`drop database if exists ${ident(partial)} with (force)`).catch(() => {})
            if (!TAKEN_NAME.has((err as { code?: string }).code ?? '')) throw err
          }
        }
        for (const database of [store, POSTGRES_TEMPLATE_NAME]) {
          await client.query(`revoke connect on database ${ident(database)} from public`).catch(() => {})
          if (await publicMayConnect(client, database)) {
            console.error(`projectdb: PUBLIC may still connect to database ${database} (${me} is neither its owner nor a superuser): project roles can too`)
          }
        }
        await convertLegacy(client, key, superuser)
        return { key, superuser }
      } finally {
        await client.query('select pg_advisory_unlock($1::bigint)', [TEMPLATE_LOCK_KEY]).catch(() => {})
      }
    } finally {
      client.release()
    }
  }

  const ensureReady = () => {
    ready ??= prepare().catch((err: unknown) => {
      ready = undefined
      throw err
    })
    return ready
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

  /**
   * One dedicated connection per listened database (as the project's own role: LISTEN needs no right), shared by its
   * listeners and ended with the last; a lost connection is made again while anyone listens.
   */
  const listening = new Map<string, { client: Promise<pg.Client | undefined>; listeners: Set<(channel: string, payload: string) => void>; channels: Set<string> }>()
  function listenOn(ref: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const database = nameOf(ref)
    let entry = listening.get(database)
    const connect = async (): Promise<pg.Client | undefined> => {
      const { key, superuser } = await ensureReady()
      const login = await assertRole(ref, key, superuser, { database, password: false })
      const url = new URL(urlFor(databaseUrl, database))
      url.username = encodeURIComponent(login.role)
      url.password = encodeURIComponent(login.password)
      const client = new pg.Client({ connectionString: url.toString() })
      client.on('error', () => {})
      client.on('notification', (n) => {
        for (const l of listening.get(database)?.listeners ?? []) l(n.channel, n.payload ?? '')
      })
      client.on('end', () => {
        const current = listening.get(database)
        if (!current || current.listeners.size === 0) return
        setTimeout(() => {
          if (listening.get(database) !== current || current.listeners.size === 0) return
          current.client = connect().catch((err: unknown) => {
            console.error(`projectdb: listening on ${ref} again failed: ${(err as Error).message}`)
            return undefined
          })
        }, 1_000).unref()
      })
      await client.connect()
      for (const ch of listening.get(database)?.channels ?? [channel]) await client.query(`listen ${ident(ch)}`)
      return client
    }
    if (!entry) {
      entry = { client: Promise.resolve(undefined), listeners: new Set(), channels: new Set([channel]) }
      listening.set(database, entry)
      entry.client = connect()
    } else if (!entry.channels.has(channel)) {
      entry.channels.add(channel)
      const e = entry
      entry.client = e.client.then(async (c) => {
        await c?.query(`listen ${ident(channel)}`)
        return c
      })
    }
    const current = entry
    const listener = (ch: string, payload: string) => {
      if (ch === channel) onPayload(payload)
    }
    current.listeners.add(listener)
    return current.client.then(
      () => async () => {
        current.listeners.delete(listener)
        if (current.listeners.size === 0 && listening.get(database) === current) {
          listening.delete(database)
          await (await current.client.catch(() => undefined))?.end().catch(() => {})
        }
      },
      (err: unknown) => {
        current.listeners.delete(listener)
        if (current.listeners.size === 0 && listening.get(database) === current) listening.delete(database)
        throw err
      },
    )
  }

  return {
    kind: 'postgres',
    killGraceMs: 1_000,
    timeoutSql: (ms) => ` set local statement_timeout = ${Math.max(1, Math.floor(ms))};`,
    async open(ref, lost) {
      const { key, superuser } = await ensureReady()
      const database = nameOf(ref)
      // Whatever the tenant did to its own role last time (settings, connection limit) is undone before it logs in;
      // a password of its own choosing shows as a failed login, and the platform's is set again.
      const login = await assertRole(ref, key, superuser, { database, password: false })
      const connect = async () => {
        const url = new URL(urlFor(databaseUrl, database))
        url.username = encodeURIComponent(login.role)
        url.password = encodeURIComponent(login.password)
        const client = new pg.Client({ connectionString: url.toString() })
        client.on('error', () => {})
        await client.connect()
        return client
      }
      let client: pg.Client
      try {
        client = await connect()
      } catch (err) {
        if ((err as { code?: string }).code !== '28P01') throw err
        await assertRole(ref, key, superuser, { database, password: true })
        client = await connect()
      }
      const session = new ClientSession(client, lost)
      try {
        // A database made before the template carried a schema gets it now (upgrades.ts).
        // Only a superuser may create an untrusted extension such as plpgsql_check.
        const upgrades = superuser ? [...PROJECT_UPGRADES, PLPGSQL_CHECK_UPGRADE] : PROJECT_UPGRADES
        for (const upgrade of await missingUpgrades(session, upgrades)) await runIn(database, upgradeScript(upgrade, login.role))
      } catch (err) {
        await session.close().catch(() => {})
        throw err
      }
      return session
    },
    async listen(ref, channel, onPayload) {
      return listenOn(ref, channel, onPayload)
    },
    async setSettings(ref, settings) {
      const database = ident(nameOf(ref))
      // As the database's owner (DATABASE_URL's user): the project's role owns no database and cannot undo them.
      await admin.query(Object.entries(settings).map(([name, value]) => `alter database ${database} set ${ident(name)} = ${literal(value)};`).join('\n'))
    },
    exists: (ref) => dbExists(nameOf(ref)),
    prepare: async () => {
      await ensureReady()
    },
    async create(ref, schemaSql) {
      const name = nameOf(ref)
      if (await dbExists(name)) return
      const { key, superuser } = await ensureReady()
      const partial = `${name}_partial`
      await admin.query(`drop database if exists ${ident(partial)} with (force)`)
      await createFromTemplate(partial)
      // Only the project's role may connect, from before the database has its name; whoever came in while PUBLIC
      // still could is shown out.
      const { role } = await assertRole(ref, key, superuser, { database: partial, password: true })
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [partial])
      await runIn(partial, ownershipSql(role))
      // The demo schema is made by the project's role, so the people's SQL can change what it made.
      if (schemaSql) await runIn(partial, `set role ${ident(role)};\n${schemaSql}`)
      try {
        await admin.query(`alter database ${ident(partial)} rename to ${ident(name)}`)
      } catch (err) {
        // Another server on this cluster finished the same database meanwhile.
        if ((err as { code?: string }).code !== '42P04') throw err
        await admin.query(`drop database if exists ${ident(partial)} with (force)`)
      }
    },
    async drop(ref) {
      const role = nameOf(ref)
      await admin.query(`drop database if exists ${ident(role)} with (force)`)
      try {
        await admin.query(`drop role if exists ${ident(role)}`)
      } catch (err) {
        // The role still owns or was granted something elsewhere on the cluster: it keeps that, but logs in no more.
        if ((err as { code?: string }).code !== '2BP01') throw err
        await admin.query(`alter role ${ident(role)} nologin password null`)
        console.error(`projectdb: the role of ${ref} could not be dropped (${(err as Error).message}); it may no longer log in`)
      }
      verifiers.delete(role)
    },
    async serverVersion() {
      const { rows } = await admin.query<{ server_version: string }>('show server_version')
      return rows[0].server_version.split(' ')[0]
    },
    end: async () => {
      const clients = [...listening.values()].map((e) => e.client)
      listening.clear()
      for (const c of clients) await (await c.catch(() => undefined))?.end().catch(() => {})
      await admin.end()
    },
  }
}
