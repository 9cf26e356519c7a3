/**
 * The subscription plan through GET …/billing/plans and PUT …/billing/subscription: the plans offered, the change
 * (Owner and Administrator only, read from the role on each request), bad input, and what the plan gates following
 * at once — the free project limit on restoring a paused project (the seed's Owner starts over it in Demo Free Org),
 * usage billing and the usage records behind the 'Exceeding usage limits' badge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { showsUsageBadge } from '../../machines/resourceWarnings.machine'
import type { PlanId } from '../../src/contracts/common'
import { MembersReachedFreeProjectLimit } from '../../src/contracts/pause'
import { Subscription } from '../../src/contracts/organizations'
import { PlanList } from '../../src/contracts/orgSettings'
import { OrgUsageResponse } from '../../src/contracts/usage'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
let developer: string
let readonly: string

const subscriptionUrl = (slug: string) => `/platform/organizations/${slug}/billing/subscription`
const change = (slug: string, body: unknown, cookie = owner) =>
  s.request(subscriptionUrl(slug), { method: 'PUT', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })

async function subscription(slug: string, cookie = owner) {
  const res = await s.request(subscriptionUrl(slug), { headers: { cookie } })
  expect(res.status).toBe(200)
  return Subscription.parse(await res.json())
}

async function membersAtLimit(slug: string) {
  const res = await s.request(`/platform/organizations/${slug}/members/reached-free-project-limit`, { headers: { cookie: owner } })
  return MembersReachedFreeProjectLimit.parse(await res.json())
}

async function badgeShows(slug: string) {
  const res = await s.request(`/platform/organizations/${slug}/usage?start=2026-01-01&end=2026-12-31`, { headers: { cookie: owner } })
  expect(res.status).toBe(200)
  const { usages } = OrgUsageResponse.parse(await res.json())
  return showsUsageBadge({ subscription: await subscription(slug), usages })
}

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = (await res.json()) as { message: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

async function planOf(slug: string): Promise<PlanId> {
  const { rows } = await s.db.query<{ plan_id: PlanId }>('select plan_id from organizations where slug = $1', [slug])
  return rows[0].plan_id
}

beforeAll(async () => {
  s = await startTestServer({ config: { freeProjectLimit: 2 } })
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
}, 120_000)
afterAll(() => s?.close())

describe('GET /platform/organizations/{slug}/billing/plans', () => {
  it('lists free, pro and team, the free plan naming the free project limit', async () => {
    const res = await s.request('/platform/organizations/demo-free/billing/plans', { headers: { cookie: readonly } })
    expect(res.status).toBe(200)
    const { plans } = PlanList.parse(await res.json())
    expect(plans.map((p) => [p.id, p.name, p.price_monthly])).toEqual([
      ['free', 'Free', 0],
      ['pro', 'Pro', 25],
      ['team', 'Team', 599],
    ])
    expect(plans[0].features).toContain('Each member may have 2 active free projects')
  })

  it('answers 404 outside the person’s organizations', async () => {
    const foreign = await insertForeignOrganization(s.db)
    await expectError(await s.request(`/platform/organizations/${foreign.slug}/billing/plans`, { headers: { cookie: owner } }), 404, 'Organization not found')
    await expectError(await change(foreign.slug, { plan: 'free' }), 404, 'Organization not found')
  })
})

describe('PUT /platform/organizations/{slug}/billing/subscription', () => {
  it('upgrading Demo Free Org to pro lifts the free project limit at once: the paused project restores', async () => {
    const paused = await projectByName(s, 'Weekend Hackathon')
    expect(paused.status).toBe('INACTIVE')
    expect((await membersAtLimit('demo-free')).map((m) => m.primary_email)).toEqual([OWNER])
    const refused = await s.request(`/platform/projects/${paused.ref}/restore`, { method: 'POST', headers: { cookie: owner } })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { code: string }).code).toBe('free_project_limit')

    const res = await change('demo-free', { plan: 'pro' })
    expect(res.status).toBe(200)
    expect(Subscription.parse(await res.json())).toEqual({ plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false })
    expect(await subscription('demo-free', readonly)).toEqual({ plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false })
    const org = (await (await s.request('/platform/organizations/demo-free', { headers: { cookie: developer } })).json()) as { plan: { id: string } }
    expect(org.plan.id).toBe('pro')

    expect(await membersAtLimit('demo-free')).toEqual([])
    const restored = await s.request(`/platform/projects/${paused.ref}/restore`, { method: 'POST', headers: { cookie: owner } })
    expect(restored.status).toBe(200)
    expect((await projectByName(s, 'Weekend Hackathon')).status).toBe('RESTORING')
  })

  it('downgrading back to free brings the limit back for the next restore', async () => {
    expect((await change('demo-free', { plan: 'free' })).status).toBe(200)
    expect((await subscription('demo-free')).plan.id).toBe('free')
    expect((await membersAtLimit('demo-free')).map((m) => m.primary_email)).toEqual([OWNER])
  })

  it("moves the 'Exceeding usage limits' badge data: free over quota shows it, pro's quota and team's usage billing do not", async () => {
    const recipes = await projectByName(s, 'Recipe Box')
    const set = await s.request(`/dev/projects/${recipes.ref}/usage`, json({ metric: 'EGRESS', usage: 12 }))
    expect(set.status).toBeLessThan(300)
    expect(await badgeShows('demo-free')).toBe(true)
    await change('demo-free', { plan: 'pro' })
    expect(await badgeShows('demo-free')).toBe(false)
    await change('demo-free', { plan: 'team' })
    expect(await subscription('demo-free')).toEqual({ plan: { id: 'team', name: 'Team' }, usage_billing_enabled: true })
    expect(await badgeShows('demo-free')).toBe(false)
    await change('demo-free', { plan: 'free' })
    expect(await badgeShows('demo-free')).toBe(true)
    await s.request(`/dev/projects/${recipes.ref}/usage`, json({ metric: 'EGRESS', usage: 0 }))
  })

  it('records when the plan changed, and not for choosing the same plan again', async () => {
    await s.db.query(`update organizations set plan_changed_at = null where slug = 'demo-pro'`)
    expect((await change('demo-pro', { plan: 'pro' })).status).toBe(200)
    const same = await s.db.query<{ plan_changed_at: unknown }>(`select plan_changed_at from organizations where slug = 'demo-pro'`)
    expect(same.rows[0].plan_changed_at).toBeNull()
    expect((await change('demo-pro', { plan: 'team' })).status).toBe(200)
    const changed = await s.db.query<{ plan_changed_at: unknown }>(`select plan_changed_at from organizations where slug = 'demo-pro'`)
    expect(changed.rows[0].plan_changed_at).not.toBeNull()
    await change('demo-pro', { plan: 'pro' })
  })

  it('refuses a Developer and a Read-only member with 403 and changes nothing', async () => {
    for (const cookie of [developer, readonly]) {
      await expectError(await change('demo-free', { plan: 'pro' }, cookie), 403, "You need additional permissions to change this organization's plan")
    }
    expect(await planOf('demo-free')).toBe('free')
  })

  it('lets an Administrator change it, read from the role on the request', async () => {
    const setRole = (role: string) =>
      s.db.query(
        `update members set role = $1 where account_id = (select id from accounts where primary_email = $2)
           and organization_id = (select id from organizations where slug = 'demo-free')`,
        [role, DEVELOPER],
      )
    await setRole('Administrator')
    try {
      expect((await change('demo-free', { plan: 'pro' }, developer)).status).toBe(200)
      expect(await planOf('demo-free')).toBe('pro')
    } finally {
      await setRole('Developer')
      await change('demo-free', { plan: 'free' })
    }
    expect((await change('demo-free', { plan: 'pro' }, developer)).status).toBe(403)
  })

  it.each([
    [{ plan: 'enterprise' }, /^plan: /],
    [{ plan: 'gold' }, /^plan: /],
    [{ plan: null }, /^plan: /],
    [{}, /^plan: /],
    [{ plan: 'pro', usage_billing_enabled: true }, /usage_billing_enabled/],
  ])('answers 400 to %j', async (body, message) => {
    await expectError(await change('demo-free', body), 400, message)
    expect(await planOf('demo-free')).toBe('free')
  })

  it('refuses to move an enterprise organization by itself (409)', async () => {
    await s.db.query(`update organizations set plan_id = 'enterprise' where slug = 'demo-pro'`)
    try {
      await expectError(await change('demo-pro', { plan: 'free' }), 409, 'An Enterprise plan is changed by arrangement, not here')
      expect(await planOf('demo-pro')).toBe('enterprise')
    } finally {
      await s.db.query(`update organizations set plan_id = 'pro' where slug = 'demo-pro'`)
    }
  })
})
