/**
 * The Management API's database settings, in the contract's shapes: network restrictions kept per project and
 * enforced on the Postgres port (IPv4 and IPv6 clients outside the allowed ranges get a FATAL), SSL enforcement as
 * it is (the port has no TLS), the Postgres settings the engine runs with, the read-only mode, health per service,
 * and REST's settings, which the REST API honours (its row cap, its exposed schemas).
 */
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatabaseConnection } from '../../src/contracts/settings'
import { NetworkRestrictions, NetworkRestrictionsV2, PostgresConfig, PostgrestConfig, ReadOnlyStatus, ServiceHealthList, SslEnforcement } from '../../src/contracts/wire'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { upsertWarning } from '../../src/server/features/usage/store'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { OWNER, READONLY, projectByName, startTestServer, type TestServer } from './helpers'

const PASSWORD = 'settings-password-1'

let s: TestServer
let wire4: WireServer
let wire6: WireServer
let ref: string
let projectId: number
let anon: string
let owner: string
let readonly: string

const v1 = (path: string, init: { method?: string; body?: unknown; as?: string } = {}) =>
  s.request(`/v1/projects/${ref}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: init.as ?? owner, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  })

/** Connects over IPv4 (127.0.0.1) or IPv6 (::1) and runs one query; the error's message when refused. */
async function connect(family: 4 | 6): Promise<string> {
  const host = family === 4 ? '127.0.0.1' : '::1'
  const port = family === 4 ? wire4.port : wire6.port
  const c = new pg.Client({ host, port, user: `postgres.${ref}`, password: PASSWORD, database: 'postgres' })
  try {
    await c.connect()
    await c.query('select 1')
    return 'connected'
  } catch (err) {
    return (err as Error).message
  } finally {
    await c.end().catch(() => {})
  }
}

beforeAll(async () => {
  s = await startTestServer()
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  projectId = project.id
  anon = (await findProjectKeys(s.db, project.id))!.anon_key
  owner = await s.signIn(OWNER)
  readonly = await s.signIn(READONLY)
  wire4 = await startWireServer({ db: s.db, projectDbs: s.projectDbs, config: { ...s.config, host: '127.0.0.1', wire: { ...s.config.wire, port: 0 } } })
  wire6 = await startWireServer({ db: s.db, projectDbs: s.projectDbs, config: { ...s.config, host: '::1', wire: { ...s.config.wire, port: 0 } } })
  expect((await v1('/database/password', { method: 'PATCH', body: { password: PASSWORD } })).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await wire4?.close()
  await wire6?.close()
  await s?.close()
})

describe('network restrictions', () => {
  it('are kept per project and enforced on the Postgres port, for IPv4 and IPv6 clients', async () => {
    const initial = NetworkRestrictions.parse(await (await v1('/network-restrictions')).json())
    expect(initial).toEqual({ entitlement: 'allowed', config: { dbAllowedCidrs: ['0.0.0.0/0'], dbAllowedCidrsV6: ['::/0'] }, status: 'applied' })
    expect(await connect(4)).toBe('connected')
    expect(await connect(6)).toBe('connected')

    // PATCH answers the V2 shape: one list, each address tagged with its family.
    const patched = await v1('/network-restrictions', { method: 'PATCH', body: { add: { dbAllowedCidrs: ['10.0.0.0/8'] }, remove: { dbAllowedCidrs: ['0.0.0.0/0'] } } })
    expect(patched.status).toBe(200)
    const v2 = NetworkRestrictionsV2.parse(await patched.json())
    expect(v2.status).toBe('applied')
    expect(v2.config.dbAllowedCidrs).toEqual([
      { address: '10.0.0.0/8', type: 'v4' },
      { address: '::/0', type: 'v6' },
    ])
    expect(v2.old_config?.dbAllowedCidrs).toEqual([
      { address: '0.0.0.0/0', type: 'v4' },
      { address: '::/0', type: 'v6' },
    ])
    expect(await connect(4)).toMatch(/Address not in tenant allow_list: 127\.0\.0\.1/)
    expect(await connect(6)).toBe('connected')

    const applied = await v1('/network-restrictions/apply', { method: 'POST', body: { dbAllowedCidrs: ['127.0.0.0/8'], dbAllowedCidrsV6: ['2001:db8::/32'] } })
    expect(applied.status).toBe(201)
    const now = NetworkRestrictions.parse(await applied.json())
    expect(now.config).toEqual({ dbAllowedCidrs: ['127.0.0.0/8'], dbAllowedCidrsV6: ['2001:db8::/32'] })
    expect(now.old_config).toEqual({ dbAllowedCidrs: ['10.0.0.0/8'], dbAllowedCidrsV6: ['::/0'] })
    expect(await connect(4)).toBe('connected')
    expect(await connect(6)).toMatch(/Address not in tenant allow_list: ::1/)
    // What GET answers is what was stored.
    expect(NetworkRestrictions.parse(await (await v1('/network-restrictions')).json()).config).toEqual(now.config)

    await v1('/network-restrictions', { method: 'PATCH', body: { add: { dbAllowedCidrsV6: ['::1/128'] } } })
    expect(await connect(6)).toBe('connected')

    // Back to every address.
    expect((await v1('/network-restrictions/apply', { method: 'POST', body: { dbAllowedCidrs: ['0.0.0.0/0'], dbAllowedCidrsV6: ['::/0'] } })).status).toBe(201)
    expect(await connect(4)).toBe('connected')
  }, 60_000)

  it('refuses what is not a range of its family, and members who may not change the project', async () => {
    for (const body of [{ dbAllowedCidrs: ['nope'] }, { dbAllowedCidrs: ['::1/128'] }, { dbAllowedCidrsV6: ['10.0.0.0/8'] }, { dbAllowedCidrs: ['10.0.0.0/33'] }]) {
      const res = await v1('/network-restrictions/apply', { method: 'POST', body })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(/is not an IPv[46] CIDR range/)
    }
    expect((await v1('/network-restrictions', { method: 'PATCH', body: { add: { dbAllowedCidrs: 'x' } } })).status).toBe(400)
    const denied = await v1('/network-restrictions', { method: 'PATCH', body: { add: { dbAllowedCidrs: ['10.0.0.0/8'] } }, as: readonly })
    expect(denied.status).toBe(403)
    // A read-only member still reads them.
    expect((await v1('/network-restrictions', { as: readonly })).status).toBe(200)
  })
})

describe('SSL enforcement', () => {
  it('answers what is true: the port has no TLS, so enforcing it is not applied', async () => {
    const on = await v1('/ssl-enforcement', { method: 'PUT', body: { requestedConfig: { database: true } } })
    expect(SslEnforcement.parse(await on.json())).toEqual({ currentConfig: { database: false }, appliedSuccessfully: false })
    const off = await v1('/ssl-enforcement', { method: 'PUT', body: { requestedConfig: { database: false } } })
    expect(SslEnforcement.parse(await off.json())).toEqual({ currentConfig: { database: false }, appliedSuccessfully: true })
    expect((await v1('/ssl-enforcement', { method: 'PUT', body: { database: true } })).status).toBe(400)
    expect((await v1('/ssl-enforcement', { method: 'PUT', body: { requestedConfig: { database: false } }, as: readonly })).status).toBe(403)
  })
})

describe('Postgres settings', () => {
  const put = (body: unknown) => v1('/config/database/postgres', { method: 'PUT', body })
  const message = async (res: Response) => ((await res.json()) as { message: string }).message

  it('are read from the engine; the ones a database takes are set on it and seen by a new connection', async () => {
    const res = await v1('/config/database/postgres')
    expect(res.status).toBe(200)
    const config = PostgresConfig.parse(await res.json())
    // The same values SHOW prints in the project's own database.
    const c = new pg.Client({ host: '127.0.0.1', port: wire4.port, user: `postgres.${ref}`, password: PASSWORD, database: 'postgres' })
    await c.connect()
    try {
      const show = async (name: string) => ((await c.query(`select current_setting($1) as v`, [name])).rows[0] as { v: string }).v
      expect(config.work_mem).toBe(await show('work_mem'))
      expect(config.shared_buffers).toBe(await show('shared_buffers'))
      expect(config.max_connections).toBe(Number(await show('max_connections')))
      expect(config.track_commit_timestamp).toBe((await show('track_commit_timestamp')) === 'on')
    } finally {
      await c.end()
    }

    // The whole config sent back (as the CLI does) changes nothing.
    const same = await put(config)
    expect(same.status).toBe(200)
    expect(PostgresConfig.parse(await same.json())).toEqual(config)

    const postgres = s.projectDbs.kind === 'postgres'
    // Units as Postgres reads them; the answer prints them as SHOW does.
    const asked = postgres
      ? { work_mem: '65536kB', statement_timeout: '90000ms', max_parallel_workers_per_gather: 1 }
      : { work_mem: '65536kB', maintenance_work_mem: '0.03125GB' }
    const expected = postgres
      ? { work_mem: '64MB', statement_timeout: '90s', max_parallel_workers_per_gather: 1 }
      : { work_mem: '64MB', maintenance_work_mem: '32MB' }
    const changed = await put(asked)
    expect(changed.status).toBe(200)
    expect(PostgresConfig.parse(await changed.json())).toMatchObject(expected)
    expect(PostgresConfig.parse(await (await v1('/config/database/postgres')).json())).toMatchObject(expected)

    const fresh = new pg.Client({ host: '127.0.0.1', port: wire4.port, user: `postgres.${ref}`, password: PASSWORD, database: 'postgres' })
    await fresh.connect()
    try {
      for (const [name, value] of Object.entries(expected)) {
        expect(((await fresh.query(`show ${name}`)).rows[0] as Record<string, string>)[name]).toBe(String(value))
      }
      if (postgres) {
        // Set by the platform on a database the project's role does not own: it cannot undo it.
        await expect(fresh.query("do $$ begin execute format('alter database %I reset work_mem', current_database()); end $$")).rejects.toMatchObject({
          code: '42501',
        })
      }
    } finally {
      await fresh.end()
    }
  }, 60_000)

  it('refuses what the engine cannot change, values outside the platform’s ranges, and members who may not', async () => {
    const config = PostgresConfig.parse(await (await v1('/config/database/postgres')).json())
    const serverWide = await put({ work_mem: '8MB', max_connections: config.max_connections! + 1 })
    expect(serverWide.status).toBe(400)
    const text = await message(serverWide)
    expect(text).toMatch(/cannot be changed on this platform/)
    expect(text).toContain(`max_connections (`)
    expect(text).toContain(`is ${config.max_connections})`)
    // Nothing of a refused body is applied.
    expect(PostgresConfig.parse(await (await v1('/config/database/postgres')).json()).work_mem).toBe(config.work_mem)
    if (s.projectDbs.kind === 'pglite') {
      const timeout = await put({ statement_timeout: '90s' })
      expect(timeout.status).toBe(400)
      expect(await message(timeout)).toMatch(/statement_timeout \(PGlite cannot interrupt a statement/)
    } else {
      const zero = await put({ statement_timeout: '0' })
      expect(zero.status).toBe(400)
      expect(await message(zero)).toBe('statement_timeout must be from 1ms to 1h on this platform (asked "0")')
    }
    const big = await put({ work_mem: '2GB' })
    expect(big.status).toBe(400)
    expect(await message(big)).toBe('work_mem must be from 64kB to 1GB on this platform (asked "2GB")')
    expect(await message(await put({ work_mem: '12 parsecs' }))).toMatch(/work_mem: unknown unit "parsecs"/)
    expect((await put({ session_replication_role: 'replica' })).status).toBe(400)
    expect((await put({ not_a_setting: 1 })).status).toBe(400)
    expect((await put({ statement_timeout: 'soon' })).status).toBe(400)
    expect((await put({})).status).toBe(200)
    expect((await v1('/config/database/postgres', { method: 'PUT', body: {}, as: readonly })).status).toBe(403)
  }, 30_000)
})

describe('Settings → Database', () => {
  it('shows the Postgres port when it listens, on either engine, with a string that connects', async () => {
    const res = await s.request(`/platform/projects/${ref}/settings/database`, { headers: { cookie: owner } })
    expect(res.status).toBe(200)
    const body = DatabaseConnection.parse(await res.json())
    expect(body).toMatchObject({ engine: s.projectDbs.kind, user: `postgres.${ref}`, database: 'postgres', pooler: { enabled: true } })
    expect([wire4.port, wire6.port]).toContain(body.port)
    expect(body.connection_string).toBe(`postgresql://postgres.${ref}:[YOUR-PASSWORD]@${body.host}:${body.port}/postgres?sslmode=disable`)
    const url = new URL(body.connection_string!.replace('[YOUR-PASSWORD]', PASSWORD))
    // The test's listeners are bound to one address each: the one of the port shown.
    url.hostname = body.port === wire4.port ? '127.0.0.1' : '[::1]'
    const c = new pg.Client({ connectionString: url.toString() })
    await c.connect()
    try {
      expect((await c.query('select current_database() as db')).rows[0]).toEqual({ db: expect.any(String) })
    } finally {
      await c.end()
    }
  }, 30_000)
})

describe('read-only mode', () => {
  it('is the platform’s read-only mode of the project', async () => {
    expect(ReadOnlyStatus.parse(await (await v1('/readonly')).json())).toEqual({ enabled: false, override_enabled: false, override_active_until: '' })
    await upsertWarning(s.db, projectId, 'is_readonly_mode_enabled', true, s.clock.now())
    try {
      expect(ReadOnlyStatus.parse(await (await v1('/readonly')).json()).enabled).toBe(true)
    } finally {
      await upsertWarning(s.db, projectId, 'is_readonly_mode_enabled', false, s.clock.now())
    }
  })
})

describe('health', () => {
  it('answers each service asked for', async () => {
    const res = await v1('/health?services=db&services=rest,pooler,auth')
    expect(res.status).toBe(200)
    const list = ServiceHealthList.parse(await res.json())
    expect(list.map((h) => [h.name, h.status, h.healthy])).toEqual([
      ['db', 'ACTIVE_HEALTHY', true],
      ['rest', 'ACTIVE_HEALTHY', true],
      ['pooler', 'ACTIVE_HEALTHY', true],
      ['auth', 'ACTIVE_HEALTHY', true],
    ])
    expect(list[1].info).toEqual({ db_schema: 'public' })
    expect(list[3].info).toMatchObject({ name: 'GoTrue' })

    expect((await v1('/health')).status).toBe(400)
    const unknown = await v1('/health?services=db,kitchen')
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { message: string }).message).toMatch(/kitchen/)
    expect((await v1('/health?services=db&timeout_ms=99999')).status).toBe(400)
  }, 30_000)
})

describe('REST settings', () => {
  const rest = (path: string) => s.request(`/p/${ref}/rest/v1/${path}`, { headers: { apikey: anon } })

  it('are kept per project, and the REST API honours the row cap and the exposed schemas', async () => {
    expect(PostgrestConfig.parse(await (await v1('/postgrest')).json())).toEqual({ db_schema: 'public', max_rows: 1000, db_extra_search_path: '', db_pool: null })
    const all = (await (await rest('recipes?select=id')).json()) as unknown[]
    expect(all.length).toBeGreaterThan(2)

    const capped = await v1('/postgrest', { method: 'PATCH', body: { max_rows: 2 } })
    expect(PostgrestConfig.parse(await capped.json())).toMatchObject({ db_schema: 'public', max_rows: 2 })
    const two = await rest('recipes?select=id')
    expect(((await two.json()) as unknown[]).length).toBe(2)
    expect(two.headers.get('content-range')).toBe('0-1/*')

    // No schema exposed: the REST API serves nothing, in PostgREST's words.
    await v1('/postgrest', { method: 'PATCH', body: { db_schema: '' } })
    const none = await rest('recipes?select=id')
    expect(none.status).toBe(406)
    expect(await none.json()).toMatchObject({ code: 'PGRST106' })
    expect((await v1('/health?services=rest')).status).toBe(200)

    await v1('/postgrest', { method: 'PATCH', body: { db_schema: 'public', max_rows: 1000 } })
    expect(((await (await rest('recipes?select=id')).json()) as unknown[]).length).toBe(all.length)
  }, 30_000)

  it('expose a list of the project’s schemas, each served when a request names it as PostgREST’s profiles do', async () => {
    await s.projectDbs.transaction(ref, {}, (tx) =>
      tx.exec(`create schema kitchen;
        grant usage on schema kitchen to anon;
        create table kitchen.pans (id int primary key, name text not null);
        grant select, insert on kitchen.pans to anon;
        insert into kitchen.pans values (1, 'skillet');`),
    )
    const patched = await v1('/postgrest', { method: 'PATCH', body: { db_schema: 'public, kitchen,public' } })
    expect(patched.status).toBe(200)
    expect(PostgrestConfig.parse(await patched.json()).db_schema).toBe('public,kitchen')
    expect(PostgrestConfig.parse(await (await v1('/postgrest')).json()).db_schema).toBe('public,kitchen')

    // The real client: `.schema()` sends Accept-Profile on reads and Content-Profile on writes.
    const supabase = createClient(`http://platform.test/p/${ref}`, anon, {
      global: { fetch: (input, init) => s.request(new URL(input instanceof Request ? input.url : input.toString()).href.replace('http://platform.test', ''), init) },
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    })
    expect((await supabase.schema('kitchen').from('pans').insert({ id: 2, name: 'wok' })).status).toBe(201)
    const pans = await supabase.schema('kitchen').from('pans').select('id, name').order('id')
    expect(pans.error).toBeNull()
    expect(pans.data).toEqual([
      { id: 1, name: 'skillet' },
      { id: 2, name: 'wok' },
    ])
    // Without a profile, the first schema listed; it says which one answered.
    const recipes = await rest('recipes?select=id&limit=1')
    expect(recipes.status).toBe(200)
    expect(recipes.headers.get('content-profile')).toBe('public')
    const notInPublic = await supabase.from('pans').select('id')
    expect(notInPublic.error).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'public.pans' in the schema cache" })
    // A schema that exists but is not listed is not served.
    const storage = await supabase.schema('storage').from('buckets').select('id')
    expect(storage.status).toBe(406)
    expect(storage.error).toMatchObject({ code: 'PGRST106', message: 'The schema must be one of the following: public, kitchen' })
    // The OpenAPI document of the schema asked for.
    const doc = (await (await s.request(`/p/${ref}/rest/v1/`, { headers: { apikey: anon, 'accept-profile': 'kitchen' } })).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).toContain('/pans')
    expect(Object.keys(doc.paths)).not.toContain('/recipes')

    await v1('/postgrest', { method: 'PATCH', body: { db_schema: 'public' } })
    expect((await supabase.schema('kitchen').from('pans').select('id')).status).toBe(406)
  }, 30_000)

  it('refuses what the REST API cannot do, and members who may not change the project', async () => {
    for (const body of [
      { db_schema: 'public,nosuch' },
      { db_schema: 'pg_catalog' },
      { db_schema: 'information_schema' },
      { db_pool: 10 },
      { db_extra_search_path: 'extensions' },
      { max_rows: -1 },
      { max_rows: 2_000_000 },
    ]) {
      const res = await v1('/postgrest', { method: 'PATCH', body })
      expect(res.status).toBe(400)
      expect(typeof ((await res.json()) as { message: unknown }).message).toBe('string')
    }
    expect((await v1('/postgrest', { method: 'PATCH', body: { max_rows: 5 }, as: readonly })).status).toBe(403)
    expect(PostgrestConfig.parse(await (await v1('/postgrest')).json()).max_rows).toBe(1000)
  })
})
