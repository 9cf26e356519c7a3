/**
 * Tenants of one database server must not reach each other. On PostgreSQL every project database lives on the
 * store's server: each project logs in as a role of its own, which may connect to its own database only, cannot read
 * another tenant's SQL in pg_stat_activity nor signal its backends, and whose `ALTER ROLE current_user …` harms only
 * itself (and only until the platform opens the project again). Everything a tenant does here goes through the real
 * Management API endpoint, as the demo Owner with a personal access token.
 * On PGlite each project is an instance of its own (one worker, one session): the same requests show that nothing of
 * one reaches the other.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngineDatabases } from '../../src/server/projectdb'
import { ROLES_SQL } from '../../src/server/projectdb/template'
import { POSTGRES_TEMPLATE_NAME, projectDbPrefix, projectLogin } from '../../src/server/projectdb/postgres'
import { isPostgres, json, OWNER, startTestServer, testConfig, type TestServer } from './helpers'
import { startPgCluster } from './pgCluster'

let s: TestServer
let token: string
let A: string
let B: string

async function newProject(name: string): Promise<string> {
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name, status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  return ((await res.json()) as { ref: string }).ref
}

/** `POST /v1/projects/<ref>/database/query` as the Owner: the status and the rows (or the error). */
async function v1sql(ref: string, query: string): Promise<{ status: number; body: any }> {
  const res = await s.request(`/v1/projects/${ref}/database/query`, json({ query }, { authorization: `Bearer ${token}` }))
  return { status: res.status, body: await res.json() }
}

async function ok(ref: string, query: string): Promise<Record<string, unknown>[]> {
  const r = await v1sql(ref, query)
  if (r.status !== 201) throw new Error(`${query} → ${r.status}: ${JSON.stringify(r.body)}`)
  return r.body as Record<string, unknown>[]
}

beforeAll(async () => {
  s = await startTestServer()
  A = await newProject('Tenant A')
  B = await newProject('Tenant B')
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  const cookie = await s.signIn(OWNER)
  const created = await s.request('/platform/profile/access-tokens', json({ name: 'tenants' }, { cookie }))
  expect(created.status).toBe(201)
  token = ((await created.json()) as { token: string }).token
}, 120_000)

afterAll(() => s?.close())

describe('tenants, on either store', () => {
  it("A's ALTER ROLE current_user SET … never reaches B", async () => {
    await ok(B, 'create table b_notes (body text)')
    await ok(A, 'alter role current_user set default_transaction_read_only = on')
    // B's next session starts after A's change.
    await s.projectDbs.close(B)
    expect(await ok(B, `insert into b_notes values ('still writable') returning body`)).toEqual([{ body: 'still writable' }])
  })

  it("A's sessions list shows none of B's SQL", async () => {
    const marker = `tenant_b_secret_${Date.now()}`
    await ok(B, `select '${marker}' as m`)
    const seen = await ok(A, `select query from pg_stat_activity where pid <> pg_backend_pid()`)
    expect(JSON.stringify(seen)).not.toContain(marker)
  })
})

if (isPostgres) {
  const admin = () => {
    const client = new pg.Client({ connectionString: s.store.placement.databaseUrl })
    client.on('error', () => {})
    return client
  }
  const prefix = () => projectDbPrefix(s.store.placement.databaseUrl!)
  /** Connects with these credentials to that database; the SQLSTATE it is refused with, or 'connected'. */
  async function tryConnect(user: string, password: string, database: string): Promise<string> {
    const url = new URL(s.store.placement.databaseUrl!)
    url.username = encodeURIComponent(user)
    url.password = encodeURIComponent(password)
    url.pathname = `/${encodeURIComponent(database)}`
    const client = new pg.Client({ connectionString: url.toString() })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.query('select 1')
      return 'connected'
    } catch (err) {
      return String((err as { code?: string }).code ?? (err as Error).message)
    } finally {
      await client.end().catch(() => {})
    }
  }

  describe('tenants of one PostgreSQL server', () => {
    it('each project logs in as a role of its own, with no right over the cluster, which may connect to its own database only', async () => {
      const [a] = await ok(A, `select current_user as role, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls
        from pg_roles r where r.rolname = current_user`)
      const [b] = await ok(B, 'select current_user as role')
      expect(a).toEqual({ role: `${prefix()}${A}`, rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false })
      expect(b).toEqual({ role: `${prefix()}${B}` })
      const store = new URL(s.store.placement.databaseUrl!).pathname.slice(1)
      const reachable = await ok(A, `select d.datname from pg_database d
        where has_database_privilege(current_user, d.datname, 'CONNECT')
          and (starts_with(d.datname, '${prefix()}') or d.datname in ('${store}', '${POSTGRES_TEMPLATE_NAME}'))`)
      expect(reachable).toEqual([{ datname: `${prefix()}${A}` }])
    })

    it("A's ALTER ROLE current_user … leaves B working, and A works again once the platform opens it again", async () => {
      expect((await v1sql(A, 'alter role current_user nologin')).body.code).toBe('42501')
      expect((await v1sql(A, 'alter role current_user connection limit 0')).body.code).toBe('42501')
      await ok(A, 'alter role current_user set default_transaction_read_only = on')
      await ok(A, 'alter role current_user set statement_timeout = 1')
      await ok(A, `alter role current_user password 'locked-out'`)
      await s.projectDbs.close(B)
      expect(await ok(B, 'create table b_after (x int); insert into b_after values (1) returning x')).toEqual([{ x: 1 }])
      // The platform sets A's role up again when it opens A's database: its own password, no settings of A's.
      await s.projectDbs.close(A)
      expect(await ok(A, `create table a_after (x int); insert into a_after select 1 from pg_sleep(0.01) returning x`)).toEqual([{ x: 1 }])
      const c = admin()
      await c.connect()
      try {
        const { rows } = await c.query('select rolconnlimit, rolcanlogin, rolconfig from pg_roles where rolname = $1', [`${prefix()}${A}`])
        expect(rows).toEqual([{ rolconnlimit: -1, rolcanlogin: true, rolconfig: null }])
      } finally {
        await c.end()
      }
    })

    it("A sees that B runs something, never what, and can neither cancel nor end B's backend", async () => {
      const marker = `tenant_b_running_${Date.now()}`
      let settled = false
      const running = v1sql(B, `select '${marker}' as m from pg_sleep(2.5)`).finally(() => (settled = true))
      const c = admin()
      await c.connect()
      let pid: number
      try {
        for (;;) {
          if (settled) throw new Error(`B's query ended before it was seen running: ${JSON.stringify(await running)}`)
          const { rows } = await c.query<{ pid: number }>(`select pid from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`, [`%${marker}%`])
          if (rows[0]) {
            pid = rows[0].pid
            break
          }
          await new Promise((r) => setTimeout(r, 25))
        }
      } finally {
        await c.end()
      }
      const seen = await ok(A, `select pid, usename::text as usename, query from pg_stat_activity where pid = ${pid}`)
      expect(seen).toEqual([{ pid, usename: `${prefix()}${B}`, query: '<insufficient privilege>' }])
      expect((await v1sql(A, `select pg_cancel_backend(${pid})`)).body.code).toBe('42501')
      expect((await v1sql(A, `select pg_terminate_backend(${pid})`)).body.code).toBe('42501')
      const done = await running
      expect(done).toEqual({ status: 201, body: [{ m: marker }] })
    })

    it("A's credentials open A's database, and neither B's nor the store's nor the template; nor do they log in as B", async () => {
      const a = await projectLogin(s.store.placement.databaseUrl!, A)
      const b = await projectLogin(s.store.placement.databaseUrl!, B)
      expect(a.password).not.toBe(b.password)
      expect(await tryConnect(a.role, a.password, a.database)).toBe('connected')
      const store = new URL(s.store.placement.databaseUrl!).pathname.slice(1)
      for (const database of [b.database, store, POSTGRES_TEMPLATE_NAME]) {
        expect(await tryConnect(a.role, a.password, database), database).toBe('42501')
      }
      expect(await tryConnect(b.role, a.password, b.database)).toBe('28P01')
    })

    it("dropping a project's database drops its login role", async () => {
      const C = await newProject('Tenant C')
      s.clock.advance(s.config.lifecycle.comingUpMs)
      await s.engine.runDue()
      await ok(C, 'select 1')
      const role = `${prefix()}${C}`
      const c = admin()
      await c.connect()
      try {
        expect((await c.query('select 1 from pg_roles where rolname = $1', [role])).rows).toHaveLength(1)
        await s.projectDbs.drop(C)
        expect((await c.query('select 1 from pg_roles where rolname = $1', [role])).rows).toHaveLength(0)
      } finally {
        await c.end()
      }
    })

    it('a store made before per-project roles is converted at start: one role per database, the shared role gone; twice at once is safe', async () => {
      const legacy = `${prefix()}owner`
      const ref = 'legacyprojectdbconv'
      const database = `${prefix()}${ref}`
      const c = admin()
      await c.connect()
      try {
        // What the previous engine left: a shared owner role owning schema public and the tables, CONNECT for PUBLIC.
        await c.query(`create role "${legacy}" login password 'shared'`)
        await c.query(`grant anon, authenticated, service_role to "${legacy}"`)
        await c.query(`create database "${database}" template "${POSTGRES_TEMPLATE_NAME}"`)
        const inside = new pg.Client({ connectionString: Object.assign(new URL(s.store.placement.databaseUrl!), { pathname: `/${database}` }).toString() })
        await inside.connect()
        await inside.query(`alter schema public owner to "${legacy}"; grant create on database "${database}" to "${legacy}";
          set role "${legacy}"; create table kept (x int); insert into kept values (7);`)
        await inside.end()
        const engines = [0, 1].map(() => createEngineDatabases(testConfig({ ...s.store.placement })))
        try {
          await Promise.all(engines.map((e) => e.prepare()))
          expect((await c.query('select 1 from pg_roles where rolname = $1', [legacy])).rows).toHaveLength(0)
          const owner = await engines[0].transaction(ref, {}, (tx) =>
            tx.query(`select current_user as me, (select tableowner from pg_tables where tablename = 'kept') as owner,
              (select nspowner::regrole::text from pg_namespace where nspname = 'public') as public, (select x from kept) as x`),
          )
          expect(owner.rows).toEqual([{ me: database, owner: database, public: database, x: 7 }])
          expect(await tryConnect(legacy, 'shared', database)).toBe('28P01')
        } finally {
          await Promise.all(engines.map((e) => e.closeAll()))
        }
        const acl = await c.query(`select a.grantee::regrole::text as grantee from pg_database d, aclexplode(d.datacl) a
          where d.datname = $1 and a.privilege_type = 'CONNECT' order by 1`, [database])
        expect(acl.rows.map((r) => r.grantee)).toEqual(['postgres', database].sort())
      } finally {
        await c.query(`drop database if exists "${database}" with (force)`)
        await c.query(`drop role if exists "${database}"`)
        await c.query(`drop role if exists "${legacy}"`)
        await c.end()
      }
    })

    it('runs project databases as a DATABASE_URL user with CREATEROLE and CREATEDB who is no superuser', async () => {
      // A cluster of its own: the template is cluster-wide, and the one the other tests share was made by a superuser.
      const cluster = await startPgCluster()
      try {
        const c = new pg.Client({ connectionString: cluster.url })
        await c.connect()
        // The API roles come from a superuser (only one may make service_role BYPASSRLS), as an operator would.
        await c.query(ROLES_SQL)
        await c.query(`create role platform login createrole createdb password 'platform-pass'`)
        await c.query('create database platform_store owner platform')
        await c.end()
        const url = new URL(cluster.url)
        url.username = 'platform'
        url.password = 'platform-pass'
        url.pathname = '/platform_store'
        const dbs = createEngineDatabases(testConfig({ dataDir: s.store.placement.dataDir, databaseUrl: url.toString() }))
        try {
          await dbs.create('managedref', { schemaSql: 'create table made (x int); insert into made values (3);' })
          const { rows } = await dbs.transaction('managedref', {}, (tx) =>
            tx.query(`select current_user as me, r.rolsuper, (select tableowner from pg_tables where tablename = 'made') as owner,
              (select x from made) as x from pg_roles r where r.rolname = current_user`),
          )
          expect(rows).toEqual([{ me: 'platform_store_p_managedref', rolsuper: false, owner: 'platform_store_p_managedref', x: 3 }])
          await dbs.drop('managedref')
          expect(await dbs.exists('managedref')).toBe(false)
        } finally {
          await dbs.closeAll()
        }
      } finally {
        cluster.stop()
      }
    }, 60_000)

    it('refuses to run project databases as a DATABASE_URL user who may not create roles, and says why', async () => {
      const user = `kp_weak_${process.pid}`
      const database = `${user}_store`
      const c = admin()
      await c.connect()
      try {
        await c.query(`create role ${user} login createdb password 'weak-pass'`)
        await c.query(`create database ${database} owner ${user}`)
        const url = new URL(s.store.placement.databaseUrl!)
        url.username = user
        url.password = 'weak-pass'
        url.pathname = `/${database}`
        const weak = createEngineDatabases(testConfig({ dataDir: s.store.placement.dataDir, databaseUrl: url.toString() }))
        try {
          await expect(weak.prepare()).rejects.toThrow(/CREATEROLE/)
          await expect(weak.transaction('weakprojectref', {}, (tx) => tx.query('select 1'))).rejects.toMatchObject({
            code: 'database_unavailable',
            message: expect.stringMatching(/CREATEROLE/),
          })
        } finally {
          await weak.closeAll()
        }
      } finally {
        await c.query(`drop database if exists ${database} with (force)`)
        await c.query(`drop role if exists ${user}`)
        await c.end()
      }
    })
  })
}
