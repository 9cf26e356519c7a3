/**
 * The server's logs never print a JWT or a key: the request log (features/usage) masks query parameters named like
 * secrets and any JWT- or token-shaped text in a path, a value or a name; LOG_REQUESTS=1's line per request, the
 * error handler's line and the lifecycle engine's log mask them too.
 */
import { Hono } from 'hono'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RequestLogResponse } from '../../src/contracts/measured'
import { onError } from '../../src/server/core/defences'
import type { AppEnv } from '../../src/server/core/http'
import { redactSecrets } from '../../src/server/core/redact'
import { createEngine, scheduleTransition } from '../../src/server/engine/lifecycle'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { loggablePath } from '../../src/server/core/meter'
import { OWNER, projectByName, startTestServer, type TestServer } from './helpers'

/** A JWT of the projects' shape (HS256 header, a payload, a signature). */
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiIsImlzcyI6InN1cGFiYXNlIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'
const ACCESS_TOKEN = `sbp_${'0123456789abcdef'.repeat(2)}01234567`
const path = (p: string) => loggablePath(new URL(`http://x/p/abcdefghijabcdefghij${p}`))

describe('the request log’s path (loggablePath)', () => {
  it('masks the values of parameters whose names contain key, token, secret, password, auth or signature', () => {
    const names = ['x-api-key', 'AccessToken', 'client_secret', 'user_Password', 'auth_code', 'X-Amz-Signature', 'jwt', 'refresh_token']
    const query = names.map((n) => `${n}=plain-value`).join('&')
    expect(path(`/rest/v1/t?select=a&${query}`)).toBe(`/rest/v1/t?select=a&${names.map((n) => `${n}=[redacted]`).join('&')}`)
    expect(path('/rest/v1/t?apikey=k&select=title&order=created_at.desc')).toBe('/rest/v1/t?select=title&order=created_at.desc')
  })

  it('masks a JWT or an access token wherever it is: a value, a name, the path, percent-encoded', () => {
    for (const p of [
      `/rest/v1/t?next=${JWT}`,
      `/rest/v1/t?${JWT}=1`,
      `/rest/v1/rpc/f/${JWT}`,
      `/rest/v1/t?note=${JWT.replace(/\./g, '%2E')}`,
      `/rest/v1/rpc/f/${JWT.replace(/\./g, '%2E')}`,
      `/rest/v1/t?select=a&v=Bearer%20${JWT}`,
      `/rest/v1/t?x=${ACCESS_TOKEN}`,
    ]) {
      const kept = path(p)
      expect(kept).toContain('[redacted]')
      expect(kept).not.toMatch(/eyJ|sbp_/)
      expect(kept).not.toContain(JWT.split('.')[2])
    }
  })

  it('masks before cutting to length, so no part of a token is kept', () => {
    const kept = path(`/rest/v1/t?select=${'a'.repeat(970)}&v=${JWT}`)
    expect(kept).toHaveLength(1_000)
    expect(kept).not.toMatch(/eyJ/)
  })

  it('keeps dotted values that are no token', () => {
    expect(redactSecrets('/rest/v1/t?order=created_at.desc.nullslast&file=index.min.js')).toBe(
      '/rest/v1/t?order=created_at.desc.nullslast&file=index.min.js',
    )
  })
})

describe('through the running server', () => {
  let s: TestServer
  let logged: string[]

  beforeAll(async () => {
    s = await startTestServer({ config: { logRequests: true, usageFlushMs: 0 } })
  }, 120_000)
  afterAll(async () => {
    await s?.close()
  })
  afterEach(() => vi.restoreAllMocks())

  const capture = () => {
    logged = []
    const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
    vi.spyOn(console, 'log').mockImplementation(keep)
    vi.spyOn(console, 'error').mockImplementation(keep)
  }

  it('the request log of a project keeps no key from the path or query', async () => {
    const recipes = await projectByName(s, 'Recipe Box')
    const anon = (await findProjectKeys(s.db, recipes.id))?.anon_key ?? ''
    expect(anon).toMatch(/^eyJ/)
    capture()
    const res = await s.request(`/p/${recipes.ref}/rest/v1/recipes?select=title&limit=1&title=neq.${anon}`, { headers: { apikey: anon } })
    expect(res.status).toBe(200)
    await s.request(`/p/${recipes.ref}/rest/v1/recipes?select=title&access_token=${anon}`, { headers: { apikey: anon } })
    await s.request(`/p/${recipes.ref}/rest/v1/${anon}?select=title`, { headers: { apikey: anon } })
    const owner = await s.signIn(OWNER)
    const log = await s.request(`/platform/projects/${recipes.ref}/logs/requests`, { headers: { cookie: owner } })
    const text = await log.text()
    const paths = RequestLogResponse.parse(JSON.parse(text)).entries.map((e) => e.path)
    expect(paths).toContain('/rest/v1/recipes?select=title&limit=1&title=neq.[redacted]')
    expect(paths).toContain('/rest/v1/recipes?select=title&access_token=[redacted]')
    expect(paths).toContain('/rest/v1/[redacted]?select=title')
    expect(text).not.toContain(anon.split('.')[2])
    // LOG_REQUESTS=1: one line per request, none with the key.
    expect(logged.some((line) => line.includes(`/p/${recipes.ref}/rest/v1/[redacted] 4`))).toBe(true)
    expect(logged.join('\n')).not.toMatch(/eyJ/)
  })

  it('LOG_REQUESTS=1 masks a token in any path', async () => {
    capture()
    await s.request(`/platform/confirm/${JWT}`)
    await s.request(`/v1/tokens/${ACCESS_TOKEN}`)
    expect(logged, logged.join('\n')).toEqual([expect.stringMatching(/^GET \/platform\/confirm\/\[redacted\] 401 \d+ms$/), expect.stringMatching(/^GET \/v1\/tokens\/\[redacted\] 401 \d+ms$/)])
  })

  it('the error handler’s line masks a token in the path and in the error', async () => {
    capture()
    const app = new Hono<AppEnv>()
    app.onError(onError)
    app.get('/boom/:token', (c) => {
      throw new Error(`could not verify ${c.req.param('token')}`)
    })
    const res = await app.request(`/boom/${JWT}`)
    expect(res.status).toBe(500)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatch(/^GET \/boom\/\[redacted\] failed: Error: could not verify \[redacted\]/)
    expect(logged[0]).not.toMatch(/eyJ/)
  })

  it('the lifecycle engine’s log (and the outcome it records) masks a token in a transition’s error', async () => {
    capture()
    const { id } = await projectByName(s, 'Recipe Box')
    const engine = createEngine({
      db: s.db,
      clock: s.clock,
      tickMs: 1_000,
      lifecycle: {
        handlerFor: (kind) => (kind === 'test.leaky' ? async () => Promise.reject(new Error(`the key ${JWT} was refused`)) : undefined),
      },
    })
    const now = s.clock.now()
    await s.db.transaction((tx) => scheduleTransition(tx, id, 'test.leaky', {}, now, now))
    await engine.runDue()
    await engine.stop()
    const line = logged.find((l) => l.includes('test.leaky'))
    expect(line).toMatch(/failed: the key \[redacted\] was refused$/)
    const { rows } = await s.db.query<{ outcome: string }>(`select outcome from lifecycle_transitions where kind = 'test.leaky'`)
    expect(rows).toEqual([{ outcome: 'error: the key [redacted] was refused' }])
  })
})
