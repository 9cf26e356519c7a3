/**
 * The Postgres port under COPY, cancel requests, time-outs and bad input, on both stores: COPY in and out with psql,
 * a client killed mid-COPY leaves nothing half-written, a cancel request stops the running statement (one naming
 * another session's key is ignored), a statement past the time-out is stopped and the next one works, and a start-up
 * packet that is garbage, too long, or never comes ends the connection with a clear error — the HTTP API unaffected.
 */
import { execFile, spawn } from 'node:child_process'
import net from 'node:net'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { OWNER, projectByName, startTestServer, type TestServer } from './helpers'

const run = promisify(execFile)
const PSQL = '/usr/lib/postgresql/15/bin/psql'
const PASSWORD = 'wire-input-password'
const QUERY_TIMEOUT_MS = 3_000
const STARTUP_TIMEOUT_MS = 400

let s: TestServer
let wire: WireServer
let ref: string

const url = () => `postgresql://postgres.${ref}:${PASSWORD}@127.0.0.1:${wire.port}/postgres`
const env = () => ({ PATH: process.env.PATH })

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url() })
  // A session the server ends is reported on the query; the client's own 'error' event would be unhandled.
  c.on('error', () => {})
  await c.connect()
  return c
}

/** Opens a raw connection, writes `bytes`, and collects what the server sends until it closes (or `ms` pass). */
function exchange(bytes: Buffer | undefined, ms = 5_000): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(wire.port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ data: Buffer.concat(chunks), closed: false })
    }, ms)
    socket.on('connect', () => bytes && socket.write(bytes))
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ data: Buffer.concat(chunks), closed: true })
    })
  })
}

/** The message of an ErrorResponse in the bytes (field 'M'). */
function errorMessage(data: Buffer): string | undefined {
  if (data[0] !== 'E'.charCodeAt(0)) return undefined
  const fields = data.subarray(5).toString('utf8').split('\0')
  return fields.find((f) => f.startsWith('M'))?.slice(1)
}

function cancelRequest(pid: number, key: number): Buffer {
  const b = Buffer.alloc(16)
  b.writeInt32BE(16, 0)
  b.writeInt32BE(80877102, 4)
  b.writeInt32BE(pid, 8)
  b.writeInt32BE(key, 12)
  return b
}

beforeAll(async () => {
  s = await startTestServer({ config: { projectDb: { queryTimeoutMs: QUERY_TIMEOUT_MS } } })
  ref = (await projectByName(s, 'Recipe Box')).ref
  wire = await startWireServer({
    db: s.db,
    projectDbs: s.projectDbs,
    config: { ...s.config, wire: { ...s.config.wire, port: 0, startupTimeoutMs: STARTUP_TIMEOUT_MS, maxMessageBytes: 1024 * 1024 } },
  })
  const res = await s.request(`/v1/projects/${ref}/database/password`, {
    method: 'PATCH',
    headers: { cookie: await s.signIn(OWNER), 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  expect(res.status).toBe(200)
  const c = await client()
  await c.query('create table wire_copy (id int primary key, name text not null)')
  await c.end()
}, 120_000)

afterAll(async () => {
  await wire?.close()
  await s?.close()
})

describe('COPY', () => {
  it('copies rows in from psql and out again', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `${i + 1}\tname ${i + 1}`).join('\n')
    await new Promise<void>((resolve, reject) => {
      const p = spawn(PSQL, [url(), '-X', '-v', 'ON_ERROR_STOP=1', '-c', 'copy wire_copy from stdin'], { env: env() })
      let err = ''
      p.stderr.on('data', (d) => (err += d))
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(err))))
      p.stdin.end(`${rows}\n\\.\n`)
    })
    const { stdout } = await run(PSQL, [url(), '-X', '-c', 'copy (select * from wire_copy order by id) to stdout'], { env: env() })
    expect(stdout).toBe(`${rows}\n`)
  }, 60_000)

  it('a client killed mid-COPY leaves nothing half-written; the next client works', async () => {
    const p = spawn(PSQL, [url(), '-X', '-c', 'copy wire_copy from stdin'], { env: env() })
    p.stdin.write('1001\tpartial\n1002\tpartial\n')
    await new Promise((r) => setTimeout(r, 1_000))
    p.kill('SIGKILL')
    await new Promise((r) => p.on('exit', r))
    const c = await client()
    try {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from wire_copy where id > 1000')
      expect(rows[0].n).toBe(0)
      expect((await c.query<{ n: number }>('select count(*)::int as n from wire_copy')).rows[0].n).toBe(500)
    } finally {
      await c.end()
    }
  }, 60_000)
})

describe('cancel and time-out', () => {
  it('a cancel request stops the running statement and the session goes on; a wrong key is ignored', async () => {
    const c = await client()
    const { processID, secretKey } = c as unknown as { processID: number; secretKey: number }
    try {
      const slow = c.query('select pg_sleep(2.5)')
      await new Promise((r) => setTimeout(r, 400))
      // Another session's pid with a guessed key: ignored.
      await exchange(cancelRequest(processID, secretKey ^ 1), 1_000)
      await new Promise((r) => setTimeout(r, 200))
      await exchange(cancelRequest(processID, secretKey), 1_000)
      await expect(slow).rejects.toThrow(/canceling statement due to user request/)
      expect((await c.query('select 2 as two')).rows).toEqual([{ two: 2 }])
    } finally {
      await c.end()
    }
  }, 60_000)

  it('a wrong key alone leaves the statement running to its end', async () => {
    const c = await client()
    const { processID, secretKey } = c as unknown as { processID: number; secretKey: number }
    try {
      const slow = c.query('select pg_sleep(0.8) as slept')
      await new Promise((r) => setTimeout(r, 200))
      await exchange(cancelRequest(processID, secretKey ^ 1), 1_000)
      expect((await slow).rows).toHaveLength(1)
    } finally {
      await c.end()
    }
  }, 60_000)

  it('a statement past the time-out is stopped; the next one works', async () => {
    const c = await client()
    try {
      await expect(c.query(`select pg_sleep(${(QUERY_TIMEOUT_MS * 3) / 1000})`)).rejects.toThrow(/canceling statement due to statement timeout/)
      expect((await c.query('select 3 as three')).rows).toEqual([{ three: 3 }])
    } finally {
      await c.end()
    }
  }, 60_000)
})

describe('bad input', () => {
  it('garbage, a start-up packet too long and a client that never speaks end the connection; HTTP is unaffected', async () => {
    const garbage = await exchange(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(garbage.closed).toBe(true)
    expect(errorMessage(garbage.data)).toMatch(/invalid length of startup packet/)

    const huge = Buffer.alloc(8)
    huge.writeInt32BE(50 * 1024 * 1024, 0)
    huge.writeInt32BE(196608, 4)
    const tooLong = await exchange(huge)
    expect(tooLong.closed).toBe(true)
    expect(errorMessage(tooLong.data)).toMatch(/invalid length of startup packet/)

    const oldProtocol = Buffer.alloc(8)
    oldProtocol.writeInt32BE(8, 0)
    oldProtocol.writeInt32BE(2 << 16, 4)
    expect(errorMessage((await exchange(oldProtocol)).data)).toMatch(/unsupported frontend protocol 2\.0/)

    const started = Date.now()
    const silent = await exchange(undefined, 5_000)
    expect(silent.closed).toBe(true)
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(errorMessage(silent.data)).toMatch(/timeout/)

    // A message past the size bound after start-up ends that session only.
    const c = await client()
    await expect(c.query('select $1::text as t', ['x'.repeat(2 * 1024 * 1024)])).rejects.toThrow(/invalid message length|Connection terminated/)
    await c.end().catch(() => {})

    expect((await s.request('/platform/health')).status).toBeLessThan(500)
    const other = await client()
    expect((await other.query('select 4 as four')).rows).toEqual([{ four: 4 }])
    await other.end()
  }, 60_000)
})
