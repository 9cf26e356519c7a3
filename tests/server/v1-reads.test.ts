/**
 * The Management API's reads a client and the CLI use (profile, an organization's members and projects, a project's
 * buckets and storage settings, one API key), called with access tokens as they are, each answer validated against
 * the operation's response schema in the contract (shared/reference/management-api.openapi.json) and parsed by its
 * zod contract; other organizations' and projects' data is never reachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V1ApiKey } from '../../src/contracts/keys'
import {
  V1DatabaseContext,
  V1LegacyApiKeys,
  V1Migration,
  V1OrganizationMemberList,
  V1OrganizationProjects,
  V1Profile,
  V1StorageBucketList,
  V1StorageConfig,
} from '../../src/contracts/v1Reads'
import { insertForeignOrganization, OWNER, projectByName, READONLY, startTestServer, type TestServer } from './helpers'
import { expectValid, responseValidator } from './openapi'

let s: TestServer
let owner: Record<string, string>
let readonly: Record<string, string>
let foreign: { slug: string; ref: string }

async function tokenOf(email: string) {
  const cookie = await s.signIn(email)
  const res = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'v1 reads' }),
  })
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` }
}

beforeAll(async () => {
  s = await startTestServer()
  owner = await tokenOf(OWNER)
  readonly = await tokenOf(READONLY)
  foreign = await insertForeignOrganization(s.db)
}, 120_000)
afterAll(() => s?.close())

/** GETs `path` and checks the 200 answer against the contract's schema of `apiPath`. */
async function read(path: string, apiPath: string, headers = owner) {
  const res = await s.request(path, { headers })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  expectValid(responseValidator(apiPath), body)
  return body
}

describe('GET /v1/profile', () => {
  it("answers the token's account", async () => {
    const body = V1Profile.parse(await read('/v1/profile', '/v1/profile'))
    expect(body).toMatchObject({ primary_email: OWNER, username: 'owner' })
    expect(V1Profile.parse(await read('/v1/profile', '/v1/profile', readonly))).toMatchObject({ primary_email: READONLY, username: 'readonly' })
    const { rows } = await s.db.query<{ id: number }>('select id from accounts where primary_email = $1', [OWNER])
    expect(body.gotrue_id).toBe(String(rows[0].id))
    expect((await s.request('/v1/profile')).status).toBe(401)
  })
})

describe('GET /v1/organizations/{slug}/members', () => {
  it('lists every member with their role, for any member', async () => {
    const members = V1OrganizationMemberList.parse(await read('/v1/organizations/demo-pro/members', '/v1/organizations/{slug}/members', readonly))
    expect(members.map(({ user_name, email, role_name, mfa_enabled }) => ({ user_name, email, role_name, mfa_enabled }))).toEqual([
      { user_name: 'owner', email: OWNER, role_name: 'Owner', mfa_enabled: false },
      { user_name: 'developer', email: 'developer@example.com', role_name: 'Developer', mfa_enabled: false },
      { user_name: 'readonly', email: READONLY, role_name: 'Read-only', mfa_enabled: false },
    ])
  })

  it('a member added shows; another organization is 404; a bad slug 400', async () => {
    const { rows } = await s.db.query<{ id: number }>(
      `insert into accounts (username, primary_email, password_hash) values ('newcomer', 'newcomer@example.com', 'x') returning id`,
    )
    await s.db.query(`insert into members (organization_id, account_id, role) select id, $1, 'Developer' from organizations where slug = 'demo-free'`, [rows[0].id])
    const members = V1OrganizationMemberList.parse(await read('/v1/organizations/demo-free/members', '/v1/organizations/{slug}/members'))
    expect(members.find((m) => m.user_name === 'newcomer')).toEqual({
      user_id: String(rows[0].id),
      user_name: 'newcomer',
      email: 'newcomer@example.com',
      role_name: 'Developer',
      mfa_enabled: false,
    })
    const other = await s.request(`/v1/organizations/${foreign.slug}/members`, { headers: owner })
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ message: 'Organization not found' })
    expect((await s.request('/v1/organizations/bad%20slug/members', { headers: owner })).status).toBe(400)
  })
})

describe('GET /v1/organizations/{slug}/projects', () => {
  const path = '/v1/organizations/{slug}/projects'
  it("lists the organization's projects by name, with the count and the page", async () => {
    const body = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects', path))
    const { rows } = await s.db.query<{ name: string }>(
      `select p.name from projects p join organizations o on o.id = p.organization_id where o.slug = 'demo-pro' order by lower(p.name)`,
    )
    expect(body.projects.map((p) => p.name)).toEqual(rows.map((r) => r.name))
    expect(body.pagination).toEqual({ count: rows.length, limit: 100, offset: 0 })
    const acme = await projectByName(s, 'Acme Storefront')
    expect(body.projects.find((p) => p.ref === acme.ref)).toMatchObject({
      status: 'ACTIVE_HEALTHY',
      region: 'eu-west-1',
      is_branch: false,
      databases: [{ identifier: acme.ref, type: 'PRIMARY', status: 'ACTIVE_HEALTHY', region: 'eu-west-1' }],
    })
    expect(body.projects.find((p) => p.name === 'Support Desk')).toMatchObject({ status: 'RESTORE_FAILED', databases: [{ status: 'UNKNOWN' }] })
    expect(body.projects.some((p) => p.ref === foreign.ref)).toBe(false)
  })

  it('pages, searches, sorts and filters by status', async () => {
    const all = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?sort=created_desc', path))
    const page = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?sort=created_desc&offset=2&limit=2', path))
    expect(page.projects.map((p) => p.ref)).toEqual(all.projects.slice(2, 4).map((p) => p.ref))
    expect(page.pagination).toEqual({ count: all.projects.length, limit: 2, offset: 2 })
    const past = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?offset=50', path))
    expect(past).toEqual({ projects: [], pagination: { count: all.projects.length, limit: 100, offset: 50 } })
    const found = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?search=STORE', path))
    expect(found.projects.map((p) => p.name)).toEqual(['Acme Storefront'])
    const desc = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?sort=name_desc', path))
    expect(desc.projects.map((p) => p.name)).toEqual(all.projects.map((p) => p.name).sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())))
    const healthy = V1OrganizationProjects.parse(await read('/v1/organizations/demo-pro/projects?statuses=ACTIVE_HEALTHY,RESTORE_FAILED', path))
    expect(healthy.projects.map((p) => p.name).sort()).toEqual(['Acme Storefront', 'Support Desk'])
  })

  it('refuses bad paging, sorting and statuses with 400, and another organization with 404', async () => {
    for (const [query, message] of [
      ['limit=0', /limit must be from 1 to 100/],
      ['limit=101', /limit must be from 1 to 100/],
      ['offset=-1', /offset must be 0 or more/],
      ['sort=sideways', /sort must be/],
      ['statuses=HAPPY', /unknown status "HAPPY"/],
    ] as const) {
      const res = await s.request(`/v1/organizations/demo-pro/projects?${query}`, { headers: owner })
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(message)
    }
    expect((await s.request(`/v1/organizations/${foreign.slug}/projects`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/storage/buckets and config/storage', () => {
  it("lists the project's own buckets from its database, for any member", async () => {
    const recipes = await projectByName(s, 'Recipe Box')
    const buckets = V1StorageBucketList.parse(await read(`/v1/projects/${recipes.ref}/storage/buckets`, '/v1/projects/{ref}/storage/buckets', readonly))
    expect(buckets.map(({ id, name, public: isPublic, owner: by }) => ({ id, name, isPublic, by }))).toEqual([
      { id: 'drafts', name: 'drafts', isPublic: false, by: '' },
      { id: 'recipe-photos', name: 'recipe-photos', isPublic: true, by: '' },
    ])
    const acme = await projectByName(s, 'Acme Storefront')
    const theirs = V1StorageBucketList.parse(await read(`/v1/projects/${acme.ref}/storage/buckets`, '/v1/projects/{ref}/storage/buckets'))
    expect(theirs.map((b) => b.name)).toEqual(['invoices', 'product-images'])
  })

  it("answers the storage service's settings; a project without storage, another's or a paused one are refused", async () => {
    const recipes = await projectByName(s, 'Recipe Box')
    const config = V1StorageConfig.parse(await read(`/v1/projects/${recipes.ref}/config/storage`, '/v1/projects/{ref}/config/storage', readonly))
    expect(config).toMatchObject({ fileSizeLimit: 5 * 1024 ** 3, features: { imageTransformation: { enabled: true }, s3Protocol: { enabled: false } } })
    const legacy = await projectByName(s, 'Legacy Blog')
    for (const tail of ['storage/buckets', 'config/storage']) {
      const res = await s.request(`/v1/projects/${legacy.ref}/${tail}`, { headers: owner })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: `Tenant config for ${legacy.ref} not found` })
      expect((await s.request(`/v1/projects/${foreign.ref}/${tail}`, { headers: owner })).status).toBe(404)
    }
    const inactive = await projectByName(s, 'Weekend Hackathon')
    const paused = await s.request(`/v1/projects/${inactive.ref}/storage/buckets`, { headers: owner })
    expect(paused.status).toBe(409)
  })
})

describe('GET /v1/projects/{ref}/api-keys/{id} and api-keys/legacy', () => {
  it("answers each key of the list by its id; the service_role key only to those who may read it", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const list = (await read(`/v1/projects/${ref}/api-keys`, '/v1/projects/{ref}/api-keys')) as V1ApiKey[]
    for (const key of list) {
      expect(V1ApiKey.parse(await read(`/v1/projects/${ref}/api-keys/${key.id}`, '/v1/projects/{ref}/api-keys/{id}'))).toEqual(key)
    }
    expect(list.map((k) => k.id)).toEqual(['anon', 'service_role'])
    expect(V1ApiKey.parse(await read(`/v1/projects/${ref}/api-keys/anon`, '/v1/projects/{ref}/api-keys/{id}', readonly)).id).toBe('anon')
    const hidden = await s.request(`/v1/projects/${ref}/api-keys/service_role`, { headers: readonly })
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(await hidden.json())).not.toContain(list[1].api_key!)
    expect((await s.request(`/v1/projects/${ref}/api-keys/nope`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${foreign.ref}/api-keys/anon`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${ref}/api-keys/anon?reveal=maybe`, { headers: owner })).status).toBe(400)
    expect(V1LegacyApiKeys.parse(await read(`/v1/projects/${ref}/api-keys/legacy`, '/v1/projects/{ref}/api-keys/legacy'))).toEqual({ enabled: true })
  })
})

describe('GET /v1/projects/{ref}/config/auth', () => {
  it("answers every field in the contract's shape, db_max_pool_size_unit included", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const body = (await read(`/v1/projects/${ref}/config/auth`, '/v1/projects/{ref}/config/auth')) as Record<string, unknown>
    expect(body).toHaveProperty('db_max_pool_size_unit')
    expect([null, 'connections', 'percent']).toContain(body.db_max_pool_size_unit)
  })
})

describe('GET /v1/projects/{ref}/database/migrations/{version} and database/context', () => {
  it('answers a migration applied through the API with its name and statements; an unknown version 404, a bad one 400', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const query = 'create table v1_reads_probe (id int primary key)'
    const applied = await s.request(`/v1/projects/${ref}/database/migrations`, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ query, name: 'probe' }),
    })
    expect(applied.status).toBe(200)
    const history = (await read(`/v1/projects/${ref}/database/migrations`, '/v1/projects/{ref}/database/migrations')) as { version: string; name?: string }[]
    const mine = history.find((m) => m.name === 'probe')!
    const got = V1Migration.parse(await read(`/v1/projects/${ref}/database/migrations/${mine.version}`, '/v1/projects/{ref}/database/migrations/{version}', readonly))
    expect(got).toEqual({ version: mine.version, name: 'probe', statements: [query] })
    const missing = await s.request(`/v1/projects/${ref}/database/migrations/19990101000000`, { headers: owner })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { message: string }).message).toMatch(/no version 19990101000000/)
    expect((await s.request(`/v1/projects/${ref}/database/migrations/latest`, { headers: owner })).status).toBe(400)
    expect((await s.request(`/v1/projects/${foreign.ref}/database/migrations/${mine.version}`, { headers: owner })).status).toBe(404)
  })

  it("lists the project's schemas, a new one included, without Postgres's own", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const before = V1DatabaseContext.parse(await read(`/v1/projects/${ref}/database/context`, '/v1/projects/{ref}/database/context', readonly))
    expect(before.databases.map((d) => d.name)).toEqual(['postgres'])
    const names = before.databases[0].schemas.map((x) => x.name)
    expect(names).toEqual(expect.arrayContaining(['public', 'storage']))
    expect(names.some((n) => n.startsWith('pg_') || n === 'information_schema')).toBe(false)
    const made = await s.request(`/v1/projects/${ref}/database/query`, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'create schema reporting' }),
    })
    expect(made.status).toBe(201)
    const after = V1DatabaseContext.parse(await read(`/v1/projects/${ref}/database/context`, '/v1/projects/{ref}/database/context'))
    expect(after.databases[0].schemas.map((x) => x.name)).toEqual([...names, 'reporting'].sort())
    const inactive = await projectByName(s, 'Weekend Hackathon')
    expect((await s.request(`/v1/projects/${inactive.ref}/database/context`, { headers: owner })).status).toBe(409)
  })
})
