/**
 * The server's app-wide defences: the Host check and URLs that never come from
 * the Host header, the body limit (by Content-Length and while streaming), the CSRF exemption only for a bearer
 * token, JSON-or-no-body on writes, NUL characters refused, and the security headers. Requests go through
 * `app.request()`, and through a real port where a raw Host header or a body that never ends is the point.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '../../src/contracts/common'
import { Project } from '../../src/contracts/projects'
import { V1ProjectWithDatabase } from '../../src/contracts/v1'
import { createApp } from '../../src/server/app'
import { DEVELOPER, FakeClock, OWNER, json, projectByName, startTestServer, testConfig, type TestServer } from './helpers'

let s: TestServer
let cookie: string
let ref: string

beforeAll(async () => {
  s = await startTestServer()
  cookie = await s.signIn(OWNER)
  ref = (await projectByName(s, 'Recipe Box')).ref
})
afterAll(() => s.close())

async function messageOf(res: Response): Promise<string> {
  return ErrorBody.parse(await res.json()).message
}

/** A project of its own for a test that changes a project's state (pause, JWT rotation). */
async function activeProject(name: string): Promise<string> {
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name, status: 'ACTIVE_HEALTHY' }))
  expect(res.status).toBe(201)
  return Project.parse(await res.json()).ref
}

async function accessToken(): Promise<string> {
  const res = await s.request('/platform/profile/access-tokens', json({ name: 'defences' }, { cookie }))
  expect(res.status).toBe(201)
  return ((await res.json()) as { token: string }).token
}

/** One HTTP/1.1 exchange over a real socket, with headers fetch would not let a test choose (Host, chunked). */
function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string | number>; body?: (req: http.ClientRequest) => void },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers })
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      // The server may answer before the body is sent: stop sending and let the socket go.
      res.on('end', () => req.destroy())
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET after the answer has arrived is the server refusing the rest of the body.
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err)
    })
    if (opts.body) opts.body(req)
    else req.end()
  })
}

describe('only configured hosts are served', () => {
  let server: ReturnType<typeof serve>
  let port: number
  let listening: Awaited<ReturnType<typeof createApp>>

  beforeAll(async () => {
    listening = await createApp({
      db: s.db,
      config: testConfig({ allowedHosts: ['dashboard.internal', 'pinned.example:8443'] }),
      clock: new FakeClock(),
      seed: false,
    })
    server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const srv = serve({ fetch: listening.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
    })
    port = (server.address() as AddressInfo).port
    listening.listeningOn(`http://127.0.0.1:${port}`)
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await listening.close()
  })

  it('a DNS-rebound Host is answered 421 before sign-in, the API or the dashboard run', async () => {
    const rebound = `rebind.attacker.example:${port}`
    const signIn = await rawRequest(port, {
      method: 'POST',
      path: '/platform/auth/sign-in',
      headers: { host: rebound, origin: `http://${rebound}`, 'content-type': 'application/json' },
      body: (req) => req.end(JSON.stringify({ email: OWNER, password: 'demo1234' })),
    })
    expect(signIn.status).toBe(421)
    expect(signIn.headers['set-cookie']).toBeUndefined()
    expect(ErrorBody.parse(JSON.parse(signIn.body)).message).toMatch(/host/i)

    for (const path of ['/platform/health', '/', '/project/abc', `/platform/projects/${ref}`]) {
      const res = await rawRequest(port, { path, headers: { host: rebound, cookie } })
      expect(res.status, path).toBe(421)
    }
  })

  it('loopback names on any port, HOST, ALLOWED_HOSTS (any port, or the port given) are served', async () => {
    for (const host of [`localhost:${port}`, 'localhost', `127.0.0.1:${port}`, '[::1]:5173', 'LOCALHOST:1', 'dashboard.internal:9', 'pinned.example:8443']) {
      const res = await rawRequest(port, { path: '/platform/health', headers: { host } })
      expect(res.status, host).toBe(200)
    }
    for (const host of ['pinned.example:8444', 'pinned.example', 'localhost.attacker.example', '127.0.0.1.nip.io', 'evil.example']) {
      const res = await rawRequest(port, { path: '/platform/health', headers: { host } })
      expect(res.status, host).toBe(421)
    }
  })

  it("restUrl and the v1 database host come from the server's own address, never from the Host header", async () => {
    const res = await rawRequest(port, { path: `/platform/projects/${ref}`, headers: { host: 'dashboard.internal:9', cookie } })
    expect(res.status).toBe(200)
    expect(Project.parse(JSON.parse(res.body)).restUrl).toBe(`http://127.0.0.1:${port}/p/${ref}/rest/v1/`)

    const v1 = await rawRequest(port, { path: `/v1/projects/${ref}`, headers: { host: 'dashboard.internal', cookie } })
    expect(v1.status).toBe(200)
    expect(V1ProjectWithDatabase.parse(JSON.parse(v1.body)).database.host).toBe(`db.${ref}.localhost`)
  })

  it('PUBLIC_URL is served and is the base of every URL, whatever host the request used', async () => {
    const app = await createApp({
      db: s.db,
      config: testConfig({ publicUrl: 'https://platform.example.com' }),
      clock: new FakeClock(),
      seed: false,
    })
    try {
      app.listeningOn('http://127.0.0.1:1234')
      const own = await app.app.request('https://platform.example.com/platform/health')
      expect(own.status).toBe(200)
      const other = await app.app.request('https://platform.example.com:444/platform/health')
      expect(other.status).toBe(421)
      const project = await app.app.request(`http://localhost:5555/platform/projects/${ref}`, { headers: { cookie } })
      expect(Project.parse(await project.json()).restUrl).toBe(`https://platform.example.com/p/${ref}/rest/v1/`)
    } finally {
      await app.close()
    }
  })

  it('before it listens, an app builds URLs on http://localhost, not on the URL it was asked through', async () => {
    const res = await s.request(`http://localhost:9999/platform/projects/${ref}`, { headers: { cookie } })
    expect(Project.parse(await res.json()).restUrl).toBe(`http://localhost/p/${ref}/rest/v1/`)
  })
})

describe('bodies are limited before they are read', () => {
  let server: ReturnType<typeof serve>
  let port: number

  beforeAll(async () => {
    server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
    })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('a declared 100 MB body to the unauthenticated sign-in is refused 413 without waiting for it', async () => {
    // Only 1 KiB is ever sent: the answer can only come if the server decides on Content-Length alone.
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/platform/auth/sign-in',
      headers: { 'content-type': 'application/json', 'content-length': 100 * 1024 * 1024 },
      body: (req) => req.write('{"email":"' + 'a'.repeat(1024)),
    })
    expect(res.status).toBe(413)
    expect(ErrorBody.parse(JSON.parse(res.body)).message).toMatch(/larger than/)
  })

  it('a chunked body (no Content-Length) is cut off at the limit while it streams', async () => {
    // The chunks never end: the answer can only come if the server stops reading at the limit.
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/platform/auth/sign-in',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: (req) => {
        req.write(`{"email":"${OWNER}","password":"demo1234","pad":"`)
        const chunk = 'x'.repeat(16 * 1024)
        const timer = setInterval(() => (req.destroyed ? clearInterval(timer) : req.write(chunk)), 1)
        req.on('close', () => clearInterval(timer))
      },
    })
    expect(res.status).toBe(413)
  })

  // Over a socket the guards learn of a body from Content-Length / Transfer-Encoding (guards.ts hasBody), never by
  // building the web Request: each kind of body must still reach the checks behind the limit.
  it.each([
    ['Content-Length', (body: string) => ({ headers: { 'content-length': Buffer.byteLength(body) }, send: (req: http.ClientRequest) => req.end(body) })],
    ['chunked', (body: string) => ({ headers: { 'transfer-encoding': 'chunked' }, send: (req: http.ClientRequest) => { req.write(body.slice(0, 5)); req.end(body.slice(5)) } })],
  ])('over a socket with a %s body, a NUL is 400 and a text/plain write is 415', async (_, framing) => {
    const nul = framing(JSON.stringify({ email: `${OWNER}\u0000`, password: 'demo1234' }))
    const refused = await rawRequest(port, {
      method: 'POST',
      path: '/platform/auth/sign-in',
      headers: { 'content-type': 'application/json', ...nul.headers },
      body: nul.send,
    })
    expect(refused.status).toBe(400)
    expect(ErrorBody.parse(JSON.parse(refused.body)).message).toMatch(/NUL character/)
    const text = framing('{"jwt_secret":"x"}')
    const plain = await rawRequest(port, {
      method: 'POST',
      path: `/platform/props/project/${ref}/jwt-secret-update`,
      headers: { cookie, 'content-type': 'text/plain;charset=UTF-8', ...text.headers },
      body: text.send,
    })
    expect(plain.status).toBe(415)
  })

  // The security headers over a socket: there the security headers go on Node's response (guards.ts securityHeaders).
  it('over a socket, answers carry the same security headers as through app.request, and API answers no-store', async () => {
    const security = (headers: Record<string, string | undefined>) =>
      Object.fromEntries(
        ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cross-origin-opener-policy', 'cache-control'].map((n) => [n, headers[n]]),
      )
    for (const path of ['/platform/health', `/platform/projects/${ref}/status`, '/platform/nope', '/sign-in']) {
      const viaSocket = await rawRequest(port, { path, headers: { cookie } })
      const viaApp = await s.request(path, { headers: { cookie } })
      const expected = security(Object.fromEntries(viaApp.headers))
      expect(security(viaSocket.headers as Record<string, string>), path).toEqual(expected)
      expect(expected['content-security-policy'], path).toContain("frame-ancestors 'none'")
      expect(expected['cache-control'], path).toBe(path.startsWith('/platform') ? 'no-store' : expected['cache-control'])
    }
    const signIn = await rawRequest(port, {
      method: 'POST',
      path: '/platform/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      body: (req) => req.end(JSON.stringify({ email: OWNER, password: 'demo1234' })),
    })
    expect(signIn.status).toBe(200)
    expect(signIn.headers['cache-control']).toBe('no-store')
    expect(signIn.headers['x-frame-options']).toBe('DENY')
  })

  it('over a socket, a GET without a body passes the body guards', async () => {
    const res = await rawRequest(port, { path: `/platform/projects/${ref}/status`, headers: { cookie } })
    expect(res.status).toBe(200)
  })

  it('an oversized body through app.request (a stream, no length) is 413 JSON; a normal one passes', async () => {
    const big = JSON.stringify({ email: OWNER, password: 'demo1234', pad: 'x'.repeat(70 * 1024) })
    const res = await s.request('/platform/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })
    expect(res.status).toBe(413)
    expect(await messageOf(res)).toMatch(/larger than/)
    const renamed = await s.request(`/platform/projects/${ref}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Recipe Box' }),
    })
    expect(renamed.status).toBe(200)
  })
})

describe('only a bearer token skips the CSRF check; writes take JSON or no body', () => {
  const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }

  it.each([
    ['Basic', 'Basic b3duZXJAZXhhbXBsZS5jb206ZGVtbzEyMzQ='],
    ['an empty Bearer', 'Bearer'],
    ['a Bearer with spaces inside', 'Bearer a b'],
    ['a bearer-looking header on /platform', 'Bearer sbp_0123456789abcdef0123456789abcdef01234567'],
  ])('%s beside the cookie, cross-site, is refused like the cookie alone', async (_, authorization) => {
    const res = await s.request('/platform/profile/access-tokens', json({ name: 'csrf' }, { cookie, authorization, ...crossSite }))
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe('Cross-site request refused')
    const rename = await s.request(`/platform/projects/${ref}`, {
      method: 'PATCH',
      headers: { cookie, authorization, 'content-type': 'application/json', ...crossSite },
      body: JSON.stringify({ name: 'Pwned' }),
    })
    expect(rename.status).toBe(403)
  })

  it('on /v1, a non-bearer Authorization beside the cookie cross-site is refused too', async () => {
    const res = await s.request(`/v1/projects/${ref}/pause`, {
      method: 'POST',
      headers: { cookie, authorization: 'Basic Zm9vOmJhcg==', ...crossSite },
    })
    expect(res.status).toBe(403)
  })

  it('a valid bearer token on /v1 still works from anywhere (no cookie involved)', async () => {
    const token = await accessToken()
    const res = await s.request(`/v1/projects/${ref}`, { headers: { authorization: `Bearer ${token}`, ...crossSite } })
    expect(res.status).toBe(200)
    const bad = await s.request(`/v1/projects/${ref}/pause`, {
      method: 'POST',
      headers: { cookie, authorization: 'Bearer not-a-token', ...crossSite },
    })
    expect(bad.status).toBe(401)
  })

  it('the JWT roll, pause and restore refuse a text/plain body with 415 (it used to be read as {})', async () => {
    const textPlain = (body: string, extra: Record<string, string> = {}): RequestInit => ({
      method: 'POST',
      headers: { cookie, 'content-type': 'text/plain;charset=UTF-8', ...extra },
      body,
    })
    const own = await activeProject('Text plain')
    const roll = await s.request(`/platform/props/project/${own}/jwt-secret-update`, textPlain('{"jwt_secret":"x"}'))
    expect(roll.status).toBe(415)
    expect(await messageOf(roll)).toMatch(/JSON/)
    expect((await s.request(`/v1/projects/${own}/pause`, textPlain('{}'))).status).toBe(415)
    expect((await s.request(`/v1/projects/${own}/restore`, textPlain('{}'))).status).toBe(415)
    expect((await s.request(`/platform/projects/${own}/restore`, textPlain('{}'))).status).toBe(415)
    // A form body is no better.
    const form = await s.request(`/v1/projects/${own}/pause`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    })
    expect(form.status).toBe(415)
    // No body at all, or an empty one whatever its type, is still a call without a body.
    const token = await accessToken()
    const empty = await s.request(`/v1/projects/${own}/pause`, textPlain('', { authorization: `Bearer ${token}` }))
    expect(empty.status).toBe(200)
  })
})

describe('a NUL character anywhere is a 400, never a 500', () => {
  it.each([
    ['a project name', () => s.request(`/platform/projects/${ref}`, { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a\u0000b' }) })],
    ['a token name', () => s.request('/platform/profile/access-tokens', json({ name: 'x\u0000' }, { cookie }))],
    ['a JSON key', () => s.request('/platform/profile/access-tokens', json({ ['na\u0000me']: 'x', name: 'y' }, { cookie }))],
    ['a jwt_secret', async () => s.request(`/platform/props/project/${await activeProject('Nul secret')}/jwt-secret-update`, json({ jwt_secret: `${'s'.repeat(40)}\u0000` }, { cookie }))],
    ['the sign-in e-mail', () => s.request('/platform/auth/sign-in', json({ email: `${OWNER}\u0000`, password: 'demo1234' }))],
    ['a query value', () => s.request(`/v1/projects/${ref}/upgrade/status?tracking_id=%00`, { headers: { cookie } })],
    ['a path parameter', () => s.request(`/platform/projects/abc%00def`, { headers: { cookie } })],
    ['an organization slug', () => s.request(`/platform/organizations/demo-free%00/usage`, { headers: { cookie } })],
  ])('in %s', async (_, send) => {
    const res = await send()
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toMatch(/NUL character/)
  })

  it('an escaped backslash followed by u0000 is text, not a NUL, and is accepted', async () => {
    const res = await s.request('/platform/profile/access-tokens', json({ name: '\\u0000 literally' }, { cookie }))
    expect(res.status).toBe(201)
  })
})

describe('security headers', () => {
  function expectSecurityHeaders(res: Response, what: string) {
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp, what).toContain("frame-ancestors 'none'")
    expect(csp, what).toContain("script-src 'self'")
    expect(csp, what).not.toContain('unsafe-inline')
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
    expect(res.headers.get('referrer-policy'), what).toBe('no-referrer')
    expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  }

  it('every answer carries them: API, dashboard, 404, refusals', async () => {
    expectSecurityHeaders(await s.request('/platform/health'), 'health')
    expectSecurityHeaders(await s.request('/project/abc/building'), 'dashboard page')
    expectSecurityHeaders(await s.request('/platform/nope', { headers: { cookie } }), 'API 404')
    expectSecurityHeaders(await s.request('/platform/profile'), '401')
    expectSecurityHeaders(await s.request('http://evil.example/'), '421')
  })

  it('the page shown when the dashboard is not built has no inline style or script', async () => {
    const html = await (await s.request('/')).text()
    expect(html).not.toMatch(/<script|style=|<style/i)
  })

  it('every API answer, and those carrying secrets above all, is Cache-Control: no-store', async () => {
    const devCookie = await s.signIn(DEVELOPER)
    const signIn = await s.request('/platform/auth/sign-in', json({ email: OWNER, password: 'demo1234' }))
    const created = await s.request('/platform/profile/access-tokens', json({ name: 'cache' }, { cookie }))
    const token = ((await created.clone().json()) as { token: string }).token
    const answers: Array<[string, Response]> = [
      ['sign-in', signIn],
      ['access token creation', created],
      ['profile', await s.request('/platform/profile', { headers: { cookie } })],
      ['settings with keys', await s.request(`/platform/props/project/${ref}/settings`, { headers: { cookie } })],
      ['jwt status', await s.request(`/platform/props/project/${ref}/jwt-secret-update-status`, { headers: { cookie } })],
      ['v1 api-keys', await s.request(`/v1/projects/${ref}/api-keys`, { headers: { authorization: `Bearer ${token}` } })],
      ['status poll', await s.request(`/platform/projects/${ref}/status`, { headers: { cookie: devCookie } })],
      ['error', await s.request('/platform/profile')],
    ]
    for (const [what, res] of answers) {
      expect(res.status, what).toBeLessThan(500)
      expect(res.headers.get('cache-control'), what).toBe('no-store')
    }
  })
})
