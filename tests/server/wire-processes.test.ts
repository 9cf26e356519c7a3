/**
 * Two Postgres-port listeners on one store serve the same projects, and a project's connection limit holds across
 * them (the store counts each listener's clients). On PostgreSQL these are two platform servers on one DATABASE_URL
 * (each its own store pool and project-database engine), as two processes would be; on PGlite, whose data folder one
 * process holds, two listeners of one server.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Db } from '../../src/server/db'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { isPostgres, OWNER, projectByName, startTestServer, type TestServer } from './helpers'

const LIMIT = 3
/**
 * How long a listener's process entry lives unrenewed (renewed every third of it). Short, so the killed listener's
 * entry expires soon; long enough that a busy machine's live listeners never miss it.
 */
const LIVE_MS = 3_000
let a: TestServer
let b: TestServer | undefined
let wireA: WireServer
let wireB: WireServer
let ref: string
let cookieA: string
const open: pg.Client[] = []

const listen = (s: TestServer, db: Db = s.db) =>
  startWireServer({
    db,
    projectDbs: s.projectDbs,
    config: { ...s.config, host: '127.0.0.1', processLiveMs: LIVE_MS, wire: { ...s.config.wire, port: 0, maxClientsPerProject: LIMIT } },
  })

/**
 * The store as a process that can die sees it: once `kill()` is called every query fails, as it does for a process
 * killed with SIGKILL (its renewals, its releases of slots and its goodbye never reach the store).
 */
function mortal(db: Db): { db: Db; kill(): void } {
  let dead = false
  const gone = () => Promise.reject(new Error('the process was killed'))
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (dead && (prop === 'query' || prop === 'transaction')) return gone
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return { db: proxy, kill: () => (dead = true) }
}

const clientsCounted = async (listenerId?: string) =>
  Number(
    (
      await a.db.query<{ n: number }>(
        `select coalesce(sum(clients), 0)::int as n from wire_client_counts where project_id = (select id from projects where ref = $1)
            and ($2::text is null or process_id = $2)`,
        [ref, listenerId ?? null],
      )
    ).rows[0].n,
  )

async function connect(wire: WireServer, password: string): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port: wire.port, user: `postgres.${ref}`, password, database: 'postgres' })
  c.on('error', () => {})
  await c.connect()
  open.push(c)
  return c
}

const setPassword = (s: TestServer, cookie: string, password: string) =>
  s.request(`/v1/projects/${ref}/database/password`, { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ password }) })

beforeAll(async () => {
  a = await startTestServer()
  ref = (await projectByName(a, 'Recipe Box')).ref
  cookieA = await a.signIn(OWNER)
  wireA = await listen(a)
  if (isPostgres) {
    b = await startTestServer({ store: a.store })
    wireB = await listen(b)
  } else wireB = await listen(a)
}, 120_000)

afterAll(async () => {
  await Promise.all(open.map((c) => c.end().catch(() => {})))
  await wireA?.close()
  await wireB?.close()
  await b?.close({ destroy: false })
  await a?.close()
})

it('both accept the project, see the same database and the same password, and hold one connection limit', async () => {
  const other = b ?? a
  expect((await setPassword(a, cookieA, 'first-password-1')).status).toBe(200)
  const viaA = await connect(wireA, 'first-password-1')
  const viaB = await connect(wireB, 'first-password-1')
  await viaA.query('create table pans (id int primary key, name text)')
  await viaA.query(`insert into pans values (1, 'skillet')`)
  expect((await viaB.query('select name from pans')).rows).toEqual([{ name: 'skillet' }])

  // LIMIT clients in all: the next is refused on either listener, whichever holds them.
  await connect(wireB, 'first-password-1')
  for (const wire of [wireA, wireB]) {
    await expect(connect(wire, 'first-password-1')).rejects.toMatchObject({ code: '53300', message: `too many connections for project ${ref} (at most ${LIMIT})` })
  }
  // One leaves through A: a client of B takes its place.
  await viaA.end()
  await expect.poll(() => connect(wireB, 'first-password-1').then(() => 'connected', (err: Error) => err.message), { timeout: 10_000 }).toBe('connected')

  // A password set through the other server works on both listeners at once; the old one on neither.
  const cookieB = other === a ? cookieA : await other.signIn(OWNER)
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => {})))
  // A client's end is done on its side first: the listeners count it out a moment later.
  await expect.poll(() => clientsCounted(), { timeout: 20_000 }).toBe(0)
  expect((await setPassword(other, cookieB, 'second-password-2')).status).toBe(200)
  for (const wire of [wireA, wireB]) {
    await expect(connect(wire, 'first-password-1')).rejects.toThrow(/password authentication failed/)
    expect((await (await connect(wire, 'second-password-2')).query('select count(*)::int as n from pans')).rows).toEqual([{ n: 1 }])
  }
}, 60_000)

it('a listener killed without closing stops counting toward the limit once its store entry expires', async () => {
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => {})))
  await expect.poll(() => clientsCounted(), { timeout: 20_000 }).toBe(0)
  // On its own (the first test sets the same password and makes the table): what this one reads.
  expect((await setPassword(a, cookieA, 'second-password-2')).status).toBe(200)
  await (await connect(wireA, 'second-password-2')).query('create table if not exists pans (id int primary key, name text)')
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => {})))
  await expect.poll(() => clientsCounted(), { timeout: 20_000 }).toBe(0)

  // A third listener (on PostgreSQL: of the second server, with its own store pool) whose process will die.
  // Each listener is a process entry of its own (besides, on PostgreSQL, each server's realtime entry).
  const listeners = async () => (await a.db.query<{ id: string }>(`select id from platform_processes where id like 'wire:%'`)).rows.map((r) => r.id)
  const before = new Set(await listeners())
  const doomed = mortal((b ?? a).db)
  const wireC = await listen(b ?? a, doomed.db)
  const listenerC = (await listeners()).find((id) => !before.has(id))
  expect(listenerC).toBeDefined()
  const onC = await Promise.all(Array.from({ length: LIMIT }, () => connect(wireC, 'second-password-2')))
  expect((await onC[0].query(`select to_regclass('pans') is not null as made`)).rows).toEqual([{ made: true }])
  await expect(connect(wireA, 'second-password-2')).rejects.toMatchObject({ code: '53300' })

  // Killed: its clients lose their connections, and nothing it would have told the store gets there.
  doomed.kill()
  await wireC.close()
  expect(await clientsCounted(listenerC)).toBe(LIMIT)

  // Past the expiry the other listeners take the project's LIMIT clients again, and no more: the dead listener's
  // slots are not freed (its counts are still in the store), they just stop counting.
  await expect
    .poll(() => connect(wireA, 'second-password-2').then(() => 'connected', (err: Error) => err.message), { timeout: 30_000, interval: 200 })
    .toBe('connected')
  await connect(wireB, 'second-password-2')
  await connect(wireA, 'second-password-2')
  await expect(connect(wireB, 'second-password-2')).rejects.toMatchObject({ code: '53300' })
  expect(await clientsCounted(listenerC)).toBe(LIMIT)
}, 60_000)
