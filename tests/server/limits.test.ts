/**
 * Limits that keep one person from filling the platform: projects (the free project limit at creation as at
 * restore, checked under the same lock; the organization's disk cap), sign-ups per client address, support tickets
 * per day under parallel requests, sign-in failures counted per (account, address) pair first, and personal access
 * tokens that always expire. The same file runs on PGlite and on PostgreSQL 15.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CreatedAccessToken } from '../../src/contracts/session'
import { loadConfig } from '../../src/server/config'
import { migrate, migrations } from '../../src/server/db/migrate'
import { sha256 } from '../../src/server/core/secrets'
import { DEMO_PASSWORD, OWNER, cookieFrom, createTestStore, json, startTestServer, type TestServer } from './helpers'

const LIMIT = 2
const MiB = 1024 ** 2

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ config: { freeProjectLimit: LIMIT, orgMaxDatabaseBytes: 100 * MiB } })
})
afterAll(() => s?.close())

/** A request as if over a socket from `address` (what @hono/node-server hands the app as its env). */
const from = (address: string, path: string, init: RequestInit) =>
  Promise.resolve(s.app.request(path, init, { incoming: { socket: { remoteAddress: address } } }))

let people = 0
/** A new person with a personal free organization; its slug and a session. */
async function newPerson() {
  const res = await from(`192.0.2.${++people}`, '/platform/auth/sign-up', json({ email: `limit-${people}@example.com`, password: 'long enough' }))
  expect(res.status).toBe(201)
  const cookie = cookieFrom(res)
  const orgs = (await (await s.request('/platform/organizations', { headers: { cookie } })).json()) as Array<{ slug: string }>
  return { cookie, slug: orgs[0].slug }
}

const createProject = (cookie: string, slug: string, name: string) =>
  s.request('/v1/projects', json({ name, organization_slug: slug, db_pass: 'irrelevant' }, { cookie }))

const projectsOf = async (slug: string) =>
  (
    await s.db.query<{ n: number }>(
      `select count(*)::int as n from projects p join organizations o on o.id = p.organization_id where o.slug = $1`,
      [slug],
    )
  ).rows[0].n

describe('project creation and the free project limit', () => {
  it(`of 10 creations in a free organization, ${LIMIT} are made and the others answer 409 free_project_limit, as a restore would`, async () => {
    const { cookie, slug } = await newPerson()
    const statuses: number[] = []
    let refusal: unknown
    for (let i = 0; i < 10; i++) {
      const res = await createProject(cookie, slug, `Project ${i}`)
      statuses.push(res.status)
      if (res.status === 409) refusal = await res.json()
    }
    expect(statuses).toEqual([201, 201, ...Array(8).fill(409)])
    expect(refusal).toEqual({
      code: 'free_project_limit',
      message: expect.stringMatching(new RegExp(`^Members of this organization have reached the free project limit of ${LIMIT}: limit-\\d+ \\(limit-\\d+@example\\.com\\)\\. Delete, pause or upgrade a project first\\.$`)),
    })
    expect(await projectsOf(slug)).toBe(LIMIT)
    // The dashboard's list of members at the limit says the same.
    const atLimit = await s.request(`/platform/organizations/${slug}/members/reached-free-project-limit`, { headers: { cookie } })
    expect(((await atLimit.json()) as unknown[]).length).toBe(1)
  })

  it('10 parallel creations in a free organization make exactly the limit (the check holds the members’ locks)', async () => {
    for (let round = 0; round < 3; round++) {
      const { cookie, slug } = await newPerson()
      const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => createProject(cookie, slug, `Parallel ${round}-${i}`).then((r) => r.status)))
      expect(statuses.filter((n) => n === 201)).toHaveLength(LIMIT)
      expect(statuses.filter((n) => n === 409)).toHaveLength(10 - LIMIT)
      expect(await projectsOf(slug)).toBe(LIMIT)
    }
  })

  it('a paused project does not count: pausing one makes room for one more', async () => {
    const { cookie, slug } = await newPerson()
    for (let i = 0; i < LIMIT; i++) expect((await createProject(cookie, slug, `Room ${i}`)).status).toBe(201)
    expect((await createProject(cookie, slug, 'One too many')).status).toBe(409)
    await s.db.query(
      `update projects set status = 'INACTIVE' where id = (select p.id from projects p join organizations o on o.id = p.organization_id
       where o.slug = $1 order by p.id limit 1)`,
      [slug],
    )
    expect((await createProject(cookie, slug, 'Now there is room')).status).toBe(201)
  })
})

describe("the organization's disk cap", () => {
  it('refuses a new project once the measured sizes of its databases reach ORG_MAX_DATABASE_BYTES', async () => {
    const owner = await s.signIn(OWNER)
    const { rows } = await s.db.query<{ id: number }>(
      `select p.id from projects p join organizations o on o.id = p.organization_id where o.slug = 'demo-pro' order by p.id limit 2`,
    )
    const measure = (projectId: number, day: string, bytes: number) =>
      s.db.query(
        `insert into project_usage_daily (project_id, day, database_size_bytes) values ($1, $2::date, $3)
         on conflict (project_id, day) do update set database_size_bytes = excluded.database_size_bytes`,
        [projectId, day, bytes],
      )
    // An older, larger figure is superseded by the latest one of each project.
    await measure(rows[0].id, '2020-01-01', 500 * MiB)
    await measure(rows[0].id, '2020-01-02', 40 * MiB)
    await measure(rows[1].id, '2020-01-02', 40 * MiB)
    expect((await createProject(owner, 'demo-pro', 'Under the cap')).status).toBe(201)

    await measure(rows[1].id, '2020-01-03', 60 * MiB)
    const refused = await createProject(owner, 'demo-pro', 'Over the cap')
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      code: 'database_size_limit',
      message: "This organization's project databases use 100 MB, at or over its limit of 100 MB: delete a project or free space in one before creating another.",
    })
    const { rows: made } = await s.db.query(`select 1 from projects where name = 'Over the cap'`)
    expect(made).toEqual([])
  })

  it('is a setting: ORG_MAX_DATABASE_BYTES (1 GiB by default, 0 for none)', () => {
    expect(loadConfig({}).orgMaxDatabaseBytes).toBe(1024 ** 3)
    expect(loadConfig({ ORG_MAX_DATABASE_BYTES: '0' }).orgMaxDatabaseBytes).toBe(0)
    expect(() => loadConfig({ ORG_MAX_DATABASE_BYTES: '-1' })).toThrow(/ORG_MAX_DATABASE_BYTES/)
  })
})

describe('sign-ups per client address', () => {
  it('of 25 sign-ups in a row from one address, 5 succeed and the others answer 429 with Retry-After; another address is not affected', async () => {
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 25; i++) {
      last = await from('203.0.113.20', '/platform/auth/sign-up', json({ email: `burst-${i}@example.com`, password: 'long enough' }))
      statuses.push(last.status)
    }
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(20).fill(429)])
    const retryAfter = Number(last!.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(((await last!.json()) as { message: string }).message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/)
    const { rows } = await s.db.query<{ n: number }>(`select count(*)::int as n from accounts where primary_email like 'burst-%'`)
    expect(rows[0].n).toBe(5)
    expect((await from('203.0.113.21', '/platform/auth/sign-up', json({ email: 'elsewhere@example.com', password: 'long enough' }))).status).toBe(201)
    // The window ends: the address may sign up again.
    s.clock.advance(s.config.signInThrottle.windowMs)
    expect((await from('203.0.113.20', '/platform/auth/sign-up', json({ email: 'burst-later@example.com', password: 'long enough' }))).status).toBe(201)
  })

  it('counts the address sign-in counts: behind a trusted proxy, the last X-Forwarded-For entry', async () => {
    const proxied = await startTestServer({ config: { trustProxy: true } })
    try {
      const signUp = (i: number, xff: string) =>
        proxied.app.request('/platform/auth/sign-up', json({ email: `proxied-${i}@example.com`, password: 'long enough' }, { 'x-forwarded-for': xff }), {
          incoming: { socket: { remoteAddress: '127.0.0.1' } },
        })
      const statuses: number[] = []
      // The client writes the left entries; changing them does not make a new address.
      for (let i = 0; i < 6; i++) statuses.push((await signUp(i, `10.9.9.${i}, 203.0.113.30`)).status)
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
      expect((await signUp(7, '203.0.113.31')).status).toBe(201)
    } finally {
      await proxied.close()
    }
  })
})

describe('support tickets', () => {
  it('of 120 tickets sent at once, exactly the daily limit of 50 are kept; the others answer 429', async () => {
    const { cookie } = await newPerson()
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        s.request('/platform/support/tickets', json({ category: 'Problem', subject: `Ticket ${i}`, message: 'Help' }, { cookie })).then((r) => r.status),
      ),
    )
    expect(answers.filter((n) => n === 201)).toHaveLength(50)
    expect(answers.filter((n) => n === 429)).toHaveLength(70)
    const list = (await (await s.request('/platform/support/tickets', { headers: { cookie } })).json()) as unknown[]
    expect(list).toHaveLength(50)
  })
})

describe('sign-in failures counted per (account, address) pair', () => {
  const signIn = (address: string, password: string) => from(address, '/platform/auth/sign-in', json({ email: OWNER, password }))

  it("a stranger's five wrong guesses lock the stranger's pair only: the owner signs in from their own address", async () => {
    await s.db.query('delete from sign_in_failures')
    for (let i = 0; i < 5; i++) expect((await signIn('198.51.100.66', 'wrong')).status).toBe(401)
    const stranger = await signIn('198.51.100.66', DEMO_PASSWORD)
    expect(stranger.status).toBe(429)
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await signIn('192.0.2.200', DEMO_PASSWORD)).status).toBe(200)
    // The owner's success does not free the stranger.
    expect((await signIn('198.51.100.66', DEMO_PASSWORD)).status).toBe(429)
  })

  it('failures spread over many addresses still lock the account, at SIGN_IN_MAX_FAILURES_PER_ACCOUNT (100)', async () => {
    await s.db.query('delete from sign_in_failures')
    expect(s.config.signInThrottle.maxPerAccount).toBe(100)
    for (let a = 0; a < 20; a++) {
      for (let i = 0; i < 5; i++) expect((await signIn(`198.51.100.${a + 1}`, 'wrong')).status).toBe(401)
    }
    const res = await signIn('192.0.2.201', DEMO_PASSWORD)
    expect(res.status).toBe(429)
    s.clock.advance(Number(res.headers.get('retry-after')) * 1000)
    expect((await signIn('192.0.2.201', DEMO_PASSWORD)).status).toBe(200)
  })

  it('the settings: 5 per pair, 100 per account, 20 per address, 5 sign-ups per address', () => {
    expect(loadConfig({}).signInThrottle).toEqual({ windowMs: 900_000, maxPerPair: 5, maxPerAccount: 100, maxPerAddress: 20, maxSignUpsPerAddress: 5 })
    const set = loadConfig({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ADDRESS: '3', SIGN_UP_MAX_PER_ADDRESS: '2' }).signInThrottle
    expect([set.maxPerPair, set.maxSignUpsPerAddress]).toEqual([3, 2])
  })
})

describe('personal access tokens expire', () => {
  it('a token asked without an expiry (absent or null) expires after ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS, then answers 401', async () => {
    const short = await startTestServer({ config: { accessTokenDefaultExpiryDays: 7 } })
    try {
      const cookie = await short.signIn(OWNER)
      for (const body of [{ name: 'absent' }, { name: 'null', expires_in_days: null }]) {
        const res = await short.request('/platform/profile/access-tokens', json(body, { cookie }))
        expect(res.status).toBe(201)
        const token = CreatedAccessToken.parse(await res.json())
        expect(token.expires_at, body.name).toBe(new Date(short.clock.ms + 7 * 86_400_000).toISOString())
      }
      const token = CreatedAccessToken.parse(await (await short.request('/platform/profile/access-tokens', json({ name: 'used' }, { cookie }))).json())
      const v1 = () => short.request('/v1/projects', { headers: { authorization: `Bearer ${token.token}` } })
      expect((await v1()).status).toBe(200)
      short.clock.advance(7 * 86_400_000)
      expect((await v1()).status).toBe(401)
    } finally {
      await short.close()
    }
  })

  it('ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS is 90 by default, 1 to 365', () => {
    expect(loadConfig({}).accessTokenDefaultExpiryDays).toBe(90)
    expect(loadConfig({ ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS: '30' }).accessTokenDefaultExpiryDays).toBe(30)
    expect(() => loadConfig({ ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS: '0' })).toThrow(/ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS/)
    expect(() => loadConfig({ ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS: '366' })).toThrow(/at most 365/)
  })

  it('the migration gives a store’s never-expiring tokens 90 days from now and verifies only the demo accounts', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const index = migrations.findIndex((m) => m.id === '017_verified_emails_token_expiry')
      expect(index).toBeGreaterThan(0)
      await db.transaction(async (tx) => {
        await tx.exec('create table schema_migrations (id text primary key, applied_at timestamptz not null default now())')
        for (const m of migrations.slice(0, index)) {
          await tx.exec(m.sql)
          await tx.query('insert into schema_migrations (id) values ($1)', [m.id])
        }
      })
      const { rows: accounts } = await db.query<{ id: number; primary_email: string }>(
        `insert into accounts (username, primary_email, password_hash) values ('owner', $1, 'x'), ('someone', 'someone@example.org', 'x')
         returning id, primary_email`,
        [OWNER],
      )
      await db.query(
        `insert into access_tokens (account_id, name, token_hash, token_alias, created_at, expires_at)
         values ($1, 'forever', $2, 'a', now(), null), ($1, 'dated', $3, 'b', now(), '2030-01-01T00:00:00Z')`,
        [accounts[0].id, sha256('forever'), sha256('dated')],
      )
      expect(await migrate(db)).toEqual(migrations.slice(index).map((m) => m.id))
      const { rows } = await db.query<{ name: string; expires_at: Date | string }>('select name, expires_at from access_tokens order by name')
      const days = (d: Date | string) => (new Date(d).getTime() - Date.now()) / 86_400_000
      expect(rows.map((r) => r.name)).toEqual(['dated', 'forever'])
      expect(new Date(rows[0].expires_at).toISOString()).toBe('2030-01-01T00:00:00.000Z')
      expect(days(rows[1].expires_at)).toBeGreaterThan(89.9)
      expect(days(rows[1].expires_at)).toBeLessThanOrEqual(90)
      const { rows: verified } = await db.query<{ primary_email: string; verified: boolean }>(
        'select primary_email, email_verified_at is not null as verified from accounts order by id',
      )
      expect(verified).toEqual([
        { primary_email: OWNER, verified: true },
        { primary_email: 'someone@example.org', verified: false },
      ])
    } finally {
      await db.close()
      await store.destroy()
    }
  })
})
