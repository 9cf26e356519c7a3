/** GET /v1/projects and /v1/organizations against the Management API's own OpenAPI document (OpenAPI 3.0, `nullable`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V1OrganizationDetail, V1OrganizationList, V1ProjectList } from '../../src/contracts/v1'
import { OWNER, insertForeignOrganization, projectByName, startTestServer, type TestServer } from './helpers'
import { expectValid, responseValidator, validatorFor } from './openapi'

let s: TestServer
let token: string
beforeAll(async () => {
  s = await startTestServer()
  const cookie = await s.signIn(OWNER)
  const res = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'contract test' }),
  })
  token = ((await res.json()) as { token: string }).token
})
afterAll(() => s?.close())

describe('GET /v1/projects', () => {
  it('every item validates against V1ProjectWithDatabaseResponse', async () => {
    const validate = validatorFor('V1ProjectWithDatabaseResponse')
    const res = await s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const items = (await res.json()) as unknown[]
    expect(items.length).toBeGreaterThanOrEqual(11)
    for (const item of items) {
      const ok = validate(item)
      expect(validate.errors ?? [], JSON.stringify(item)).toEqual([])
      expect(ok).toBe(true)
    }
    V1ProjectList.parse(items)
  })

  it('maps RESTORATION_FAILED to RESTORE_FAILED and reports the engine', async () => {
    const items = V1ProjectList.parse(
      await (await s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })).json(),
    )
    const failed = items.find((p) => p.name === 'Support Desk')
    expect(failed?.status).toBe('RESTORE_FAILED')
    const legacy = items.find((p) => p.name === 'Legacy Blog')
    expect(legacy?.database).toMatchObject({ version: '14.1', postgres_engine: '14', release_channel: 'ga' })
    expect(typeof legacy?.organization_id).toBe('string')
  })

  it('GET /v1/projects/{ref} answers the same item shape; unknown → 404; bad ref → 400', async () => {
    const validate = validatorFor('V1ProjectWithDatabaseResponse')
    const { ref } = await projectByName(s, 'Recipe Box')
    const auth = { authorization: `Bearer ${token}` }
    const res = await s.request(`/v1/projects/${ref}`, { headers: auth })
    expect(res.status).toBe(200)
    const item = await res.json()
    expect(validate(item), JSON.stringify(validate.errors)).toBe(true)
    expect((await s.request('/v1/projects/aaaaaaaaaaaaaaaaaaaa', { headers: auth })).status).toBe(404)
    const bad = await s.request('/v1/projects/Bad_Ref', { headers: auth })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: 'Project ref is required' })
  })
})

describe('GET /v1/organizations', () => {
  // An organization none of the demo accounts belongs to.
  beforeAll(() => insertForeignOrganization(s.db))

  it("lists the caller's organizations as OrganizationResponseV1 (id carries the slug); not others'", async () => {
    const res = await s.request('/v1/organizations', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expectValid(responseValidator('/v1/organizations'), body)
    expect(V1OrganizationList.parse(body)).toEqual([
      { id: 'demo-free', slug: 'demo-free', name: 'Demo Free Org' },
      { id: 'demo-pro', slug: 'demo-pro', name: 'Demo Pro Org' },
    ])
  })

  it('GET /v1/organizations/{slug} answers V1OrganizationSlugResponse, AI_SQL as AI_SQL_GENERATOR_OPT_IN', async () => {
    const validate = responseValidator('/v1/organizations/{slug}')
    const auth = { authorization: `Bearer ${token}` }
    const pro = await (await s.request('/v1/organizations/demo-pro', { headers: auth })).json()
    expectValid(validate, pro)
    expect(V1OrganizationDetail.parse(pro)).toEqual({
      id: 'demo-pro',
      name: 'Demo Pro Org',
      plan: 'pro',
      opt_in_tags: ['AI_SQL_GENERATOR_OPT_IN'],
      allowed_release_channels: ['ga'],
    })
    const free = await (await s.request('/v1/organizations/demo-free', { headers: auth })).json()
    expectValid(validate, free)
    expect(free).toMatchObject({ plan: 'free', opt_in_tags: [] })
  })

  it('drops a tag the contract has no name for', async () => {
    await s.db.query(`update organizations set opt_in_tags = '["AI_SQL", "SOMETHING_ELSE"]'::jsonb where slug = 'demo-free'`)
    try {
      const free = await (await s.request('/v1/organizations/demo-free', { headers: { authorization: `Bearer ${token}` } })).json()
      expect(free).toMatchObject({ opt_in_tags: ['AI_SQL_GENERATOR_OPT_IN'] })
    } finally {
      await s.db.query(`update organizations set opt_in_tags = '[]'::jsonb where slug = 'demo-free'`)
    }
  })

  it("another organization, or none, is 404; a bad slug 400; no token 401", async () => {
    const auth = { authorization: `Bearer ${token}` }
    for (const slug of ['someone-elses-org', 'no-such-org']) {
      const res = await s.request(`/v1/organizations/${slug}`, { headers: auth })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: 'Organization not found' })
    }
    const bad = await s.request('/v1/organizations/bad%20slug', { headers: auth })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: 'slug is required' })
    expect((await s.request('/v1/organizations')).status).toBe(401)
  })
})
