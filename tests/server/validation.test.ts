import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Organization, OrganizationList, Subscription } from '../../src/contracts/organizations'
import { Project, ProjectList, ProjectStatusResponse } from '../../src/contracts/projects'
import { ProjectStatus } from '../../src/contracts/common'
import { createApp } from '../../src/server/app'
import type { Db } from '../../src/server/db'
import { FakeClock, OWNER, json, projectByName, startTestServer, testConfig, type TestServer } from './helpers'

let s: TestServer
let cookie: string
beforeAll(async () => {
  s = await startTestServer()
  cookie = await s.signIn(OWNER)
})
afterAll(() => s?.close())

describe('request validation', () => {
  it('bad JSON → 400 JSON with a message', async () => {
    const res = await s.request('/platform/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect((await res.json()).message).toMatch(/JSON/)
  })

  it('missing fields → 400 naming the field', async () => {
    const res = await s.request('/platform/auth/sign-in', json({ password: 'x' }))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toMatch(/^email: /)
  })

  it('an invalid e-mail → 400 with the contract message', async () => {
    const res = await s.request('/platform/auth/sign-in', json({ email: 'not-an-email', password: 'x' }))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('email: Enter a valid e-mail address')
  })

  it.each(['/platform/projects/ABC', '/platform/projects/abc/status', '/platform/projects/abcdefghijklmnopqrs1'])(
    'bad ref %s → 400 Project ref is required',
    async (path) => {
      const res = await s.request(path, { headers: { cookie } })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ message: 'Project ref is required' })
    },
  )

  it('unknown ref → 404', async () => {
    const res = await s.request('/platform/projects/abcdefghijklmnopqrst', { headers: { cookie } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Project not found' })
  })

  it('a bad token id → 400', async () => {
    const res = await s.request('/platform/profile/access-tokens/abc', { method: 'DELETE', headers: { cookie } })
    expect(res.status).toBe(400)
  })

  it.each(['/platform/nothing-here', '/v1/nothing-here', '/dev/nothing-here'])('unknown %s → 404 JSON', async (path) => {
    const res = await s.request(path, { headers: { cookie } })
    expect(res.status).toBe(404)
    expect(await res.json()).toHaveProperty('message')
  })
})

describe('read routes answer their contracts', () => {
  it('organizations, subscription, projects, status', async () => {
    const orgs = OrganizationList.parse(await (await s.request('/platform/organizations', { headers: { cookie } })).json())
    expect(orgs.map((o) => [o.slug, o.name, o.plan.id, o.opt_in_tags])).toEqual([
      ['demo-free', 'Demo Free Org', 'free', []],
      ['demo-pro', 'Demo Pro Org', 'pro', ['AI_SQL']],
    ])
    const pro = Organization.parse(await (await s.request('/platform/organizations/demo-pro', { headers: { cookie } })).json())
    expect(pro.plan.id).toBe('pro')
    const sub = Subscription.parse(
      await (await s.request('/platform/organizations/demo-free/billing/subscription', { headers: { cookie } })).json(),
    )
    expect(sub).toEqual({ plan: { id: 'free', name: 'Free' }, usage_billing_enabled: false })

    const projects = ProjectList.parse(await (await s.request('/platform/projects', { headers: { cookie } })).json())
    expect(new Set(projects.map((p) => p.status))).toEqual(new Set(ProjectStatus.options))
    expect(projects.some((p) => p.status === 'ACTIVE_HEALTHY' && p.postgrestStatus === 'OFFLINE')).toBe(true)
    const free = projects.filter((p) => p.organization_slug === 'demo-free').map((p) => p.status)
    expect(free).toContain('INACTIVE')
    expect(free).toContain('ACTIVE_HEALTHY')
    expect(projects.some((p) => p.kpsVersion === null)).toBe(true)
    expect(projects.some((p) => p.db_version === '14.1')).toBe(true)

    const { ref } = await projectByName(s, 'Recipe Box')
    const one = Project.parse(await (await s.request(`/platform/projects/${ref}`, { headers: { cookie } })).json())
    expect(one.restUrl).toBe(`http://localhost/p/${ref}/rest/v1/`)
    const st = ProjectStatusResponse.parse(
      await (await s.request(`/platform/projects/${ref}/status`, { headers: { cookie } })).json(),
    )
    expect(st.status).toBe('ACTIVE_HEALTHY')
  })
})

describe('the dashboard', () => {
  it('without dist/ a non-API GET answers a page saying to build', async () => {
    const res = await s.request('/project/abc/building')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('npm run build')
  })
})

describe('the built dashboard', () => {
  it('serves files from dist/ and falls back to index.html for client routes', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'kp-dist-'))
    let server: Awaited<ReturnType<typeof createApp>> | undefined
    try {
      mkdirSync(path.join(dist, 'assets'))
      writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root">spa</div>')
      writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)')
      server = await createApp({ db: s.db, config: testConfig({ distDir: dist }), clock: new FakeClock() })
      const asset = await server.app.request('/assets/app.js')
      expect(asset.status).toBe(200)
      expect(await asset.text()).toBe('console.log(1)')
      const route = await server.app.request('/project/abcdefghijklmnopqrst/building')
      expect(route.status).toBe(200)
      expect(await route.text()).toContain('spa')
      const api = await server.app.request('/v1/unknown', { headers: { cookie } })
      expect(api.status).toBe(404)
      expect(await api.json()).toHaveProperty('message')
    } finally {
      await server?.close()
      rmSync(dist, { recursive: true, force: true })
    }
  })

  it('gives each document a style nonce of its own, in its policy and in a meta element; other answers have none', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'kp-dist-'))
    let server: Awaited<ReturnType<typeof createApp>> | undefined
    let listening: ReturnType<typeof serve> | undefined
    try {
      mkdirSync(path.join(dist, 'assets'))
      writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><div id="root"></div></body></html>')
      writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)')
      server = await createApp({ db: s.db, config: testConfig({ distDir: dist }), clock: new FakeClock() })
      const app = server.app
      listening = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const srv = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
      })
      const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
      // Both paths: a web Request through the app, and Node's, where the guards' headers are set before the route.
      const get = [(p: string) => app.request(p), (p: string) => fetch(`${origin}${p}`)]
      for (const [i, request] of get.entries()) {
        const nonces: string[] = []
        for (const p of ['/', '/index.html', '/project/abcdefghijklmnopqrst/sql/new']) {
          const res = await request(p)
          const csp = res.headers.get('content-security-policy') ?? ''
          const meta = /<meta name="csp-nonce" content="([^"]+)">/.exec(await res.text())?.[1]
          expect(meta, `${i} ${p}`).toMatch(/^[A-Za-z0-9+/]{22}==$/)
          expect(csp, `${i} ${p}`).toContain(`style-src 'self' 'nonce-${meta}'`)
          expect(csp, `${i} ${p}`).toContain("script-src 'self';")
          expect(csp, `${i} ${p}`).not.toContain('unsafe-inline')
          nonces.push(meta!)
        }
        expect(new Set(nonces).size, `${i}`).toBe(3)
        for (const p of ['/assets/app.js', '/platform/health']) {
          const csp = (await request(p)).headers.get('content-security-policy') ?? ''
          expect(csp, `${i} ${p}`).toContain("style-src 'self';")
          expect(csp, `${i} ${p}`).not.toContain('nonce-')
        }
      }
    } finally {
      await new Promise<void>((resolve) => (listening ? listening.close(() => resolve()) : resolve()))
      await server?.close()
      rmSync(dist, { recursive: true, force: true })
    }
  })
})

describe('errors', () => {
  it('a thrown error → 500 JSON, logged without cookies', async () => {
    let broken = false
    const flaky: Db = {
      ...s.db,
      kind: s.db.kind,
      query: (sql, params) => (broken ? Promise.reject(new Error('store exploded')) : s.db.query(sql, params)),
      exec: (sql) => s.db.exec(sql),
      transaction: (fn) => s.db.transaction(fn),
      close: async () => {},
    }
    const server = await createApp({ db: flaky, config: testConfig(), clock: new FakeClock() })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      broken = true
      const res = await server.app.request('/platform/organizations', { headers: { cookie } })
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ message: 'Internal server error' })
      const logged = errors.mock.calls.flat().map(String).join(' ')
      expect(logged).toContain('store exploded')
      expect(logged).not.toContain(cookie.split('=')[1])
    } finally {
      errors.mockRestore()
      broken = false
      await server.close()
    }
  })
})
