/**
 * The Postgres port: `pg` (node-postgres) and Debian's `psql` reach a project's database with the password set by the
 * Management API, over SCRAM-SHA-256, and run DDL, DML, extended-protocol queries and a rolled-back transaction; two
 * clients at once each see their own work. TLS is declined with 'N'; a wrong password, an unknown ref, a paused
 * project and one connection too many are refused with the Postgres errors a client prints.
 */
import { execFile } from 'node:child_process'
import net from 'node:net'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { OWNER, READONLY, projectByName, startTestServer, type TestServer } from './helpers'

const run = promisify(execFile)
const PSQL = '/usr/lib/postgresql/15/bin/psql'
const PASSWORD = 'wire-test-password-1'
const MAX_CLIENTS = 4

let s: TestServer
let wire: WireServer
let ref: string

const url = (password = PASSWORD, user = `postgres.${ref}`) =>
  `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${wire.port}/postgres`

async function client(connectionString = url()): Promise<pg.Client> {
  const c = new pg.Client({ connectionString })
  await c.connect()
  return c
}

async function refusal(connectionString: string): Promise<string> {
  const c = new pg.Client({ connectionString })
  try {
    await c.connect()
  } catch (err) {
    return (err as Error).message
  } finally {
    await c.end().catch(() => {})
  }
  throw new Error('the connection was accepted')
}

async function setPassword(password: string, who = OWNER) {
  return s.request(`/v1/projects/${ref}/database/password`, {
    method: 'PATCH',
    headers: { cookie: await s.signIn(who), 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  })
}

beforeAll(async () => {
  s = await startTestServer()
  ref = (await projectByName(s, 'Recipe Box')).ref
  wire = await startWireServer({
    db: s.db,
    projectDbs: s.projectDbs,
    config: { ...s.config, wire: { ...s.config.wire, port: 0, maxClientsPerProject: MAX_CLIENTS } },
  })
  const res = await setPassword(PASSWORD)
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ message: 'Database password updated' })
}, 120_000)

afterAll(async () => {
  await wire?.close()
  await s?.close()
})

describe('pg (node-postgres)', () => {
  it('runs DDL, DML and extended-protocol queries as the project owner, never a superuser', async () => {
    const c = await client()
    try {
      await c.query('create table wire_notes (id serial primary key, body text not null)')
      await c.query('insert into wire_notes (body) values ($1), ($2)', ['one', 'two'])
      const { rows } = await c.query('select body from wire_notes where id > $1 order by id', [0])
      expect(rows).toEqual([{ body: 'one' }, { body: 'two' }])
      // The demo schema is there: this is the project's own database.
      const recipes = await c.query<{ n: string }>('select count(*)::text as n from recipes')
      expect(Number(recipes.rows[0].n)).toBeGreaterThan(0)
      const who = await c.query<{ su: boolean }>('select rolsuper as su from pg_roles where rolname = current_user')
      expect(who.rows[0].su).toBe(false)
      await expect(c.query(`select pg_read_file('/etc/passwd')`)).rejects.toThrow(/permission denied/)
      // The platform's own tables are not in reach (its store is another database, or another engine).
      await expect(c.query('select count(*) from accounts')).rejects.toThrow(/does not exist/)
      // After an error the session goes on.
      expect((await c.query('select 1 as one')).rows).toEqual([{ one: 1 }])
    } finally {
      await c.end()
    }
  }, 60_000)

  it('rolls a transaction back; two clients at once each keep their own work', async () => {
    const a = await client()
    const b = await client()
    try {
      await a.query('create table wire_tx (v int)')
      await a.query('begin')
      await a.query('insert into wire_tx values (1)')
      // b's statements run while a's transaction is open (on PGlite after it: a's transaction is never interleaved).
      const fromB = b.query('insert into wire_tx values (2)').then(() => b.query<{ v: number }>('select v from wire_tx order by v'))
      await a.query('insert into wire_tx values (3)')
      await a.query('rollback')
      expect((await fromB).rows.map((r) => r.v)).toEqual([2])
      expect((await a.query<{ v: number }>('select v from wire_tx order by v')).rows.map((r) => r.v)).toEqual([2])
    } finally {
      await a.end()
      await b.end()
    }
  }, 60_000)

  it('refuses a wrong password, an unknown ref, a paused project and one connection too many', async () => {
    expect(await refusal(url('not-the-password'))).toMatch(/password authentication failed/)
    expect(await refusal(url(PASSWORD, 'postgres.aaaaaaaaaaaaaaaaaaaa'))).toBe('Tenant or user not found')
    expect(await refusal(url(PASSWORD, 'postgres'))).toMatch(/names no project/)

    const open = await Promise.all(Array.from({ length: MAX_CLIENTS }, () => client()))
    try {
      expect(await refusal(url())).toMatch(/too many connections for project/)
    } finally {
      await Promise.all(open.map((c) => c.end()))
    }

    await s.db.query(`update projects set status = 'INACTIVE' where ref = $1`, [ref])
    try {
      expect(await refusal(url())).toBe('project is paused')
    } finally {
      await s.db.query(`update projects set status = 'ACTIVE_HEALTHY' where ref = $1`, [ref])
    }
  }, 60_000)

  it('a password reset takes effect at once; a Read-only member may not reset it', async () => {
    expect((await setPassword('another-one', READONLY)).status).toBe(403)
    expect((await setPassword('abc')).status).toBe(400)
    expect((await setPassword('new-password-2')).status).toBe(200)
    try {
      expect(await refusal(url())).toMatch(/password authentication failed/)
      const c = await client(url('new-password-2'))
      await c.end()
    } finally {
      expect((await setPassword(PASSWORD)).status).toBe(200)
    }
  }, 60_000)

  it("declines TLS with 'N', so a client that prefers it falls back", async () => {
    const socket = net.connect(wire.port, '127.0.0.1')
    await new Promise((r) => socket.once('connect', r))
    const request = Buffer.alloc(8)
    request.writeInt32BE(8, 0)
    request.writeInt32BE(80877103, 4)
    socket.write(request)
    const answer = await new Promise<Buffer>((r) => socket.once('data', r))
    socket.destroy()
    expect(answer.toString('latin1')).toBe('N')
    const { stdout } = await run(PSQL, [`${url()}?sslmode=prefer`, '-At', '-c', 'select 41 + 1'], { env: { PATH: process.env.PATH } })
    expect(stdout.trim()).toBe('42')
  }, 60_000)
})

describe('psql', () => {
  it('runs DDL, DML and a rolled-back transaction with the connection string', async () => {
    // One -c each: psql sends them as separate queries (one query holding BEGIN would make its earlier statements
    // part of the transaction).
    const script = [
      'create table wire_psql (id int primary key, name text)',
      "insert into wire_psql values (1, 'kept')",
      'begin',
      "insert into wire_psql values (2, 'rolled back')",
      'rollback',
      'select id, name from wire_psql order by id',
    ].flatMap((sql) => ['-c', sql])
    const { stdout } = await run(PSQL, [url(), '-X', '-At', '-v', 'ON_ERROR_STOP=1', ...script], { env: { PATH: process.env.PATH } })
    expect(stdout.trim().split('\n').at(-1)).toBe('1|kept')
    const wrong = await run(PSQL, [url('wrong'), '-X', '-At', '-c', 'select 1'], { env: { PATH: process.env.PATH } }).catch((e: { stderr: string }) => e)
    expect((wrong as { stderr: string }).stderr).toMatch(/password authentication failed/)
  }, 60_000)
})
