/**
 * Harness of the server tests. The same files run on PGlite (TEST_DB=pglite) and on PostgreSQL
 * (TEST_DB=postgres, server from postgres.globalSetup.ts). Each test file gets its own fresh database:
 * an in-memory PGlite (or a temp folder when a test restarts the server), or CREATE DATABASE on Postgres.
 * Stored objects' bytes are on the test server's disk, or, in the server-s3 project (s3.globalSetup.ts), in the
 * run's S3-compatible server under a prefix of the test server's own.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import pg from 'pg'
import { inject, vi } from 'vitest'
import { createApp, type PlatformServer } from '../../src/server/app'
import { s3SettingsOf, type ServerConfig } from '../../src/server/config'
import type { Db } from '../../src/server/db'
import { copyDataDir, createStorePglite, wrapPglite } from '../../src/server/db/pglite'
import { openPostgres } from '../../src/server/db/postgres'
import { projectDbPrefix } from '../../src/server/projectdb/postgres'
import { snapshotKey, type StoreSnapshot } from './storeSnapshot'
import { FakeClock, pgliteTemplate, testConfig, type ConfigOverrides } from './testConfig'

export { FakeClock, pgliteTemplate, testConfig, type ConfigOverrides } from './testConfig'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded store of this run (storeSnapshot.ts), from the project's global setup. */
    storeSnapshot: StoreSnapshot
  }
}

export const isPostgres = process.env.TEST_DB === 'postgres'

/**
 * What a project's object store holds beyond its rows: writes not finished (disk: temporary files) and stored versions
 * no row of storage.objects names. Empty after every request has answered, whichever way it went.
 */
export async function storageLeftovers(s: TestServer, ref: string): Promise<string[]> {
  const { rows } = await s.projectDbs.transaction(ref, { role: 'service_role' }, (tx) => tx.query<{ version: string }>('select version from storage.objects'))
  const named = new Set(rows.map((r) => r.version))
  const orphans = (await s.objects.stored(ref)).filter((v) => !named.has(v.version)).map((v) => `orphan ${v.version}`)
  return [...(await s.objects.unfinished(ref)), ...orphans]
}

/** STORAGE_S3_URL for one test server: the run's S3-compatible server (server-s3 project only), a prefix of its own. */
function storageS3ForTest(): Pick<ServerConfig, 'storageS3'> {
  const url = inject('storageS3Url')
  if (!url) return {}
  const own = new URL(url)
  own.pathname = `${own.pathname.replace(/\/$/, '')}/test-${randomUUID()}`
  return { storageS3: s3SettingsOf(own.toString()) }
}
export const DEMO_PASSWORD = 'demo1234'
export const OWNER = 'owner@example.com'
export const DEVELOPER = 'developer@example.com'
export const READONLY = 'readonly@example.com'

/**
 * A PGlite store: the folder `dataDir` opened again, or made there as a copy of the run's seeded store (or from the
 * empty cluster's dump, for a file whose settings differ from the seed's). Without `dataDir`, an empty cluster in
 * memory.
 */
async function openTemplatedPglite(dataDir?: string, snapshot?: StoreSnapshot): Promise<Db> {
  // The settings the platform's own store runs with (openPglite).
  if (dataDir && existsSync(dataDir)) return wrapPglite(await createStorePglite(dataDir))
  if (dataDir && snapshot?.folder) {
    await copyDataDir(snapshot.folder, dataDir)
    return wrapPglite(await createStorePglite(dataDir))
  }
  return wrapPglite(await createStorePglite(dataDir, { loadDataDir: await pgliteTemplate() }))
}

/** A database that can be opened again after closing (restart tests). */
export interface TestStore {
  open(): Promise<Db>
  destroy(): Promise<void>
  /** What the app's project databases need to live with this store: its DATA_DIR (PGlite) or its URL (Postgres). */
  placement: { dataDir: string; databaseUrl?: string }
}

/**
 * A fresh store for one test file. `snapshot`: a copy of the run's seeded store instead of an empty one (what
 * startTestServer passes when the file's settings match the seed's).
 */
export async function createTestStore(opts: { durable?: boolean; snapshot?: StoreSnapshot } = {}): Promise<TestStore> {
  if (isPostgres) {
    const baseUrl = inject('databaseUrl')
    if (!baseUrl) throw new Error('TEST_DB=postgres but no databaseUrl was provided by the global setup')
    const name = `kp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
    const admin = new pg.Client({ connectionString: baseUrl })
    await admin.connect()
    await admin.query(opts.snapshot?.database ? `create database ${name} template ${opts.snapshot.database}` : `create database ${name}`)
    await admin.end()
    const url = new URL(baseUrl)
    url.pathname = `/${name}`
    const opened: Db[] = []
    // A data folder of its own (storage's files, the secrets key): the stores copied from the run's snapshot carry
    // the same project refs, so a shared folder mixed two files' objects under one ref.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-test-pg-'))
    return {
      placement: { dataDir, databaseUrl: url.toString() },
      async open() {
        const db = openPostgres(url.toString(), 5)
        opened.push(db)
        return db
      },
      async destroy() {
        await Promise.all(opened.map((db) => db.close().catch(() => {})))
        const c = new pg.Client({ connectionString: baseUrl })
        await c.connect()
        await c.query(`drop database if exists ${name} with (force)`)
        // The project databases of this store (src/server/projectdb/postgres.ts names them).
        const { rows } = await c.query<{ datname: string }>(
          `select datname from pg_database where starts_with(datname, $1)`,
          [projectDbPrefix(url.toString())],
        )
        for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`)
        // And their login roles, named as the databases (roles outlive a dropped test database on a shared server).
        const roles = await c.query<{ rolname: string }>(`select rolname from pg_roles where starts_with(rolname, $1)`, [
          projectDbPrefix(url.toString()),
        ])
        for (const { rolname } of roles.rows) await c.query(`drop role if exists "${rolname}"`).catch(() => {})
        await c.end()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  }
  if (!opts.durable) {
    let db: Db | undefined
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-test-'))
    return {
      placement: { dataDir },
      async open() {
        if (db) throw new Error('a store that is not durable cannot be reopened: use createTestStore({ durable: true })')
        // The seeded store is copied into a folder of its own, deleted with the store.
        db = await openTemplatedPglite(opts.snapshot?.folder ? path.join(dataDir, 'test-store') : undefined, opts.snapshot)
        return db
      },
      async destroy() {
        await db?.close()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-test-'))
  const opened: Db[] = []
  return {
    placement: { dataDir: dir },
    async open() {
      const db = await openTemplatedPglite(path.join(dir, 'data'), opts.snapshot)
      opened.push(db)
      return db
    },
    async destroy() {
      for (const db of opened) await db.close().catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The run's seeded store when settings `config` agree with it on what the seed reads (storeSnapshot.ts). */
function snapshotFor(config?: ConfigOverrides): StoreSnapshot | undefined {
  const snapshot = inject('storeSnapshot')
  return snapshot && snapshotKey(testConfig(config)) === snapshot.key ? snapshot : undefined
}

/**
 * A store that outlives its servers (restart tests) and the clock to run them on: a copy of the run's seeded store and
 * the clock the seed had, when settings `config` agree with the seed's; else an empty store (the first server seeds it)
 * and a clock at now.
 */
export async function createSeededStore(config?: ConfigOverrides): Promise<{ store: TestStore; clock: FakeClock }> {
  const snapshot = snapshotFor(config)
  return { store: await createTestStore({ durable: true, snapshot }), clock: new FakeClock(snapshot?.seededAt) }
}

export interface TestServer extends PlatformServer {
  db: Db
  clock: FakeClock
  config: ServerConfig
  store: TestStore
  request(path: string, init?: RequestInit): Promise<Response>
  /** Signs in and returns the Cookie header value. */
  signIn(email: string, password?: string): Promise<string>
  /** Stops the engine, closes the database; `destroy` also deletes it. */
  close(opts?: { destroy?: boolean }): Promise<void>
}

export async function startTestServer(
  opts: { store?: TestStore; db?: Db; clock?: FakeClock; config?: ConfigOverrides } = {},
): Promise<TestServer> {
  // A file that brings nothing of its own and whose settings match the seed's starts from the run's seeded store,
  // with the clock the seed had.
  const fromSnapshot = !opts.store && !opts.db && !opts.clock ? snapshotFor(opts.config) : undefined
  const store = opts.store ?? (await createTestStore({ snapshot: fromSnapshot }))
  const db = opts.db ?? (await store.open())
  const clock = opts.clock ?? new FakeClock(fromSnapshot?.seededAt)
  // The run's one Deno cache (denoCache.globalSetup.ts), unless the file names its own.
  const denoDir = inject('denoDir')
  const config = testConfig({
    ...store.placement,
    ...storageS3ForTest(),
    ...opts.config,
    functions: { ...(denoDir ? { denoDir } : {}), ...opts.config?.functions },
  })
  const server = await createApp({ db, config, clock })
  const request = (p: string, init?: RequestInit) => Promise.resolve(server.app.request(p, init))
  return {
    ...server,
    db,
    clock,
    config,
    store,
    request,
    async signIn(email, password = DEMO_PASSWORD) {
      const res = await request('/platform/auth/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}`)
      return cookieFrom(res)
    },
    async close({ destroy = true } = {}) {
      await server.close()
      await db.close()
      if (destroy) await store.destroy()
    },
  }
}

export function cookieFrom(res: Response): string {
  const header = res.headers.get('set-cookie') ?? ''
  const pair = header.split(';')[0]
  if (!pair.includes('=')) throw new Error('no session cookie in the answer')
  return pair
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }
}

/** An organization none of the demo accounts belongs to, with one project. */
export async function insertForeignOrganization(db: Db): Promise<{ slug: string; ref: string }> {
  const slug = 'someone-elses-org'
  const ref = 'zzzzzzzzzzzzzzzzzzzz'
  const { rows } = await db.query<{ id: number }>(
    `insert into organizations (slug, name, plan_id) values ($1, 'Someone Else', 'pro') returning id`,
    [slug],
  )
  await db.query(
    `insert into projects (ref, organization_id, name, status, region, db_version, inserted_at, updated_at)
     values ($1, $2, 'Secret Project', 'ACTIVE_HEALTHY', 'us-east-1', '15.6', now(), now())`,
    [ref, rows[0].id],
  )
  return { slug, ref }
}

export async function projectByName(server: TestServer, name: string) {
  const { rows } = await server.db.query<{ id: number; ref: string; status: string; postgrest_status: string; db_version: string }>(
    'select id, ref, status, postgrest_status, db_version from projects where name = $1',
    [name],
  )
  if (!rows[0]) throw new Error(`no project named ${name}`)
  return rows[0]
}

/**
 * Runs `fn` and returns what it resolves to with the e-mail verification links the server printed meanwhile (no
 * SMTP: one line on standard output each, features/accounts/verification.ts), as paths to request.
 */
export async function withPrintedLinks<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[]; links: string[] }> {
  const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
  try {
    const result = await fn()
    const lines = spy.mock.calls.map((args) => args.map(String).join(' ')).filter((line) => line.includes('verify-email'))
    const links = lines.map((line) => {
      const url = new URL(/https?:\/\/\S+/.exec(line)![0])
      return `${url.pathname}${url.search}`
    })
    return { result, lines, links }
  } finally {
    spy.mockRestore()
  }
}

/** Signs up a new person and opens the verification link printed for them; the sign-up's answer. */
export async function signUpVerified(server: TestServer, email: string, password = 'long enough', headers: Record<string, string> = {}) {
  const { result: res, links } = await withPrintedLinks(() => server.request('/platform/auth/sign-up', json({ email, password }, headers)))
  if (res.status !== 201) throw new Error(`sign-up as ${email} answered ${res.status}`)
  if (links.length !== 1) throw new Error(`sign-up as ${email} printed ${links.length} verification links`)
  const verified = await server.request(links[0])
  if (verified.status !== 303) throw new Error(`the verification link of ${email} answered ${verified.status}`)
  return res
}

/**
 * The test server listening on a free loopback port, for the clients that need a real URL (supabase-js, tus, the CLI):
 * the URLs the platform hands out are then built on it.
 */
export async function listenOnPort(s: TestServer): Promise<{ origin: string; close(): Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  s.listeningOn(origin)
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
