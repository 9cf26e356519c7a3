/** The API server's health and REST schema, resource warnings, organization usage and their dev controls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project, ProjectLiveResponse } from '../../src/contracts/projects'
import { RestSchemaResponse } from '../../src/contracts/rest'
import { OrgUsageResponse, ResourceWarningsResponse } from '../../src/contracts/usage'
import { createApp } from '../../src/server/app'
import { FakeClock, OWNER, insertForeignOrganization, json, startTestServer, testConfig, type TestServer } from './helpers'

let s: TestServer
let cookie: string
beforeAll(async () => {
  s = await startTestServer()
  cookie = await s.signIn(OWNER)
})
afterAll(() => s?.close())

const get = (path: string) => s.request(path, { headers: { cookie } })
const create = async (org = 'demo-free') =>
  Project.parse(await (await s.request('/dev/projects', json({ organization_slug: org }))).json())

describe('live and REST schema', () => {
  it('answer 200 while the API server is ONLINE and 503 while it is OFFLINE', async () => {
    const p = await create('demo-pro')
    const live = await get(`/platform/projects/${p.ref}/live`)
    expect(live.status).toBe(200)
    ProjectLiveResponse.parse(await live.json())
    const rest = await get(`/platform/projects/${p.ref}/api/rest`)
    expect(rest.status).toBe(200)
    const schema = RestSchemaResponse.parse(await rest.json())
    expect(schema.swagger).toBe('2.0')

    await s.request(`/dev/projects/${p.ref}/postgrest`, json({ postgrestStatus: 'OFFLINE' }))
    for (const path of [`/platform/projects/${p.ref}/live`, `/platform/projects/${p.ref}/api/rest`]) {
      const res = await get(path)
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ message: 'The project API server is offline' })
    }
    await s.request(`/dev/projects/${p.ref}/postgrest`, json({ postgrestStatus: 'ONLINE' }))
    expect((await get(`/platform/projects/${p.ref}/live`)).status).toBe(200)
  })

  it('need a session and membership', async () => {
    const p = await create('demo-pro')
    expect((await s.request(`/platform/projects/${p.ref}/live`)).status).toBe(401)
    const foreign = await insertForeignOrganization(s.db)
    expect((await get(`/platform/projects/${foreign.ref}/live`)).status).toBe(404)
    expect((await get(`/platform/projects/${foreign.ref}/api/rest`)).status).toBe(404)
  })
})

describe('resource warnings', () => {
  it('lists per project the levels raised and read-only mode, persisted', async () => {
    const p = await create()
    const before = ResourceWarningsResponse.parse(await (await get('/platform/projects-resource-warnings')).json())
    expect(before.find((w) => w.project === p.ref)).toBeUndefined()

    expect((await s.request(`/dev/projects/${p.ref}/resource-warnings`, json({ resource: 'cpu_exhaustion', level: 'warning' }))).status).toBe(200)
    expect((await s.request(`/dev/projects/${p.ref}/resource-warnings`, json({ resource: 'disk_space_exhaustion', level: 'critical' }))).status).toBe(200)
    let warnings = ResourceWarningsResponse.parse(await (await get('/platform/projects-resource-warnings')).json())
    expect(warnings.find((w) => w.project === p.ref)).toEqual({
      project: p.ref,
      is_readonly_mode_enabled: false,
      disk_io_exhaustion: null,
      disk_space_exhaustion: 'critical',
      cpu_exhaustion: 'warning',
      memory_and_swap_exhaustion: null,
    })
    await s.request(`/dev/projects/${p.ref}/read-only`, json({ enabled: true }))
    await s.request(`/dev/projects/${p.ref}/resource-warnings`, json({ resource: 'cpu_exhaustion', level: null }))
    warnings = ResourceWarningsResponse.parse(await (await get('/platform/projects-resource-warnings')).json())
    expect(warnings.find((w) => w.project === p.ref)).toMatchObject({ is_readonly_mode_enabled: true, cpu_exhaustion: null })
  })

  it('validates the dev controls and hides other organizations', async () => {
    const p = await create()
    expect((await s.request(`/dev/projects/${p.ref}/resource-warnings`, json({ resource: 'gpu', level: 'warning' }))).status).toBe(400)
    expect((await s.request(`/dev/projects/${p.ref}/resource-warnings`, json({ resource: 'cpu_exhaustion', level: 'high' }))).status).toBe(400)
    expect((await s.request(`/dev/projects/${p.ref}/read-only`, json({ enabled: 'yes' }))).status).toBe(400)
    expect((await s.request('/dev/projects/aaaaaaaaaaaaaaaaaaaa/read-only', json({ enabled: true }))).status).toBe(404)
    const { rows } = await s.db.query<{ id: number }>(`select id from projects where ref = 'zzzzzzzzzzzzzzzzzzzz'`)
    if (!rows[0]) await insertForeignOrganization(s.db)
    await s.request('/dev/projects/zzzzzzzzzzzzzzzzzzzz/read-only', json({ enabled: true }))
    const warnings = ResourceWarningsResponse.parse(await (await get('/platform/projects-resource-warnings')).json())
    expect(warnings.some((w) => w.project === 'zzzzzzzzzzzzzzzzzzzz')).toBe(false)
  })

  it('dev controls answer 404 when turned off', async () => {
    const off = await createApp({ db: s.db, config: testConfig({ devControls: false }), clock: new FakeClock() })
    try {
      const p = await create()
      for (const [path, body] of [
        [`/dev/projects/${p.ref}/fail-next-upgrade`, { at_step: 2 }],
        [`/dev/projects/${p.ref}/resource-warnings`, { resource: 'cpu_exhaustion', level: 'warning' }],
        [`/dev/projects/${p.ref}/read-only`, { enabled: true }],
        [`/dev/projects/${p.ref}/usage`, { metric: 'EGRESS', usage: 1 }],
      ] as const) {
        expect((await off.app.request(path, json(body))).status, path).toBe(404)
      }
    } finally {
      await off.close()
    }
  })
})

describe('organization usage', () => {
  const range = 'start=2026-11-01T00:00:00.000Z&end=2026-11-30T23:59:59.000Z'

  it('answers one record per metric with the plan limits, summing the projects, or one project with project_ref', async () => {
    const a = await create('demo-free')
    const b = await create('demo-free')
    await s.request(`/dev/projects/${a.ref}/usage`, json({ metric: 'EGRESS', usage: 3 }))
    await s.request(`/dev/projects/${b.ref}/usage`, json({ metric: 'EGRESS', usage: 4 }))
    const org = OrgUsageResponse.parse(await (await get(`/platform/organizations/demo-free/usage?${range}`)).json())
    const egress = org.usages.find((u) => u.metric === 'EGRESS')
    expect(egress).toEqual({ metric: 'EGRESS', usage: 7, capped: true, available_in_plan: true, unlimited: false, pricing_free_units: 5 })
    const one = OrgUsageResponse.parse(await (await get(`/platform/organizations/demo-free/usage?${range}&project_ref=${a.ref}`)).json())
    expect(one.usages.find((u) => u.metric === 'EGRESS')?.usage).toBe(3)
    expect(one.usages.find((u) => u.metric === 'DATABASE_SIZE')?.usage).toBe(0)
    const pro = OrgUsageResponse.parse(await (await get(`/platform/organizations/demo-pro/usage?${range}`)).json())
    expect(pro.usages.find((u) => u.metric === 'EGRESS')?.pricing_free_units).toBe(250)
  })

  it('validates the query: dates required and ISO, start before end, project of this organization', async () => {
    const pro = await create('demo-pro')
    const cases: Array<[string, number]> = [
      ['', 400],
      ['start=2026-11-01', 400],
      ['start=yesterday&end=2026-11-02', 400],
      ['start=2026-11-05&end=2026-11-01', 400],
      ['start=2026-11-01&end=2026-11-30&project_ref=BAD', 400],
      [`start=2026-11-01&end=2026-11-30&project_ref=${pro.ref}`, 404],
      ['start=2026-11-01&end=2026-11-30', 200],
    ]
    for (const [query, status] of cases) {
      const res = await get(`/platform/organizations/demo-free/usage?${query}`)
      expect(res.status, query).toBe(status)
      if (status !== 200) expect(await res.json(), query).toHaveProperty('message')
    }
    expect((await get('/platform/organizations/nope/usage?start=2026-11-01&end=2026-11-30')).status).toBe(404)
    expect((await s.request(`/dev/projects/${pro.ref}/usage`, json({ metric: 'EGRESS', usage: -1 }))).status).toBe(400)
    expect((await s.request(`/dev/projects/${pro.ref}/usage`, json({ metric: 'BANDWIDTH', usage: 1 }))).status).toBe(400)
  })
})
