/**
 * Usage measured by the REST endpoint: requests, answer bytes and response times counted per project and
 * UTC day, shown in the organization's usage (EGRESS) and its daily figures, filtered by project and dates; each
 * project's request log (newest first, by status class, never a key or token); the development control adding to
 * what is measured; the counts surviving a restart (written on close); bad queries and other organizations refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BYTES_PER_GB, DailyUsageResponse, RequestLogResponse } from '../../src/contracts/measured'
import { OrgUsageResponse, type UsageMetric } from '../../src/contracts/usage'
import { createApp } from '../../src/server/app'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { loggablePath } from '../../src/server/core/meter'
import {
  DEVELOPER,
  FakeClock,
  OWNER,
  READONLY,
  createTestStore,
  insertForeignOrganization,
  json,
  projectByName,
  startTestServer,
  testConfig,
  type TestServer,
} from './helpers'

let s: TestServer
let owner: string
let developer: string
let readonly: string
let recipes: { id: number; ref: string }
let anon: string
let service: string
let storefront: string
let foreign: { slug: string; ref: string }

const DAY = 86_400_000
const today = () => s.clock.now().toISOString().slice(0, 10)
const dayOffset = (days: number) => new Date(s.clock.ms + days * DAY).toISOString().slice(0, 10)

async function rest(path: string, init: RequestInit = {}, key = anon) {
  const res = await s.request(`/p/${recipes.ref}/rest/v1/${path}`, { ...init, headers: { apikey: key, ...(init.headers as Record<string, string>) } })
  return { status: res.status, bytes: Buffer.byteLength(await res.text()) }
}

async function usageOf(slug: string, query: Record<string, string>, cookie = owner) {
  const res = await s.request(`/platform/organizations/${slug}/usage?${new URLSearchParams(query)}`, { headers: { cookie } })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return Object.fromEntries(OrgUsageResponse.parse(body).usages.map((u) => [u.metric, u.usage])) as Record<UsageMetric, number>
}

async function dailyOf(slug: string, query: Record<string, string>, cookie = owner) {
  const res = await s.request(`/platform/organizations/${slug}/usage/daily?${new URLSearchParams(query)}`, { headers: { cookie } })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return DailyUsageResponse.parse(body).days
}

async function logOf(ref: string, query = '', cookie = owner) {
  const res = await s.request(`/platform/projects/${ref}/logs/requests${query}`, { headers: { cookie } })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status}: ${text}`)
  return { text, entries: RequestLogResponse.parse(JSON.parse(text)).entries }
}

const period = () => ({ start: `${dayOffset(-1)}T00:00:00Z`, end: s.clock.now().toISOString() })

beforeAll(async () => {
  s = await startTestServer({ config: { usageFlushMs: 0 } })
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  recipes = await projectByName(s, 'Recipe Box')
  const keys = await findProjectKeys(s.db, recipes.id)
  if (!keys) throw new Error('Recipe Box has no keys')
  anon = keys.anon_key
  service = keys.service_role_key
  storefront = (await projectByName(s, 'Acme Storefront')).ref
  foreign = await insertForeignOrganization(s.db)
}, 120_000)
afterAll(() => s?.close())

describe('counted per project and day', () => {
  it('counts REST requests and their answer bytes in the organization usage, the daily figures and the log', async () => {
    const before = await usageOf('demo-free', period())
    const beforeDays = await dailyOf('demo-free', { ...period(), project_ref: recipes.ref })
    const answers = [
      await rest('recipes?select=title&order=title'),
      await rest('recipes?select=title,servings&limit=2'),
      await rest('no_such_table'),
      await rest('recipes?select=title', { method: 'HEAD' }),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 200])
    const sent = answers.reduce((sum, a) => sum + a.bytes, 0)

    const after = await usageOf('demo-free', period())
    expect((after.EGRESS - before.EGRESS) * BYTES_PER_GB).toBeCloseTo(sent, 3)
    const days = await dailyOf('demo-free', { ...period(), project_ref: recipes.ref })
    expect(days.map((d) => d.date)).toEqual([dayOffset(-1), today()])
    const [was, now] = [beforeDays[1], days[1]]
    expect(now.requests - was.requests).toBe(4)
    expect(now.egress_bytes - was.egress_bytes).toBe(sent)
    expect(now.response_ms_avg).toBeGreaterThan(0)
    expect(now.response_ms_max).toBeGreaterThanOrEqual(now.response_ms_avg ?? Infinity)
    expect(days[0]).toMatchObject({ requests: 0, egress_bytes: 0, response_ms_avg: null, response_ms_max: null })

    const { entries } = await logOf(recipes.ref, '?limit=4')
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['HEAD', '/rest/v1/recipes?select=title', 200],
      ['GET', '/rest/v1/no_such_table', 404],
      ['GET', '/rest/v1/recipes?select=title,servings&limit=2', 200],
      ['GET', '/rest/v1/recipes?select=title&order=title', 200],
    ])
    expect(entries[3].bytes).toBe(answers[0].bytes)
    expect(entries[0].bytes).toBe(0)
  })

  it("measures the project database's size with pg_database_size while it is open", async () => {
    const { rows } = await s.projectDbs.transaction(recipes.ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query('select pg_database_size(current_database())::float8 as bytes'),
    )
    const size = Number(rows[0].bytes)
    const usage = await usageOf('demo-free', { ...period(), project_ref: recipes.ref })
    expect(usage.DATABASE_SIZE * BYTES_PER_GB).toBeGreaterThan(size * 0.5)
    expect(usage.DATABASE_SIZE * BYTES_PER_GB).toBeLessThan(size * 2)
    const days = await dailyOf('demo-free', { ...period(), project_ref: recipes.ref })
    expect(days[1].database_size_bytes).toBe(Math.round(usage.DATABASE_SIZE * BYTES_PER_GB))
  })

  it("keeps each project's figures apart and filters by project and by dates", async () => {
    const recipesBefore = await usageOf('demo-free', { ...period(), project_ref: recipes.ref })
    // Acme Storefront is in Demo Pro Org: its requests never show in Demo Free Org.
    const storefrontKeys = await findProjectKeys(s.db, (await projectByName(s, 'Acme Storefront')).id)
    const other = await s.request(`/p/${storefront}/rest/v1/products?select=name`, { headers: { apikey: storefrontKeys?.anon_key ?? '' } })
    expect(other.status).toBe(200)
    const otherBytes = Buffer.byteLength(await other.text())
    expect(await usageOf('demo-free', { ...period(), project_ref: recipes.ref })).toMatchObject({ EGRESS: recipesBefore.EGRESS })
    const pro = await dailyOf('demo-pro', { ...period(), project_ref: storefront })
    expect(pro[1].requests).toBe(1)
    expect(pro[1].egress_bytes).toBe(otherBytes)

    // A day later: today's requests count for today only.
    s.clock.advance(DAY)
    // (A day idle ends the sessions: sign in again.)
    ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
    const next = await rest('recipes?select=title&limit=1')
    const onlyToday = await usageOf('demo-free', { start: `${today()}T00:00:00Z`, end: s.clock.now().toISOString(), project_ref: recipes.ref })
    expect(onlyToday.EGRESS * BYTES_PER_GB).toBeCloseTo(next.bytes, 3)
    const days = await dailyOf('demo-free', { start: dayOffset(-2), end: today(), project_ref: recipes.ref })
    expect(days.map((d) => d.date)).toEqual([dayOffset(-2), dayOffset(-1), today()])
    expect(days[2].requests).toBe(1)
    expect(days[1].requests).toBeGreaterThanOrEqual(4)
    const yesterdayOnly = await usageOf('demo-free', { start: dayOffset(-1), end: dayOffset(-1), project_ref: recipes.ref })
    expect(yesterdayOnly.EGRESS).toBeCloseTo(recipesBefore.EGRESS, 12)
  })

  it('the development control adds to what is measured', async () => {
    const measured = await usageOf('demo-free', { ...period(), project_ref: recipes.ref })
    expect((await s.request(`/dev/projects/${recipes.ref}/usage`, json({ metric: 'EGRESS', usage: 12 }))).status).toBe(200)
    const both = await usageOf('demo-free', { ...period(), project_ref: recipes.ref })
    expect(both.EGRESS).toBeCloseTo(measured.EGRESS + 12, 9)
    expect((await s.request(`/dev/projects/${recipes.ref}/usage`, json({ metric: 'EGRESS', usage: 0 }))).status).toBe(200)
    expect((await usageOf('demo-free', { ...period(), project_ref: recipes.ref })).EGRESS).toBeCloseTo(measured.EGRESS, 12)
  })
})

describe('the request log', () => {
  it('never holds the apikey or the Authorization token', async () => {
    await rest(`recipes?select=title&apikey=${anon}&limit=1`, {}, anon)
    await rest('recipes?select=title&limit=1', { headers: { authorization: `Bearer ${service}` } }, service)
    await rest(`recipes?select=title&access_token=${service}&token=abc`, {}, 'not-a-key')
    const { text, entries } = await logOf(recipes.ref, '?limit=3')
    expect(text).not.toContain(anon)
    expect(text).not.toContain(service)
    expect(text).not.toMatch(/apikey/i)
    expect(text).not.toContain('abc')
    expect(entries.map((e) => [e.path, e.status])).toEqual([
      ['/rest/v1/recipes?select=title&access_token=[redacted]&token=[redacted]', 401],
      ['/rest/v1/recipes?select=title&limit=1', 200],
      // (an apikey query parameter is read as a filter on a column of that name: 400)
      ['/rest/v1/recipes?select=title&limit=1', 400],
    ])
  })

  it('filters by status class, newest first, and is read by every member (read-only too)', async () => {
    // Ids past 9 and 99 are in the log, so newest first is by number, not by the text of the id.
    for (let i = 0; i < 12; i++) expect((await rest('recipes?select=title&limit=1')).status).toBe(200)
    const errors = await logOf(recipes.ref, '?status=4xx', readonly)
    expect(errors.entries.length).toBeGreaterThanOrEqual(2)
    expect(errors.entries.every((e) => e.status >= 400 && e.status < 500)).toBe(true)
    const ok = await logOf(recipes.ref, '?status=2xx', developer)
    expect(ok.entries.every((e) => e.status >= 200 && e.status < 300)).toBe(true)
    const ids = ok.entries.map((e) => Number(e.id))
    expect(ids.length).toBeGreaterThanOrEqual(12)
    expect(ids.some((id) => id < 10) || ids.some((id) => id < 100)).toBe(true)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect((await logOf(recipes.ref, '?status=5xx')).entries).toEqual([])
  })

  it("the dashboard's user lists (the Test panel's, the SQL Editor's) are the platform's calls, not the project's traffic", async () => {
    const q = { ...period(), project_ref: recipes.ref }
    const [logBefore, daysBefore] = [(await logOf(recipes.ref)).entries.length, await dailyOf('demo-free', q)]
    // The Test panel's list goes through the gateway to the project's auth service, in process; the SQL Editor's reads
    // the project's database. Each answers, and neither is logged or counted.
    const users = await s.request(`/platform/auth/${recipes.ref}/users?page=1&per_page=10`, { headers: { cookie: owner } })
    expect(users.status, await users.clone().text()).toBe(200)
    const sqlUsers = await s.request(`/platform/projects/${recipes.ref}/sql/users`, { headers: { cookie: owner } })
    expect(sqlUsers.status, await sqlUsers.clone().text()).toBe(200)
    expect((await logOf(recipes.ref)).entries.length).toBe(logBefore)
    expect((await dailyOf('demo-free', q)).at(-1)!.requests).toBe(daysBefore.at(-1)!.requests)
    // The project's own traffic still is: one request, one entry.
    expect((await rest('recipes?select=title&limit=1')).status).toBe(200)
    expect((await logOf(recipes.ref)).entries.length).toBe(logBefore + 1)
  })

  it('keeps a bounded number of entries per project', () => {
    // The bound itself is the meter's (REQUEST_LOG_LIMIT); here its path rule on odd input.
    expect(loggablePath(new URL('http://x/p/abc/rest/v1/t?select=a&APIKEY=k&Password=p'))).toBe('/rest/v1/t?select=a&Password=[redacted]')
    expect(loggablePath(new URL(`http://x/p/abc/rest/v1/${'a'.repeat(2_000)}`)).length).toBe(1_000)
  })
})

describe('refused', () => {
  it('bad dates, a range too long and a bad project ref are 400 with a message', async () => {
    const bad = async (path: string) => {
      const res = await s.request(path, { headers: { cookie: owner } })
      expect(res.status, path).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(/\w/)
    }
    await bad('/platform/organizations/demo-free/usage?start=yesterday&end=2026-01-01')
    await bad('/platform/organizations/demo-free/usage?start=2026-02-01&end=2026-01-01')
    await bad('/platform/organizations/demo-free/usage?start=2026-01-01')
    await bad('/platform/organizations/demo-free/usage/daily?start=2024-01-01&end=2026-01-01')
    await bad('/platform/organizations/demo-free/usage/daily?start=2026-01-01&end=2026-01-02&project_ref=NOPE')
    await bad(`/platform/projects/${recipes.ref}/logs/requests?status=6xx`)
    await bad(`/platform/projects/${recipes.ref}/logs/requests?limit=0`)
    await bad(`/platform/projects/${recipes.ref}/logs/requests?limit=ten`)
  })

  it("another organization's usage, project and log are 404", async () => {
    const q = new URLSearchParams(period()).toString()
    for (const path of [
      `/platform/organizations/${foreign.slug}/usage?${q}`,
      `/platform/organizations/${foreign.slug}/usage/daily?${q}`,
      `/platform/organizations/demo-free/usage?${q}&project_ref=${storefront}`,
      `/platform/organizations/demo-free/usage/daily?${q}&project_ref=${foreign.ref}`,
      `/platform/projects/${foreign.ref}/logs/requests`,
    ]) {
      expect((await s.request(path, { headers: { cookie: owner } })).status, path).toBe(404)
    }
    expect((await s.request(`/platform/projects/${recipes.ref}/logs/requests`)).status).toBe(401)
  })
})

describe('a restart', () => {
  it('keeps the counts: they are written when the server closes', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const config = testConfig({ ...store.placement, usageFlushMs: 0 })
      const clock = new FakeClock()
      const first = await createApp({ db, config, clock })
      const project = (await db.query<{ id: number; ref: string }>(`select id, ref from projects where name = 'Recipe Box'`)).rows[0]
      const key = (await findProjectKeys(db, project.id))?.anon_key ?? ''
      let bytes = 0
      for (let i = 0; i < 3; i++) {
        const res = await first.app.request(`/p/${project.ref}/rest/v1/recipes?select=title`, { headers: { apikey: key } })
        bytes += Buffer.byteLength(await res.text())
      }
      // Counted in memory only until then.
      expect((await db.query('select * from project_usage_daily')).rows).toEqual([])
      await first.close()
      const again = await createApp({ db, config, clock })
      try {
        const day = clock.now().toISOString().slice(0, 10)
        const { rows } = await db.query<{ requests: number; egress_bytes: number }>(
          'select requests::int as requests, egress_bytes::int as egress_bytes from project_usage_daily where project_id = $1 and day = $2',
          [project.id, day],
        )
        expect(rows).toEqual([{ requests: 3, egress_bytes: bytes }])
        expect((await db.query('select count(*)::int as n from project_request_log')).rows).toEqual([{ n: 3 }])
      } finally {
        await again.close()
      }
    } finally {
      await store.destroy()
    }
  }, 120_000)
})
