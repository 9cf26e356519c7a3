/**
 * Secrets never reach a member without service_api_keys:read, on any endpoint: the whole route table of the Hono
 * app (app.routes, whatever later slices add) is walked with real demo values in every path parameter, as the
 * Developer and the Read-only member, and every response body is searched for any project's service_role key,
 * its signature, any JWT secret, and the secret of an update still pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config'
import { DEVELOPER, OWNER, READONLY, json, projectByName, startTestServer, type TestServer } from './helpers'

const PENDING_SECRET = 'pending-custom-secret-that-must-never-leak-0123456789'

interface Walked {
  method: string
  path: string
  status: number
}

let s: TestServer
let secrets: string[]
let refs: string[]

beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle: { ...loadConfig({}).lifecycle, jwtUpdateMs: 60 * 60_000 } } })
  // An update in flight, so a pending secret exists somewhere in the store.
  const owner = await s.signIn(OWNER)
  const { ref } = await projectByName(s, 'Acme Storefront')
  const res = await s.request(`/platform/props/project/${ref}/jwt-secret-update`, json({ jwt_secret: PENDING_SECRET }, { cookie: owner }))
  expect(res.status).toBe(202)

  const { rows } = await s.db.query<{ jwt_secret: string; service_role_key: string }>(
    'select jwt_secret, service_role_key from project_api_keys',
  )
  expect(rows.length).toBeGreaterThanOrEqual(9)
  secrets = [PENDING_SECRET]
  for (const row of rows) secrets.push(row.jwt_secret, row.service_role_key, row.service_role_key.split('.')[2])
  refs = (await s.db.query<{ ref: string }>('select ref from projects order by id')).rows.map((r) => r.ref)
})
afterAll(() => s?.close())

/** Every concrete path of a route pattern: `:ref` takes each project's ref, other parameters a demo value. */
function expand(pattern: string, values: { tokenId: string }): string[] {
  let paths = [pattern]
  for (const match of pattern.matchAll(/:(\w+)(\{[^}]*\})?\??/g)) {
    const [whole, name] = match
    const choices =
      name === 'ref' ? refs : name === 'slug' ? ['demo-free', 'demo-pro'] : name === 'id' ? [values.tokenId, '1'] : name.toLowerCase().includes('branch') ? ['main'] : ['1']
    paths = paths.flatMap((p) => choices.map((choice) => p.replace(whole, choice)))
  }
  return paths
}

function apiRoutes() {
  const seen = new Set<string>()
  const routes: Array<{ method: string; path: string }> = []
  for (const route of s.app.routes) {
    // Middleware (method ALL, wildcard paths) and the dashboard's static files are not endpoints.
    if (route.method === 'ALL' || route.path.includes('*')) continue
    const key = `${route.method} ${route.path}`
    if (seen.has(key)) continue
    seen.add(key)
    routes.push({ method: route.method, path: route.path })
  }
  return routes
}

/** Calls every route as the member; writes carry an empty JSON body (sign-in/out and /dev writes are left out). */
async function walk(email: string): Promise<{ walked: Walked[]; leaks: string[] }> {
  const cookie = await s.signIn(email)
  const token = await s.request('/platform/profile/access-tokens', json({ name: 'walk' }, { cookie }))
  const tokenId = String(((await token.json()) as { id: number }).id)
  const walked: Walked[] = []
  const leaks: string[] = []
  const routes = apiRoutes()
  const reads = routes.filter((r) => r.method === 'GET')
  const writes = routes.filter(
    (r) => r.method !== 'GET' && !r.path.startsWith('/dev/') && !r.path.startsWith('/platform/auth/'),
  )
  for (const route of [...reads, ...writes]) {
    for (const path of expand(route.path, { tokenId })) {
      const init: RequestInit =
        route.method === 'GET'
          ? { headers: { cookie } }
          : { method: route.method, headers: { cookie, 'content-type': 'application/json' }, body: '{}' }
      const res = await s.request(path, init)
      const body = await res.text()
      walked.push({ method: route.method, path, status: res.status })
      for (const secret of secrets) {
        if (body.includes(secret)) leaks.push(`${route.method} ${path} (${res.status}) answered a secret`)
      }
      if (/"jwt_secret"\s*:/.test(body)) leaks.push(`${route.method} ${path} (${res.status}) answered a jwt_secret field`)
      if (/service_role/.test(body) && /eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(body) && body.includes('"service_role"')) {
        leaks.push(`${route.method} ${path} (${res.status}) answered something tagged service_role next to a JWT`)
      }
    }
  }
  // The session held for the whole walk: the answers were real, not 401s.
  const me = await s.request('/platform/profile', { headers: { cookie } })
  expect(me.status).toBe(200)
  return { walked, leaks }
}

describe('the whole route table, walked', () => {
  it('covers every API route registered, including the keys routes', () => {
    const routes = apiRoutes().map((r) => `${r.method} ${r.path}`)
    expect(routes).toContain('GET /platform/props/project/:ref/settings')
    expect(routes).toContain('GET /platform/props/project/:ref/jwt-secret-update-status')
    expect(routes).toContain('POST /platform/props/project/:ref/jwt-secret-update')
    expect(routes).toContain('GET /v1/projects/:ref/api-keys')
    expect(routes).toContain('GET /platform/projects/:ref')
    expect(routes).toContain('GET /platform/storage/:ref/buckets')
    expect(routes).toContain('DELETE /platform/storage/:ref/buckets/:id')
    expect(routes).toContain('GET /v1/projects/:ref/functions/:slug')
    expect(routes).toContain('GET /v1/organizations/:slug')
    expect(routes.length).toBeGreaterThanOrEqual(15)
  })

  it('finds the secrets where they belong: the Owner reads them (the search works)', async () => {
    const cookie = await s.signIn(OWNER)
    const { ref } = await projectByName(s, 'Recipe Box')
    const text = await (await s.request(`/platform/props/project/${ref}/settings`, { headers: { cookie } })).text()
    expect(secrets.some((secret) => text.includes(secret))).toBe(true)
  })

  it.each([
    ['Developer', DEVELOPER],
    ['Read-only', READONLY],
  ])('the %s member never receives a service_role key or a JWT secret from any endpoint', async (_, email) => {
    const { walked, leaks } = await walk(email)
    expect(leaks).toEqual([])
    // Enough real answers to mean something: every demo project's settings were read successfully.
    const settingsRead = walked.filter((w) => w.path.endsWith('/settings') && w.status === 200)
    expect(settingsRead.length).toBe(refs.length)
    expect(walked.filter((w) => w.status === 200).length).toBeGreaterThan(refs.length * 4)
    // Every route of every demo project, one after the other: the route table grows with each product.
  }, 120_000)
})
