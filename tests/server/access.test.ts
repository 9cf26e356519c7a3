/**
 * The `:ref` and `:slug` middlewares, and the descriptors: every route of every feature answers 404 alike for an
 * unknown project and for one of an organization the person is not a member of, and every descriptor is routed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeOf } from '../../src/contracts/endpoint'
import * as endpoints from '../../src/contracts/endpoints'
import { OWNER, READONLY, insertForeignOrganization, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
let cookie: string
let foreign: { slug: string; ref: string }
beforeAll(async () => {
  s = await startTestServer()
  cookie = await s.signIn(OWNER)
  foreign = await insertForeignOrganization(s.db)
})
afterAll(() => s?.close())

const UNKNOWN_REF = 'qqqqqqqqqqqqqqqqqqqq'

/** One member route of each feature that reads `:ref`, with a body the route accepts. */
const projectRoutes: [method: string, path: (ref: string) => string, body?: object][] = [
  ['GET', (ref) => `/platform/projects/${ref}`],
  ['PATCH', (ref) => `/platform/projects/${ref}`, { name: 'Renamed' }],
  ['GET', (ref) => `/platform/projects/${ref}/status`],
  ['GET', (ref) => `/platform/projects/${ref}/live`],
  ['GET', (ref) => `/platform/projects/${ref}/api/rest`],
  ['GET', (ref) => `/platform/projects/${ref}/restore/status`],
  ['POST', (ref) => `/platform/projects/${ref}/restore`, {}],
  ['GET', (ref) => `/platform/props/project/${ref}/settings`],
  ['POST', (ref) => `/platform/props/project/${ref}/jwt-secret-update`, {}],
  ['GET', (ref) => `/platform/props/project/${ref}/jwt-secret-update-status`],
  ['GET', (ref) => `/v1/projects/${ref}`],
  ['GET', (ref) => `/v1/projects/${ref}/api-keys`],
  ['POST', (ref) => `/v1/projects/${ref}/pause`, {}],
  ['POST', (ref) => `/v1/projects/${ref}/restore`, {}],
  ['POST', (ref) => `/v1/projects/${ref}/upgrade`, { target_version: '17' }],
  ['GET', (ref) => `/v1/projects/${ref}/upgrade/status`],
  ['GET', (ref) => `/v1/projects/${ref}/upgrade/eligibility`],
]

function request(method: string, path: string, body?: object, who = cookie) {
  const init = body ? { ...json(body, { cookie: who }), method } : { method, headers: { cookie: who } }
  return s.request(path, init)
}

describe('the :ref middleware', () => {
  it.each(projectRoutes)('%s %s answers 404 for an unknown project', async (method, path, body) => {
    const res = await request(method, path(UNKNOWN_REF), body)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Project not found' })
  })

  it.each(projectRoutes)('%s %s answers 404 for a project of another organization', async (method, path, body) => {
    const res = await request(method, path(foreign.ref), body)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Project not found' })
  })

  it.each(projectRoutes)('%s %s answers 400 for a malformed ref', async (method, path, body) => {
    const res = await request(method, path('NOT-A-REF'), body)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: 'Project ref is required' })
  })

  it('the foreign project is untouched', async () => {
    const { rows } = await s.db.query<{ name: string; status: string }>('select name, status from projects where ref = $1', [
      foreign.ref,
    ])
    expect(rows).toEqual([{ name: 'Secret Project', status: 'ACTIVE_HEALTHY' }])
  })
})

describe('the :slug middleware', () => {
  const orgRoutes = [
    (slug: string) => `/platform/organizations/${slug}`,
    (slug: string) => `/platform/organizations/${slug}/billing/subscription`,
    (slug: string) => `/platform/organizations/${slug}/members/reached-free-project-limit`,
    (slug: string) => `/platform/organizations/${slug}/usage?start=2026-01-01&end=2026-01-31`,
  ]

  it.each(orgRoutes)('%s answers 404 for an unknown organization and for one the person is not in', async (path) => {
    for (const slug of ['no-such-org', foreign.slug]) {
      const res = await request('GET', path(slug))
      expect(res.status, slug).toBe(404)
      expect(await res.json(), slug).toEqual({ message: 'Organization not found' })
    }
  })

  it('a member of any role passes', async () => {
    const readonly = await s.signIn(READONLY)
    for (const path of orgRoutes) expect((await request('GET', path('demo-free'), undefined, readonly)).status).toBe(200)
  })
})

describe('the descriptors', () => {
  it('every endpoint descriptor is served by a route of its method (none answers "No route")', async () => {
    const own = await s.signIn(OWNER)
    for (const [name, e] of Object.entries(endpoints)) {
      const path = routeOf(e).replace(':ref', UNKNOWN_REF).replace(':slug', 'no-such-org').replace(':id', '999999')
      const body = e.method === 'GET' ? undefined : '{}'
      const res = await s.request(path, { method: e.method, headers: { cookie: own, 'content-type': 'application/json' }, body })
      const answer = (await res.json().catch(() => null)) as { message?: string } | null
      expect(answer?.message ?? '', name).not.toMatch(/^No route/)
    }
  })
})

describe('the development controls', () => {
  it('answer what their descriptors say', async () => {
    const created = await s.request(routeOf(endpoints.devCreateProject), json({ organization_slug: 'demo-pro', name: 'Described' }))
    const { ref } = endpoints.devCreateProject.response.parse(await created.json())
    const calls: [keyof typeof endpoints, object | undefined][] = [
      ['devSetStatus', { status: 'ACTIVE_HEALTHY' }],
      ['devSetPostgrest', { postgrestStatus: 'ONLINE' }],
      ['devSetLatency', { ms: 0 }],
      ['devFailNextRestore', { fail: false }],
      ['devFailNextJwtUpdate', undefined],
      ['devFailNextUpgrade', { at_step: 4 }],
      ['devSetResourceWarning', { resource: 'cpu_exhaustion', level: 'warning' }],
      ['devSetReadOnly', { enabled: false }],
      ['devSetUsage', { metric: 'EGRESS', usage: 1 }],
    ]
    for (const [name, body] of calls) {
      const e = endpoints[name]
      const res = await s.request(routeOf(e).replace(':ref', ref), body ? json(body) : { method: 'POST' })
      expect(res.status, name).toBe(200)
      const answer: unknown = await res.json()
      expect(e.response?.safeParse(answer).success, `${name}: ${JSON.stringify(answer)}`).toBe(true)
    }
  })
})
