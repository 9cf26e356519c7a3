/**
 * 200 connections at once to the Postgres port, on both stores: all 200 authenticate and query, the 201st is refused
 * with the Postgres error a client prints (the per-project limit), and the dashboard's status API answers throughout.
 * Once they leave, their slots are free again. (The status API's p99 during such a flood: bench/wire.bench.ts.)
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { OWNER, projectByName, startTestServer, type TestServer } from './helpers'

const PASSWORD = 'flood-password-1'
const LIMIT = 200

let s: TestServer
let wire: WireServer
let ref: string
let cookie: string

const options = () => ({ host: '127.0.0.1', port: wire.port, user: `postgres.${ref}`, password: PASSWORD, database: 'postgres' })

beforeAll(async () => {
  s = await startTestServer()
  ref = (await projectByName(s, 'Recipe Box')).ref
  cookie = await s.signIn(OWNER)
  wire = await startWireServer({
    db: s.db,
    projectDbs: s.projectDbs,
    // Each client's first query waits its turn behind the others' (PGlite serves one at a time, and the session's
    // state is discarded between clients): the queue's bound is set for 200 turns on this shared machine.
    config: { ...s.config, wire: { ...s.config.wire, port: 0, maxClientsPerProject: LIMIT, queueWaitMs: 60_000 } },
  })
  const res = await s.request(`/v1/projects/${ref}/database/password`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  expect(res.status).toBe(200)
}, 120_000)

afterAll(async () => {
  await wire?.close()
  await s?.close()
})

describe('200 connections at once', () => {
  it('are all served, the 201st is refused with a Postgres error, and the status API answers meanwhile', async () => {
    const status = () => s.request(`/platform/projects/${ref}/status`, { headers: { cookie } })
    const clients: pg.Client[] = []
    try {
      // Every connection starts at once; the status API is asked while they authenticate and query.
      const opening = Array.from({ length: LIMIT }, async () => {
        const c = new pg.Client(options())
        c.on('error', () => {})
        clients.push(c)
        await c.connect()
        return (await c.query<{ n: number }>('select 1 as n')).rows[0].n
      })
      const duringStatus = await status()
      expect(duringStatus.status).toBe(200)
      expect(await Promise.all(opening)).toEqual(Array(LIMIT).fill(1))

      const extra = new pg.Client(options())
      extra.on('error', () => {})
      const refused = await extra.connect().then(
        () => 'connected',
        (err: Error & { code?: string }) => `${err.code}: ${err.message}`,
      )
      await extra.end().catch(() => {})
      expect(refused).toBe(`53300: too many connections for project ${ref} (at most ${LIMIT})`)

      const whileFull = await status()
      expect(whileFull.status).toBe(200)
      expect(await whileFull.json()).toMatchObject({ status: 'ACTIVE_HEALTHY' })
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => {})))
    }

    // The slots are given back as the clients leave: a new client connects once the count has dropped.
    let again: string | undefined
    for (let tries = 0; again !== 'connected' && tries < 200; tries++) {
      const c = new pg.Client(options())
      c.on('error', () => {})
      again = await c.connect().then(
        () => 'connected',
        (err: Error) => err.message,
      )
      await c.end().catch(() => {})
      if (again !== 'connected') await new Promise((r) => setImmediate(r))
    }
    expect(again).toBe('connected')
  }, 120_000)
})
