/**
 * Organization settings through PATCH /platform/organizations/{slug} and the AI settings through
 * /platform/projects/{ref}/ai-settings: rename, the AI_SQL opt-in, the permission read from the role on each request
 * (Owner and Administrator may; Developer and Read-only 403), bad input 400, not a member 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PermissionsResponse } from '../../src/contracts/session'
import { Organization } from '../../src/contracts/organizations'
import { AiSettings } from '../../src/contracts/orgSettings'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
let developer: string
let readonly: string
let recipes: string
let foreign: { slug: string; ref: string }

const patch = (slug: string, body: unknown, cookie = owner) =>
  s.request(`/platform/organizations/${slug}`, { method: 'PATCH', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })
const put = (ref: string, body: unknown, cookie = owner) =>
  s.request(`/platform/projects/${ref}/ai-settings`, { method: 'PUT', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })

async function getOrganization(slug: string, cookie = owner) {
  const res = await s.request(`/platform/organizations/${slug}`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return Organization.parse(await res.json())
}

async function getAi(ref: string, cookie = owner) {
  const res = await s.request(`/platform/projects/${ref}/ai-settings`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return AiSettings.parse(await res.json())
}

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = (await res.json()) as { message: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

async function setRole(email: string, slug: string, role: string) {
  await s.db.query(
    `update members set role = $3 where account_id = (select id from accounts where primary_email = $1)
       and organization_id = (select id from organizations where slug = $2)`,
    [email, slug, role],
  )
}

beforeAll(async () => {
  s = await startTestServer()
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  recipes = (await projectByName(s, 'Recipe Box')).ref
  foreign = await insertForeignOrganization(s.db)
}, 120_000)
afterAll(() => s?.close())

describe('PATCH /platform/organizations/{slug}', () => {
  it('renames the organization (trimmed), and every read shows the new name', async () => {
    const res = await patch('demo-free', { name: '  Free Tier Co  ' })
    expect(res.status).toBe(200)
    expect(Organization.parse(await res.json())).toMatchObject({ slug: 'demo-free', name: 'Free Tier Co', plan: { id: 'free' } })
    expect((await getOrganization('demo-free', developer)).name).toBe('Free Tier Co')
    const list = (await (await s.request('/platform/organizations', { headers: { cookie: readonly } })).json()) as Organization[]
    expect(list.find((o) => o.slug === 'demo-free')?.name).toBe('Free Tier Co')
    await patch('demo-free', { name: 'Demo Free Org' })
  })

  it('opts the organization in to AI_SQL and out again; the slug never changes', async () => {
    let res = await patch('demo-free', { opt_in_tags: ['AI_SQL', 'AI_SQL'] })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ slug: 'demo-free', name: 'Demo Free Org', opt_in_tags: ['AI_SQL'] })
    expect((await getOrganization('demo-free')).opt_in_tags).toEqual(['AI_SQL'])
    // The Management API names it AI_SQL_GENERATOR_OPT_IN.
    const v1 = (await (await s.request('/v1/organizations/demo-free', { headers: { cookie: owner } })).json()) as { opt_in_tags: string[] }
    expect(v1.opt_in_tags).toEqual(['AI_SQL_GENERATOR_OPT_IN'])
    res = await patch('demo-free', { opt_in_tags: [] })
    expect(res.status).toBe(200)
    expect((await getOrganization('demo-free')).opt_in_tags).toEqual([])
  })

  it('changes name and opt-ins together', async () => {
    const res = await patch('demo-pro', { name: 'Pro Co', opt_in_tags: [] })
    expect(await res.json()).toMatchObject({ name: 'Pro Co', opt_in_tags: [] })
    await patch('demo-pro', { name: 'Demo Pro Org', opt_in_tags: ['AI_SQL'] })
    expect(await getOrganization('demo-pro')).toMatchObject({ name: 'Demo Pro Org', opt_in_tags: ['AI_SQL'] })
  })

  it('refuses a Developer and a Read-only member with 403 and changes nothing', async () => {
    for (const cookie of [developer, readonly]) {
      await expectError(await patch('demo-free', { name: 'Hijacked' }, cookie), 403, "You need additional permissions to change this organization's settings")
      await expectError(await patch('demo-free', { opt_in_tags: ['AI_SQL'] }, cookie), 403, /additional permissions/)
    }
    expect(await getOrganization('demo-free')).toMatchObject({ name: 'Demo Free Org', opt_in_tags: [] })
  })

  it('reads the role on every request: an Administrator may, and the permission list says so', async () => {
    await setRole(DEVELOPER, 'demo-free', 'Administrator')
    try {
      const perms = PermissionsResponse.parse(await (await s.request('/platform/profile/permissions', { headers: { cookie: developer } })).json())
      expect(perms.find((p) => p.organization_slug === 'demo-free')?.permissions).toContain('organizations:write')
      expect(perms.find((p) => p.organization_slug === 'demo-pro')?.permissions).not.toContain('organizations:write')
      expect((await patch('demo-free', { name: 'Renamed by admin' }, developer)).status).toBe(200)
    } finally {
      await setRole(DEVELOPER, 'demo-free', 'Developer')
      await patch('demo-free', { name: 'Demo Free Org' })
    }
    await expectError(await patch('demo-free', { name: 'Again' }, developer), 403, /additional permissions/)
  })

  it.each([
    [{ name: '' }, 'name: Organization name is required'],
    [{ name: '    ' }, 'name: Organization name is required'],
    [{ name: 'x'.repeat(65) }, 'name: Organization name must be at most 64 characters'],
    [{ name: 'tab\there' }, 'name: Organization name cannot contain control characters'],
    [{ name: 42 }, /^name: /],
    [{ opt_in_tags: ['AI_EVERYTHING'] }, /^opt_in_tags\.0: /],
    [{ opt_in_tags: 'AI_SQL' }, /^opt_in_tags: /],
    [{}, 'Nothing to change: give name or opt_in_tags'],
    [{ name: 'Fine', plan: 'pro' }, /plan/],
    [{ slug: 'new-slug' }, /slug/],
  ])('answers 400 to %j', async (body, message) => {
    await expectError(await patch('demo-free', body), 400, message)
    expect(await getOrganization('demo-free')).toMatchObject({ slug: 'demo-free', name: 'Demo Free Org', opt_in_tags: [] })
  })

  it('answers 400 to a body that is not JSON', async () => {
    const res = await s.request('/platform/organizations/demo-free', { method: 'PATCH', headers: { 'content-type': 'application/json', cookie: owner }, body: '{"name":' })
    expect(res.status).toBe(400)
  })

  it("answers 404 for an organization the person is not a member of, and 400 for a bad slug", async () => {
    await expectError(await patch(foreign.slug, { name: 'Mine now' }), 404, 'Organization not found')
    await expectError(await patch('bad%20slug', { name: 'x' }), 400, 'slug is required')
  })

  it('needs a session', async () => {
    const res = await s.request('/platform/organizations/demo-free', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })
    expect(res.status).toBe(401)
  })
})

describe('/platform/projects/{ref}/ai-settings', () => {
  it("is off until saved, and carries the organization's opt-in", async () => {
    expect(await getAi(recipes)).toEqual({ send_anonymous_schema_metadata: false, organization_slug: 'demo-free', organization_opt_in_tags: [] })
  })

  it("keeps each person's own setting per project", async () => {
    const res = await put(recipes, { send_anonymous_schema_metadata: true })
    expect(res.status).toBe(200)
    expect(AiSettings.parse(await res.json()).send_anonymous_schema_metadata).toBe(true)
    expect((await getAi(recipes)).send_anonymous_schema_metadata).toBe(true)
    expect((await getAi(recipes, developer)).send_anonymous_schema_metadata).toBe(false)
    const storefront = (await projectByName(s, 'Acme Storefront')).ref
    expect(await getAi(storefront)).toEqual({ send_anonymous_schema_metadata: false, organization_slug: 'demo-pro', organization_opt_in_tags: ['AI_SQL'] })
    expect((await put(recipes, { send_anonymous_schema_metadata: false })).status).toBe(200)
    expect((await getAi(recipes)).send_anonymous_schema_metadata).toBe(false)
  })

  it('follows the organization opting in at once', async () => {
    await patch('demo-free', { opt_in_tags: ['AI_SQL'] })
    expect((await getAi(recipes, readonly)).organization_opt_in_tags).toEqual(['AI_SQL'])
    await patch('demo-free', { opt_in_tags: [] })
    expect((await getAi(recipes, readonly)).organization_opt_in_tags).toEqual([])
  })

  it('lets a Read-only member keep a setting of their own (it changes nothing of the project)', async () => {
    expect((await put(recipes, { send_anonymous_schema_metadata: true }, readonly)).status).toBe(200)
    expect((await getAi(recipes, readonly)).send_anonymous_schema_metadata).toBe(true)
  })

  it.each([
    [{}, /^send_anonymous_schema_metadata: /],
    [{ send_anonymous_schema_metadata: 'yes' }, /^send_anonymous_schema_metadata: /],
    [{ send_anonymous_schema_metadata: true, extra: 1 }, /extra/],
  ])('answers 400 to %j', async (body, message) => {
    await expectError(await put(recipes, body), 400, message)
  })

  it('answers 404 for a project of another organization and 400 for a bad ref', async () => {
    await expectError(await put(foreign.ref, { send_anonymous_schema_metadata: true }), 404, 'Project not found')
    await expectError(await s.request(`/platform/projects/${foreign.ref}/ai-settings`, { headers: { cookie: owner } }), 404, 'Project not found')
    await expectError(await put('NOT-A-REF', { send_anonymous_schema_metadata: true }), 400, 'Project ref is required')
  })
})
