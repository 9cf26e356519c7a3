/**
 * The gateway in front of every project's API (/p/{ref}/{product}/v1): it resolves the project once, refuses an
 * unknown one or one that is not serving, verifies the key and hands the caller to the product; a product only says
 * whether a request without a key may reach it, and words refusals in its own shape. Each request passes the
 * gateway once, and every request that reaches a known project is metered, refusals included.
 */
import { Hono } from 'hono'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { initialOwnUrl } from '../../src/server/core/http'
import type { RequestSample, UsageMeter } from '../../src/server/core/meter'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { gatewayRoutes, type GatewayEnv, type Product } from '../../src/server/gateway'
import { projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let ref: string
let keys: { anon: string; service: string; secret: string }
let app: Hono<GatewayEnv>
let samples: RequestSample[]
let passes: number

/** A product that answers who called it, with keys optional, and words refusals as `{ refused: reason }`. */
function probe(name: string, keysRule: Product['keys']): Product {
  const sub = new Hono<GatewayEnv>()
  sub.all('/*', async (c) => {
    passes++
    const { caller, project, projectUrl } = c.var.gateway
    const who = await c.var.gateway.transaction({ role: caller?.role ?? 'anon', claims: caller?.claims, readOnly: true }, (tx) =>
      tx.query<{ role: string; sub: string | null }>(`select current_user as role, current_setting('request.jwt.claims', true)::json->>'sub' as sub`),
    )
    return c.json({ caller: caller?.role ?? null, ref: project.ref, projectUrl, db: who.rows[0], path: c.req.path })
  })
  return { name, app: sub, keys: keysRule, refuse: (c, refusal) => c.json({ refused: refusal.reason }, refusal.status) }
}

const sign = (claims: Record<string, unknown>, secret = keys.secret) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(s.clock.epoch()).setExpirationTime(s.clock.epoch(3600)).sign(new TextEncoder().encode(secret))

beforeAll(async () => {
  s = await startTestServer()
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  const row = (await findProjectKeys(s.db, project.id))!
  keys = { anon: row.anon_key, service: row.service_role_key, secret: row.jwt_secret }
  samples = []
  const meter: UsageMeter = {
    record: (sample) => void samples.push(sample),
    flush: async () => {},
    measureDatabaseSizes: async () => {},
    stop: async () => {},
  }
  const deps = { db: s.db, config: s.config, clock: s.clock, lifecycle: s.lifecycle, latency: { ms: 0 }, ownUrl: initialOwnUrl(s.config), projectDbs: s.projectDbs, objects: s.objects }
  const linked = { ...probe('linked', 'required'), keyless: (method: string, path: string) => method === 'GET' && path === '/verify' }
  const socket = { ...probe('socket', 'required'), keyInQuery: true }
  const own = { ...probe('own', 'required'), servedWithoutApiServer: true }
  app = gatewayRoutes(deps, meter, [probe('open', 'optional'), probe('closed', 'required'), linked, socket, own])
}, 120_000)

afterAll(async () => {
  await s?.close()
})

const call = async (path: string, headers: Record<string, string> = {}) => {
  passes = 0
  samples.length = 0
  const res = await app.request(path, { headers })
  return { status: res.status, body: await res.json(), passes, samples: [...samples] }
}

describe('the gateway', () => {
  it('hands the product the caller, the project and its URL; the product runs as the caller role with its claims', async () => {
    const user = await sign({ role: 'authenticated', sub: 'user-1', ref })
    const res = await call(`/p/${ref}/closed/v1/things`, { apikey: keys.anon, authorization: `Bearer ${user}` })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      caller: 'authenticated',
      ref,
      projectUrl: `http://localhost/p/${ref}`,
      db: { role: 'authenticated', sub: 'user-1' },
      path: `/p/${ref}/closed/v1/things`,
    })
    expect(res.passes).toBe(1)
    expect(res.samples.map((x) => [x.ref, x.status])).toEqual([[ref, 200]])
  })

  it('passes once for the base path, with and without a trailing slash', async () => {
    for (const path of [`/p/${ref}/closed/v1`, `/p/${ref}/closed/v1/`]) {
      const res = await call(path, { apikey: keys.service })
      expect(res).toMatchObject({ status: 200, passes: 1, body: { caller: 'service_role' } })
      expect(res.samples).toHaveLength(1)
    }
  })

  it('lets a request without any key reach a product whose keys are optional, with no caller', async () => {
    const res = await call(`/p/${ref}/open/v1/public/thing`)
    expect(res).toMatchObject({ status: 200, passes: 1, body: { caller: null, db: { role: 'anon', sub: null } } })
  })

  it("lets a keyless request reach only the paths a product with required keys names as keyless; a key sent there is still verified", async () => {
    expect(await call(`/p/${ref}/linked/v1/verify`)).toMatchObject({ status: 200, passes: 1, body: { caller: null, path: `/p/${ref}/linked/v1/verify` } })
    expect((await app.request(`/p/${ref}/linked/v1/verify`, { method: 'POST' })).status).toBe(401)
    expect(await call(`/p/${ref}/linked/v1/user`)).toMatchObject({ status: 401, body: { refused: 'no_key' }, passes: 0 })
    expect(await call(`/p/${ref}/linked/v1/verify/more`)).toMatchObject({ status: 401, body: { refused: 'no_key' }, passes: 0 })
    const forged = await sign({ role: 'anon', ref }, 'not-the-secret-not-the-secret-not-the-secret')
    expect(await call(`/p/${ref}/linked/v1/verify`, { apikey: forged })).toMatchObject({ status: 401, body: { refused: 'invalid_token' }, passes: 0 })
  })

  it('refuses, in the product words, what it must: no key, a bad key, another project, an unknown or unavailable project', async () => {
    expect(await call(`/p/${ref}/closed/v1/x`)).toMatchObject({ status: 401, body: { refused: 'no_key' }, passes: 0 })
    const forged = await sign({ role: 'service_role', ref }, 'not-the-secret-not-the-secret-not-the-secret')
    const forgedCalls: Record<string, string>[] = [{ apikey: forged }, { apikey: keys.anon, authorization: `Bearer ${forged}` }]
    for (const headers of forgedCalls) {
      expect(await call(`/p/${ref}/open/v1/x`, headers)).toMatchObject({ status: 401, body: { refused: 'invalid_token' }, passes: 0 })
    }
    expect(await call(`/p/${ref}/open/v1/x`, { authorization: 'Basic abc' })).toMatchObject({ status: 401, body: { refused: 'bad_authorization_header' } })
    const other = await sign({ role: 'anon', ref: 'abcdefghijabcdefghij' })
    expect(await call(`/p/${ref}/closed/v1/x`, { apikey: other })).toMatchObject({ status: 401, body: { refused: 'other_project' } })
    const admin = await sign({ role: 'postgres', ref })
    expect(await call(`/p/${ref}/closed/v1/x`, { apikey: admin })).toMatchObject({ status: 401, body: { refused: 'bad_role' } })
    const expired = await new SignJWT({ role: 'anon', ref }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(1_000).setExpirationTime(2_000).sign(new TextEncoder().encode(keys.secret))
    expect(await call(`/p/${ref}/closed/v1/x`, { apikey: expired })).toMatchObject({ status: 401, body: { refused: 'token_expired' } })
    const unknown = await call(`/p/zzzzzzzzzzzzzzzzzzzz/closed/v1/x`, { apikey: keys.anon })
    expect(unknown).toMatchObject({ status: 404, body: { refused: 'project_not_found' }, passes: 0, samples: [] })
    expect(await call(`/p/NOT-A-REF/closed/v1/x`, { apikey: keys.anon })).toMatchObject({ status: 404, body: { refused: 'project_not_found' } })

    await s.db.query(`update projects set postgrest_status = 'OFFLINE' where ref = $1`, [ref])
    try {
      const offline = await call(`/p/${ref}/open/v1/x`, { apikey: keys.anon })
      expect(offline).toMatchObject({ status: 503, body: { refused: 'project_unavailable' }, passes: 0 })
      // A product that is a service of its own keeps serving, keys still verified; a project not ACTIVE_HEALTHY stays refused.
      expect(await call(`/p/${ref}/own/v1/x`, { apikey: keys.anon })).toMatchObject({ status: 200, body: { caller: 'anon', ref }, passes: 1 })
      expect(await call(`/p/${ref}/own/v1/x`)).toMatchObject({ status: 401, body: { refused: 'no_key' }, passes: 0 })
      await s.db.query(`update projects set status = 'PAUSING' where ref = $1`, [ref])
      expect(await call(`/p/${ref}/own/v1/x`, { apikey: keys.anon })).toMatchObject({ status: 503, body: { refused: 'project_unavailable' }, passes: 0 })
    } finally {
      await s.db.query(`update projects set status = 'ACTIVE_HEALTHY' where ref = $1`, [ref])
      await s.db.query(`update projects set postgrest_status = 'ONLINE' where ref = $1`, [ref])
    }
  })

  it("meters a refusal of a known project with the refusal's status and size", async () => {
    const res = await call(`/p/${ref}/closed/v1/x?apikey=abc`)
    expect(res.status).toBe(401)
    expect(res.samples.map((x) => [x.status, x.bytes])).toEqual([[401, Buffer.byteLength(JSON.stringify({ refused: 'no_key' }))]])
  })

  it('takes the key from the apikey query parameter only for a product that asks for it, and verifies it as any key', async () => {
    const q = (key: string) => `?apikey=${encodeURIComponent(key)}&vsn=2.0.0`
    expect(await call(`/p/${ref}/socket/v1/websocket${q(keys.anon)}`)).toMatchObject({ status: 200, body: { caller: 'anon', db: { role: 'anon' } }, passes: 1 })
    expect(await call(`/p/${ref}/closed/v1/websocket${q(keys.anon)}`)).toMatchObject({ status: 401, body: { refused: 'no_key' }, passes: 0 })
    const forged = await sign({ role: 'service_role', ref }, 'not-the-secret-not-the-secret-not-the-secret')
    expect(await call(`/p/${ref}/socket/v1/websocket${q(forged)}`)).toMatchObject({ status: 401, body: { refused: 'invalid_token' }, passes: 0 })
    // The header wins over the query: a good key in the URL does not rescue a bad one in the header.
    expect(await call(`/p/${ref}/socket/v1/websocket${q(keys.anon)}`, { apikey: forged })).toMatchObject({ status: 401, body: { refused: 'invalid_token' } })
    expect(await call(`/p/${ref}/socket/v1/websocket${q(keys.service)}`)).toMatchObject({ status: 200, body: { caller: 'service_role' } })
  })
})
