/**
 * The status poll answered on Node's request (src/server/features/projects/statusPoll.ts): it
 * may answer only when the app would give the same answer, and must give it byte for byte (headers but Date). Two
 * servers on the same app and store: one as start.ts serves (Node routes first), one with the app alone. Every case
 * sends the same request to both and compares; the cases where the Node route must answer count its answers, the
 * others check it left them to the app. A change in the store (status, membership, sign-out) shows on the next poll.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cacheFor } from '../../src/server/core/cache'
import { hostAllowed } from '../../src/server/core/guards'
import { middlewaresUnaccounted, STANDS_IN_FOR, statusPollOnNode, type NodeRoute } from '../../src/server/features/projects/statusPoll'
import { SESSION_TOUCH_MS } from '../../src/server/features/session/auth'
import { nodeServer } from '../../src/server/start'
import { DEVELOPER, OWNER, insertForeignOrganization, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let withRoutes: http.Server
let appOnly: http.Server
let answered = 0
let cookie: string
let ref: string

const listen = (server: http.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
let fastPort: number
let appPort: number

beforeAll(async () => {
  s = await startTestServer()
  // The Node route answers only once the store delivers change notifications (src/server/core/cache.ts): on
  // PostgreSQL the listening connection opens after the app starts, and on a busy machine after the first polls.
  await vi.waitFor(() => expect(cacheFor(s.db)?.enabled).toBe(true), { timeout: 10_000 })
  const counted: NodeRoute[] = s.nodeRoutes.map((route) => (req, res) => {
    const done = route(req, res)
    if (done) answered++
    return done
  })
  withRoutes = nodeServer({ app: s.app, nodeRoutes: counted }, '127.0.0.1')
  appOnly = nodeServer({ app: s.app, nodeRoutes: [] }, '127.0.0.1')
  fastPort = await listen(withRoutes)
  appPort = await listen(appOnly)
  cookie = await s.signIn(OWNER)
  ref = (await projectByName(s, 'Recipe Box')).ref
})
afterAll(async () => {
  await Promise.all([withRoutes, appOnly].map((srv) => new Promise((resolve) => srv.close(resolve))))
  await s?.close()
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(port: number, path: string, headers: Record<string, string | number> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } })
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers
        resolve({ status: res.statusCode ?? 0, headers: rest, body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** The same request to both servers (the Host header names each server's own port, as a browser's would). */
async function both(path: string, headers: Record<string, string | number> = {}, host?: (port: number) => string) {
  const before = answered
  const viaApp = await get(appPort, path, host ? { ...headers, host: host(appPort) } : headers)
  const viaNode = await get(fastPort, path, host ? { ...headers, host: host(fastPort) } : headers)
  return { viaApp, viaNode, nodeAnswered: answered - before }
}

const statusPath = (r: string) => `/platform/projects/${r}/status`

describe('the status poll on Node', () => {
  it('answers a member poll from memory with exactly the app answer (status, headers, body)', async () => {
    await get(appPort, statusPath(ref), { cookie }) // fills the cache
    const { viaApp, viaNode, nodeAnswered } = await both(statusPath(ref), { cookie })
    expect(nodeAnswered).toBe(1)
    expect(viaApp.status).toBe(200)
    expect(JSON.parse(viaApp.body)).toEqual({ status: 'ACTIVE_HEALTHY' })
    expect(viaNode).toEqual(viaApp)
    expect(viaNode.headers['cache-control']).toBe('no-store')
    expect(viaNode.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  })

  it('shows a status change made in the store on the very next poll', async () => {
    const { ref: own } = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Poll me', status: 'ACTIVE_HEALTHY' })).then((r) => r.json() as Promise<{ ref: string }>)
    await get(fastPort, statusPath(own), { cookie })
    expect((await both(statusPath(own), { cookie })).nodeAnswered).toBe(1)
    expect((await s.request(`/dev/projects/${own}/status`, json({ status: 'INACTIVE' }))).status).toBe(200)
    const first = await get(fastPort, statusPath(own), { cookie })
    expect(JSON.parse(first.body)).toEqual({ status: 'INACTIVE' })
    const { viaApp, viaNode } = await both(statusPath(own), { cookie })
    expect(viaNode).toEqual(viaApp)
  })

  it('a signed-out session is 401 on the next poll, from the app', async () => {
    const own = await s.signIn(OWNER)
    await get(fastPort, statusPath(ref), { cookie: own })
    expect((await both(statusPath(ref), { cookie: own })).nodeAnswered).toBe(1)
    expect((await s.request('/platform/auth/sign-out', { method: 'POST', headers: { cookie: own } })).status).toBe(204)
    const { viaApp, viaNode, nodeAnswered } = await both(statusPath(ref), { cookie: own })
    expect(nodeAnswered).toBe(0)
    expect(viaNode.status).toBe(401)
    expect(viaNode).toEqual(viaApp)
  })

  it('a member removed from the organization gets 404 on the next poll', async () => {
    const developer = await s.signIn(DEVELOPER)
    const dev = await s.request('/dev/projects', json({ organization_slug: 'demo-free', name: 'Leaving', status: 'ACTIVE_HEALTHY' })).then((r) => r.json() as Promise<{ ref: string }>)
    await get(fastPort, statusPath(dev.ref), { cookie: developer })
    expect((await both(statusPath(dev.ref), { cookie: developer })).nodeAnswered).toBe(1)
    await s.db.query(
      `delete from members where account_id = (select id from accounts where primary_email = $1)
         and organization_id = (select id from organizations where slug = 'demo-free')`,
      [DEVELOPER],
    )
    const { viaApp, viaNode, nodeAnswered } = await both(statusPath(dev.ref), { cookie: developer })
    expect(nodeAnswered).toBe(0)
    expect(viaNode.status).toBe(404)
    expect(viaNode).toEqual(viaApp)
  })

  it.each([
    ['no session cookie', statusPath('REF'), {}],
    ['a cookie that is no session', statusPath('REF'), { cookie: 'kp_session=not-a-session' }],
    ['a query string', `${statusPath('REF')}?x=1`, 'cookie'],
    ['a NUL in the query', `${statusPath('REF')}?x=%00`, 'cookie'],
    ['a ref that is no ref', statusPath('Not-A-Ref'), 'cookie'],
    ['an unknown ref', statusPath('qqqqqqqqqqqqqqqqqqqq'), 'cookie'],
    ['a GET with a body', statusPath('REF'), 'cookie+body'],
  ] as const)('leaves %s to the app, which answers the same on both', async (_, path, headers) => {
    const h: Record<string, string | number> =
      headers === 'cookie' ? { cookie } : headers === 'cookie+body' ? { cookie, 'transfer-encoding': 'chunked' } : headers
    const p = path.replace('REF', ref)
    const { viaApp, viaNode, nodeAnswered } = await both(p, h)
    expect(nodeAnswered).toBe(0)
    expect(viaNode).toEqual(viaApp)
  })

  it("leaves another organization's project to the app: 404, the same on both", async () => {
    const foreign = await insertForeignOrganization(s.db)
    await get(fastPort, statusPath(foreign.ref), { cookie })
    const { viaApp, viaNode, nodeAnswered } = await both(statusPath(foreign.ref), { cookie })
    expect(nodeAnswered).toBe(0)
    expect(viaNode.status).toBe(404)
    expect(viaNode).toEqual(viaApp)
  })

  it('leaves a DNS-rebound Host to the app: 421', async () => {
    const { viaApp, viaNode, nodeAnswered } = await both(statusPath(ref), { cookie }, (port) => `rebind.attacker.example:${port}`)
    expect(nodeAnswered).toBe(0)
    expect(viaNode.status).toBe(421)
    expect(viaNode).toEqual(viaApp)
  })

  it('leaves polls to the app while the development latency is set', async () => {
    await get(fastPort, statusPath(ref), { cookie })
    expect((await s.request('/dev/latency', json({ ms: 1 }))).status).toBe(200)
    try {
      expect((await both(statusPath(ref), { cookie })).nodeAnswered).toBe(0)
    } finally {
      await s.request('/dev/latency', json({ ms: 0 }))
    }
    expect((await both(statusPath(ref), { cookie })).nodeAnswered).toBe(1)
  })

  it("leaves a session's once-a-minute touch to the app, which records the last use", async () => {
    const own = await s.signIn(OWNER)
    await get(fastPort, statusPath(ref), { cookie: own })
    expect((await both(statusPath(ref), { cookie: own })).nodeAnswered).toBe(1)
    const lastUse = async () =>
      new Date(
        (await s.db.query<{ last_used_at: string }>('select last_used_at from sessions order by id desc limit 1')).rows[0]
          .last_used_at,
      ).getTime()
    const before = await lastUse()
    s.clock.advance(SESSION_TOUCH_MS)
    const first = await get(fastPort, statusPath(ref), { cookie: own })
    expect(first.status).toBe(200)
    expect(await lastUse()).toBe(before + SESSION_TOUCH_MS)
    expect((await both(statusPath(ref), { cookie: own })).nodeAnswered).toBe(1)
  })
})

describe("the status poll on Node and the app's middlewares", () => {
  const declared = STANDS_IN_FOR.map(([middleware]) => {
    const [name, path] = middleware.split(' ')
    return { name, path }
  })

  /** One member poll straight to a Node route made with `middlewares`: whether it answered. */
  async function answers(middlewares: { name: string; path: string }[]) {
    const route = await statusPollOnNode({ ...s, latency: { ms: 0 } }, hostAllowed(s.config), middlewares)
    await get(appPort, statusPath(ref), { cookie }) // fills the cache
    const host = `127.0.0.1:${appPort}`
    const req = { method: 'GET', url: statusPath(ref), headers: { host, cookie } } as unknown as http.IncomingMessage
    const res = { writeHead: () => res, end: () => res } as unknown as http.ServerResponse
    return route(req, res)
  }

  it('stands in for exactly the middlewares the app declares, in their order', async () => {
    expect(middlewaresUnaccounted(declared)).toBeUndefined()
    expect(await answers(declared)).toBe(true)
  })

  it('refuses every poll when a middleware is added, removed or moved without it', async () => {
    const original = console.error
    const logged: string[] = []
    console.error = (msg: string) => void logged.push(msg)
    try {
      const added = [...declared.slice(0, 3), { name: 'rateLimit', path: '*' }, ...declared.slice(3)]
      expect(middlewaresUnaccounted(added)).toBe('added rateLimit *')
      expect(await answers(added)).toBe(false)
      expect(middlewaresUnaccounted(declared.slice(1))).toBe('removed customDomains *')
      expect(await answers(declared.slice(1))).toBe(false)
      const moved = [declared[1], declared[0], ...declared.slice(2)]
      expect(middlewaresUnaccounted(moved)).toBe('their order changed')
      expect(await answers(moved)).toBe(false)
    } finally {
      console.error = original
    }
    expect(logged).toHaveLength(3)
    expect(logged[0]).toMatch(/added rateLimit \*.*every poll goes through the app/)
  })
})
