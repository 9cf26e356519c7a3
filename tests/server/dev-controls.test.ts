import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DevAdvanceResponse } from '../../src/contracts/dev'
import { Project } from '../../src/contracts/projects'
import { createApp } from '../../src/server/app'
import { FakeClock, OWNER, json, projectByName, startTestServer, testConfig, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())

describe('with DEV_CONTROLS off', () => {
  it('every /dev route answers 404 JSON', async () => {
    const off = await createApp({ db: s.db, config: testConfig({ devControls: false }), clock: new FakeClock() })
    const { ref } = await projectByName(s, 'Recipe Box')
    for (const [path, body] of [
      ['/dev/projects', { organization_slug: 'demo-free' }],
      [`/dev/projects/${ref}/status`, { status: 'INACTIVE' }],
      [`/dev/projects/${ref}/postgrest`, { postgrestStatus: 'OFFLINE' }],
      ['/dev/latency', { ms: 10 }],
      [`/dev/projects/${ref}/advance`, {}],
    ] as const) {
      const res = await off.app.request(path, json(body))
      expect(res.status, path).toBe(404)
      expect(await res.json(), path).toHaveProperty('message')
    }
    expect((await projectByName(s, 'Recipe Box')).status).toBe('ACTIVE_HEALTHY')
  })
})

describe('with DEV_CONTROLS on', () => {
  it('creates a project in any status, visible to members', async () => {
    const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Paused One', status: 'INACTIVE' }))
    expect(res.status).toBe(201)
    const p = Project.parse(await res.json())
    expect(p).toMatchObject({ name: 'Paused One', status: 'INACTIVE', postgrestStatus: 'ONLINE', organization_slug: 'demo-pro' })
    expect(p.ref).toMatch(/^[a-z]{20}$/)
    const cookie = await s.signIn(OWNER)
    const detail = await s.request(`/platform/projects/${p.ref}`, { headers: { cookie } })
    expect(Project.parse(await detail.json()).status).toBe('INACTIVE')
  })

  it('sets status and postgrestStatus', async () => {
    const { ref } = await projectByName(s, 'Weekend Hackathon')
    const st = await s.request(`/dev/projects/${ref}/status`, json({ status: 'RESTORING' }))
    expect(Project.parse(await st.json()).status).toBe('RESTORING')
    const pg = await s.request(`/dev/projects/${ref}/postgrest`, json({ postgrestStatus: 'OFFLINE' }))
    expect(Project.parse(await pg.json()).postgrestStatus).toBe('OFFLINE')
  })

  it('opens an active project database before reporting its API server ONLINE; a paused one only gets the flag', async () => {
    const { ref } = await projectByName(s, 'Legacy Blog')
    await s.projectDbs.close(ref)
    expect(s.projectDbs.openRefs()).not.toContain(ref)
    const online = await s.request(`/dev/projects/${ref}/postgrest`, json({ postgrestStatus: 'ONLINE' }))
    expect(Project.parse(await online.json()).postgrestStatus).toBe('ONLINE')
    expect(s.projectDbs.openRefs()).toContain(ref)
    await s.request(`/dev/projects/${ref}/postgrest`, json({ postgrestStatus: 'OFFLINE' }))

    const paused = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Paused API', status: 'INACTIVE' }))
    const pausedRef = Project.parse(await paused.json()).ref
    const res = await s.request(`/dev/projects/${pausedRef}/postgrest`, json({ postgrestStatus: 'ONLINE' }))
    expect(res.status).toBe(200)
    expect(Project.parse(await res.json()).postgrestStatus).toBe('ONLINE')
    expect(s.projectDbs.openRefs()).not.toContain(pausedRef)
  })

  it("makes a project's next transition due now and answers once the engine has recorded it", async () => {
    const created = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Advanced One', status: 'COMING_UP' }))
    const { ref } = Project.parse(await created.json())
    // Coming up lasts comingUpMs on the server's clock, which does not move here: only the control brings it on.
    s.engine.start()
    try {
      const res = await s.request(`/dev/projects/${ref}/advance`, json({}))
      expect(res.status).toBe(200)
      expect(DevAdvanceResponse.parse(await res.json())).toEqual({ kind: 'project.status', outcome: 'applied', cancelled: false })
      expect((await projectByName(s, 'Advanced One')).status).toBe('ACTIVE_HEALTHY')
      // Nothing left pending.
      const none = await s.request(`/dev/projects/${ref}/advance`, json({}))
      expect(none.status).toBe(404)
      expect((await none.json()).message).toMatch(/no pending transition/)
    } finally {
      await s.engine.stop()
    }
  })

  it('answers 504 when the engine has not recorded the transition within LIFECYCLE_ADVANCE_WAIT_MS', async () => {
    const created = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Unadvanced One', status: 'COMING_UP' }))
    const { ref } = Project.parse(await created.json())
    // The engine is not running: the row is due but nothing takes it.
    const short = await createApp({ db: s.db, config: testConfig({ devControls: true, lifecycle: { advanceWaitMs: 100 } }), clock: s.clock })
    try {
      const res = await short.app.request(`/dev/projects/${ref}/advance`, json({}))
      expect(res.status).toBe(504)
      expect((await res.json()).message).toMatch(/not recorded within 100 ms/)
    } finally {
      await short.close()
    }
    expect((await projectByName(s, 'Unadvanced One')).status).toBe('COMING_UP')
  })

  it('slows /platform and /v1 responses, not health', async () => {
    const cookie = await s.signIn(OWNER)
    expect((await (await s.request('/dev/latency', json({ ms: 150 }))).json())).toEqual({ ms: 150 })
    try {
      let t = performance.now()
      await s.request('/platform/organizations', { headers: { cookie } })
      expect(performance.now() - t).toBeGreaterThanOrEqual(140)
      t = performance.now()
      await s.request('/platform/health')
      expect(performance.now() - t).toBeLessThan(140)
    } finally {
      await s.request('/dev/latency', json({ ms: 0 }))
    }
  })

  describe('validates input', () => {
    it.each([
      ['/dev/projects', { organization_slug: 'demo-free', status: 'SLEEPING' }, /status/],
      ['/dev/projects', { status: 'INACTIVE' }, /organization_slug/],
      ['/dev/projects', { organization_slug: 'no such org!' }, /slug is required/],
      ['/dev/latency', { ms: -1 }, /ms/],
      ['/dev/latency', { ms: 'slow' }, /ms/],
      ['/dev/projects/NOT-A-REF/status', { status: 'INACTIVE' }, /Project ref is required/],
    ] as const)('POST %s %j → 400', async (path, body, message) => {
      const res = await s.request(path, json(body))
      expect(res.status).toBe(400)
      expect((await res.json()).message).toMatch(message)
    })

    it('a bad status body → 400', async () => {
      const { ref } = await projectByName(s, 'Recipe Box')
      const res = await s.request(`/dev/projects/${ref}/status`, json({ status: 'nope' }))
      expect(res.status).toBe(400)
      const pg = await s.request(`/dev/projects/${ref}/postgrest`, json({ postgrestStatus: 'DOWN' }))
      expect(pg.status).toBe(400)
    })

    it('an unknown organization or project → 404', async () => {
      expect((await s.request('/dev/projects', json({ organization_slug: 'nowhere' }))).status).toBe(404)
      const res = await s.request('/dev/projects/aaaaaaaaaaaaaaaaaaaa/status', json({ status: 'INACTIVE' }))
      expect(res.status).toBe(404)
    })
  })
})
