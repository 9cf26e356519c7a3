/**
 * The Management API's reads a client and the CLI use (profile, an organization's members and projects, a project's
 * buckets and storage settings, one API key, the regions, add-ons, disk and its use, restore versions, an
 * organization's entitlements, advisors, REST document, signing keys, temporary access and measured requests), called with access tokens as they are, each answer validated against
 * the operation's response schema in the contract (shared/reference/management-api.openapi.json) and parsed by its
 * zod contract; other organizations' and projects' data is never reachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REGIONS } from '../../src/contracts/database'
import { V1ApiKey } from '../../src/contracts/keys'
import {
  V1Advisors,
  V1AvailableRegions,
  V1DatabaseContext,
  V1DiskAutoscale,
  V1DiskConfig,
  V1DiskUtil,
  V1Entitlements,
  V1FunctionBody,
  V1JitAccessConfig,
  V1JitAccessList,
  V1LegacyApiKeys,
  V1Migration,
  V1OrganizationMemberList,
  V1OrganizationProjects,
  V1Profile,
  V1ProjectAddons,
  V1RestoreVersions,
  V1SigningKey,
  V1SigningKeys,
  V1SsoProviders,
  V1StorageBucketList,
  V1StorageConfig,
  V1ThirdPartyAuthList,
  V1UsageApiCounts,
  V1UsageRequestCount,
  V1VanitySubdomain,
} from '../../src/contracts/v1Reads'
import { insertForeignOrganization, OWNER, projectByName, READONLY, signUpVerified, startTestServer, type TestServer } from './helpers'
import { expectValid, responseValidator } from './openapi'

let s: TestServer
let owner: Record<string, string>
let readonly: Record<string, string>
let foreign: { slug: string; ref: string }

async function tokenOf(email: string, password?: string) {
  const cookie = await s.signIn(email, password)
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

/** Runs SQL on the project's database as its owner through the Management API. */
async function sql(ref: string, query: string) {
  const res = await s.request(`/v1/projects/${ref}/database/query`, {
    method: 'POST',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as Record<string, unknown>[]
}

describe('GET /v1/projects/available-regions', () => {
  const path = '/v1/projects/available-regions'
  it('is not taken for a project ref: lists every region a project can be created in, the continent’s group first', async () => {
    const body = V1AvailableRegions.parse(await read(`${path}?organization_slug=demo-free`, path, readonly))
    expect(body.all.specific.map((r) => r.code)).toEqual([...REGIONS])
    expect(body.all.smartGroup.map((g) => g.code)).toEqual(['americas', 'emea', 'apac'])
    expect(body.recommendations.smartGroup.code).toBe('americas')
    const eu = V1AvailableRegions.parse(await read(`${path}?organization_slug=demo-pro&continent=EU`, path))
    expect(eu.recommendations.smartGroup.code).toBe('emea')
    expect(eu.recommendations.specific.map((r) => r.code).sort()).toEqual(['eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-west-1', 'eu-west-2', 'eu-west-3'])
  })

  it('refuses another organization (404), a missing slug and an unknown continent (400)', async () => {
    const other = await s.request(`${path}?organization_slug=${foreign.slug}`, { headers: owner })
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ message: 'Organization not found' })
    const missing = await s.request(path, { headers: owner })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { message: string }).message).toMatch(/organization_slug/)
    expect((await s.request(`${path}?organization_slug=demo-pro&continent=XX`, { headers: owner })).status).toBe(400)
    expect((await s.request(`${path}?organization_slug=demo-pro`)).status).toBe(401)
  })
})

describe('GET /v1/projects/{ref}/billing/addons and vanity-subdomain', () => {
  it("answers the add-ons the dashboard keeps, with no charge, and what may be added", async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const path = '/v1/projects/{ref}/billing/addons'
    const before = V1ProjectAddons.parse(await read(`/v1/projects/${ref}/billing/addons`, path, readonly))
    expect(before.available_addons).toEqual([
      {
        type: 'pitr',
        name: 'Point in time recovery',
        variants: ['pitr_7', 'pitr_14', 'pitr_28'].map((id) => expect.objectContaining({ id, price: expect.objectContaining({ amount: 0 }) })),
      },
    ])
    const cookie = await s.signIn(OWNER)
    const added = await s.request(`/platform/projects/${ref}/billing/addons`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ addon_type: 'pitr', addon_variant: 'pitr_14' }),
    })
    expect(added.status).toBe(200)
    const after = V1ProjectAddons.parse(await read(`/v1/projects/${ref}/billing/addons`, path))
    expect(after.selected_addons).toEqual([{ type: 'pitr', variant: { id: 'pitr_14', name: '14 days of recovery', price: expect.objectContaining({ amount: 0 }) } }])
    expect((await s.request(`/v1/projects/${foreign.ref}/billing/addons`, { headers: owner })).status).toBe(404)
  })

  it('says no vanity subdomain is used, or the active custom domain that is', async () => {
    const acme = await projectByName(s, 'Acme Storefront')
    const path = '/v1/projects/{ref}/vanity-subdomain'
    expect(V1VanitySubdomain.parse(await read(`/v1/projects/${acme.ref}/vanity-subdomain`, path, readonly))).toEqual({ status: 'not-used' })
    await s.db.query(
      `insert into project_custom_hostnames (project_id, id, hostname, status, updated_at) values ($1, gen_random_uuid(), 'shop.example.com', '4_origin_setup_completed', now())`,
      [acme.id],
    )
    expect(V1VanitySubdomain.parse(await read(`/v1/projects/${acme.ref}/vanity-subdomain`, path))).toEqual({ status: 'not-used' })
    await s.db.query(`update project_custom_hostnames set status = '5_services_reconfigured' where project_id = $1`, [acme.id])
    expect(V1VanitySubdomain.parse(await read(`/v1/projects/${acme.ref}/vanity-subdomain`, path))).toEqual({ status: 'custom-domain-used', custom_domain: 'shop.example.com' })
    await s.db.query('delete from project_custom_hostnames where project_id = $1', [acme.id])
  })
})

describe('GET /v1/projects/{ref}/config/disk and disk/autoscale', () => {
  it("answers the disk the database needs now, from the database's own size; no autoscaling", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const disk = V1DiskConfig.parse(await read(`/v1/projects/${ref}/config/disk`, '/v1/projects/{ref}/config/disk', readonly))
    const [{ bytes }] = (await sql(ref, 'select pg_database_size(current_database())::float8 as bytes')) as { bytes: number }[]
    expect(disk.attributes).toEqual({ type: 'gp3', size_gb: Math.max(1, Math.ceil(bytes / 1024 ** 3)), iops: 3000 })
    expect(V1DiskAutoscale.parse(await read(`/v1/projects/${ref}/config/disk/autoscale`, '/v1/projects/{ref}/config/disk/autoscale'))).toEqual({
      growth_percent: null,
      min_increment_gb: null,
      max_size_gb: null,
    })
    const inactive = await projectByName(s, 'Weekend Hackathon')
    expect((await s.request(`/v1/projects/${inactive.ref}/config/disk`, { headers: owner })).status).toBe(409)
    expect((await s.request(`/v1/projects/${foreign.ref}/config/disk`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/config/disk/util', () => {
  it("answers the disk's use: the database's size used, the rest of the disk config/disk reports available", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const path = '/v1/projects/{ref}/config/disk/util'
    const before = V1DiskUtil.parse(await read(`/v1/projects/${ref}/config/disk/util`, path, readonly))
    const disk = V1DiskConfig.parse(await read(`/v1/projects/${ref}/config/disk`, '/v1/projects/{ref}/config/disk'))
    expect(before.metrics.fs_size_bytes).toBe(disk.attributes.size_gb * 1024 ** 3)
    expect(before.metrics.fs_used_bytes + before.metrics.fs_avail_bytes).toBe(before.metrics.fs_size_bytes)
    expect(new Date(before.timestamp).toISOString()).toBe(before.timestamp)
    // Measured when asked: a megabyte more in a table shows as more used.
    await sql(ref, `create table disk_filler as select repeat('x', 1000) as pad from generate_series(1, 2000)`)
    const [{ bytes }] = (await sql(ref, 'select pg_database_size(current_database())::float8 as bytes')) as { bytes: number }[]
    const after = V1DiskUtil.parse(await read(`/v1/projects/${ref}/config/disk/util`, path))
    expect(after.metrics.fs_used_bytes).toBe(bytes)
    expect(after.metrics.fs_used_bytes).toBeGreaterThan(before.metrics.fs_used_bytes + 1_000_000)
    await sql(ref, 'drop table disk_filler')
    const inactive = await projectByName(s, 'Weekend Hackathon')
    expect((await s.request(`/v1/projects/${inactive.ref}/config/disk/util`, { headers: owner })).status).toBe(409)
    expect((await s.request(`/v1/projects/${foreign.ref}/config/disk/util`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/restore', () => {
  it('offers a paused project its own Postgres version when the contract can name the engine; nothing otherwise', async () => {
    const path = '/v1/projects/{ref}/restore'
    const paused = await projectByName(s, 'Weekend Hackathon')
    const { rows } = await s.db.query<{ status: string; db_version: string }>('select status, db_version from projects where id = $1', [paused.id])
    expect(rows[0].status).toBe('INACTIVE')
    const engine = rows[0].db_version.split('.')[0]
    const versions = V1RestoreVersions.parse(await read(`/v1/projects/${paused.ref}/restore`, path, readonly))
    // The store's engine: PostgreSQL 15 (named by the contract), PGlite's 18 (not).
    expect(versions).toEqual({
      available_versions: ['13', '14', '15', '17'].includes(engine) ? [{ version: rows[0].db_version, release_channel: 'ga', postgres_engine: engine }] : [],
    })
    await s.db.query(`update projects set db_version = '15.6' where id = $1`, [paused.id])
    expect(V1RestoreVersions.parse(await read(`/v1/projects/${paused.ref}/restore`, path))).toEqual({
      available_versions: [{ version: '15.6', release_channel: 'ga', postgres_engine: '15' }],
    })
    await s.db.query('update projects set db_version = $2 where id = $1', [paused.id, rows[0].db_version])
    const active = await projectByName(s, 'Recipe Box')
    expect(V1RestoreVersions.parse(await read(`/v1/projects/${active.ref}/restore`, path))).toEqual({ available_versions: [] })
    expect((await s.request(`/v1/projects/${foreign.ref}/restore`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/organizations/{slug}/entitlements', () => {
  it("says what the plan opens, as the platform's own refusals decide it", async () => {
    const path = '/v1/organizations/{slug}/entitlements'
    const access = async (slug: string, headers = owner) => {
      const { entitlements } = V1Entitlements.parse(await read(`/v1/organizations/${slug}/entitlements`, path, headers))
      return Object.fromEntries(entitlements.map((e) => [e.feature.key, e.hasAccess]))
    }
    const free = await access('demo-free', readonly)
    const pro = await access('demo-pro')
    expect(free).toEqual({ custom_domain: false, branching_persistent: false, 'storage.image_transformations': true, project_pausing: true })
    expect(pro).toEqual({ custom_domain: true, branching_persistent: true, 'storage.image_transformations': true, project_pausing: true })

    // The refusals behind them: a free project's custom domain and branches, which a Pro one's are not refused.
    const recipes = await projectByName(s, 'Recipe Box')
    const acme = await projectByName(s, 'Acme Storefront')
    const hostname = async (ref: string) => (await (await s.request(`/v1/projects/${ref}/custom-hostname`, { headers: owner })).json()) as { message: string }
    expect((await hostname(recipes.ref)).message).toMatch(/free plan/)
    expect((await hostname(acme.ref)).message).not.toMatch(/free plan/)
    const branch = (ref: string) =>
      s.request(`/v1/projects/${ref}/branches`, {
        method: 'POST',
        headers: { ...owner, 'content-type': 'application/json' },
        body: JSON.stringify({ branch_name: 'entitled', git_branch: 'no-such-branch', persistent: true }),
      })
    expect(await (await branch(recipes.ref)).json()).toMatchObject({ message: expect.stringMatching(/Pro plan/) })
    const proBranch = await branch(acme.ref)
    expect(proBranch.status).not.toBe(403)
    expect(await proBranch.json()).not.toMatchObject({ message: expect.stringMatching(/Pro plan/) })

    // The plan is read on each request.
    await s.db.query(`update organizations set plan_id = 'pro' where slug = 'demo-free'`)
    expect(await access('demo-free')).toEqual(pro)
    await s.db.query(`update organizations set plan_id = 'free' where slug = 'demo-free'`)
    expect((await s.request(`/v1/organizations/${foreign.slug}/entitlements`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/branches/{branch_id_or_ref} and /v1/projects/{ref}/branches/{name}', () => {
  it("answer a preview branch in the contract's shape, for members of its organization only", async () => {
    // Acme Storefront is a Pro organization's project connected to a repository: it may have branches.
    const acme = await projectByName(s, 'Acme Storefront')
    const made = await s.request(`/v1/projects/${acme.ref}/branches`, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ branch_name: 'read-me', git_branch: 'main' }),
    })
    expect(made.status, await made.clone().text()).toBe(201)
    const { id, project_ref: branchRef } = (await made.json()) as { id: string; project_ref: string }
    const listed = (await read(`/v1/projects/${acme.ref}/branches`, '/v1/projects/{ref}/branches', readonly)) as { id: string }[]
    const byName = await read(`/v1/projects/${acme.ref}/branches/read-me`, '/v1/projects/{ref}/branches/{name}', readonly)
    expect(byName).toEqual(listed.find((b) => b.id === id))
    const detail = await read(`/v1/branches/${id}`, '/v1/branches/{branch_id_or_ref}', readonly)
    expect(detail).toMatchObject({ ref: branchRef, db_port: 5432, db_user: 'postgres' })
    expect(await read(`/v1/branches/${branchRef}`, '/v1/branches/{branch_id_or_ref}')).toEqual(detail)
    expect((await s.request(`/v1/projects/${acme.ref}/branches/no-such-branch`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${foreign.ref}/branches/read-me`, { headers: owner })).status).toBe(404)
    // Someone outside the organization learns nothing of it.
    await signUpVerified(s, 'stranger@example.com', 'long enough')
    const stranger = await tokenOf('stranger@example.com', 'long enough')
    const hidden = await s.request(`/v1/branches/${id}`, { headers: stranger })
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ message: 'Branch not found' })
  })
})

describe('GET /v1/projects/{ref}/advisors/security and advisors/performance', () => {
  const lintsOf = async (ref: string, kind: 'security' | 'performance') =>
    V1Advisors.parse(await read(`/v1/projects/${ref}/advisors/${kind}`, `/v1/projects/{ref}/advisors/${kind}`, readonly)).lints
  const named = (lints: V1Advisors['lints'], name: string) => lints.filter((l) => l.name === name).map((l) => `${l.metadata?.schema}.${l.metadata?.name}`)

  it("lints what the project's people made, from its catalog, and follows the changes", async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    // The demo schema: row level security with policies on every table; its own foreign keys as they are.
    expect(named(await lintsOf(ref, 'security'), 'rls_disabled_in_public')).toEqual([])
    const before = await lintsOf(ref, 'performance')
    expect(named(before, 'no_primary_key')).toEqual([])
    await sql(
      ref,
      `create table public.advisor_parent (id int primary key);
       create index advisor_parent_dup_a on public.advisor_parent (id);
       create index advisor_parent_dup_b on public.advisor_parent (id);
       create table public.advisor_child (id int primary key, parent_id int references public.advisor_parent (id));
       create table public.advisor_loose (note text);
       create policy loose_read on public.advisor_loose for select using (true);
       create table public.advisor_locked (id int primary key);
       alter table public.advisor_locked enable row level security;
       create function public.advisor_fn() returns int language sql as 'select 1';
       create function public.advisor_fn_pinned() returns int language sql set search_path = '' as 'select 1';
       create schema advisor_private;
       create table advisor_private.hidden (id int primary key);`,
    )
    const security = await lintsOf(ref, 'security')
    expect(named(security, 'rls_disabled_in_public')).toEqual(['public.advisor_child', 'public.advisor_loose', 'public.advisor_parent'])
    const policy = security.find((l) => l.name === 'policy_exists_rls_disabled')!
    expect(policy).toMatchObject({
      level: 'ERROR',
      facing: 'EXTERNAL',
      categories: ['SECURITY'],
      detail: 'Table `public.advisor_loose` has RLS policies but RLS is not enabled on the table. Policies include {loose_read}.',
      metadata: { schema: 'public', name: 'advisor_loose', type: 'table' },
      cache_key: 'policy_exists_rls_disabled_public_advisor_loose',
    })
    expect(named(security, 'rls_enabled_no_policy')).toEqual(['public.advisor_locked'])
    expect(named(security, 'function_search_path_mutable')).toContain('public.advisor_fn')
    expect(named(security, 'function_search_path_mutable')).not.toContain('public.advisor_fn_pinned')

    const performance = await lintsOf(ref, 'performance')
    expect(performance.find((l) => l.name === 'unindexed_foreign_keys' && l.metadata?.name === 'advisor_child')).toMatchObject({
      level: 'INFO',
      categories: ['PERFORMANCE'],
      metadata: { schema: 'public', name: 'advisor_child', type: 'table', fkey_name: 'advisor_child_parent_id_fkey', fkey_columns: [2] },
    })
    expect(named(performance, 'no_primary_key')).toEqual(['public.advisor_loose'])
    expect(named(performance, 'unindexed_foreign_keys').filter((t) => !t.startsWith('public.advisor_'))).toEqual(named(before, 'unindexed_foreign_keys'))
    expect(performance.find((l) => l.name === 'duplicate_index')?.detail).toBe(
      'Table `public.advisor_parent` has identical indexes {advisor_parent_dup_a,advisor_parent_dup_b}. Drop all except one of them',
    )

    await sql(
      ref,
      `alter table public.advisor_loose enable row level security;
       create index advisor_child_parent on public.advisor_child (parent_id);
       drop index public.advisor_parent_dup_b;`,
    )
    const fixed = await lintsOf(ref, 'security')
    expect(named(fixed, 'rls_disabled_in_public')).toEqual(['public.advisor_child', 'public.advisor_parent'])
    expect(named(fixed, 'policy_exists_rls_disabled')).toEqual([])
    const faster = await lintsOf(ref, 'performance')
    expect(named(faster, 'unindexed_foreign_keys')).toEqual(named(before, 'unindexed_foreign_keys'))
    expect(named(faster, 'duplicate_index')).toEqual([])
  })

  it('refuses a paused project (409) and another organization’s (404)', async () => {
    const inactive = await projectByName(s, 'Weekend Hackathon')
    expect((await s.request(`/v1/projects/${inactive.ref}/advisors/security`, { headers: owner })).status).toBe(409)
    expect((await s.request(`/v1/projects/${foreign.ref}/advisors/performance`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/database/openapi', () => {
  it('answers the OpenAPI document of a schema the API serves; others are refused as PostgREST refuses them', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const res = await s.request(`/v1/projects/${ref}/database/openapi`, { headers: readonly })
    expect(res.status).toBe(200)
    const doc = (await res.json()) as { swagger: string; paths: Record<string, unknown>; basePath: string }
    expect(doc.swagger).toBe('2.0')
    expect(doc.basePath).toBe(`/p/${ref}/rest/v1`)
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/', '/recipes', '/authors']))
    const storage = await s.request(`/v1/projects/${ref}/database/openapi?schema=storage`, { headers: owner })
    expect(storage.status).toBe(400)
    expect(await storage.json()).toEqual({ message: 'The schema must be one of the following: public', code: 'PGRST106' })
    expect((await s.request(`/v1/projects/${ref}/database/openapi?schema=${encodeURIComponent('a;b')}`, { headers: owner })).status).toBe(400)
    expect((await s.request(`/v1/projects/${foreign.ref}/database/openapi`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/config/auth/signing-keys, third-party-auth, sso/providers, database/jit/list and jit-access', () => {
  it("answers the project's JWT secret as its one signing key, without the secret", async () => {
    const recipes = await projectByName(s, 'Recipe Box')
    const list = V1SigningKeys.parse(await read(`/v1/projects/${recipes.ref}/config/auth/signing-keys`, '/v1/projects/{ref}/config/auth/signing-keys', readonly))
    const { rows } = await s.db.query<{ jwt_secret: string; created_at: Date | string }>('select jwt_secret, created_at from project_api_keys where project_id = $1', [recipes.id])
    expect(list.keys).toEqual([expect.objectContaining({ algorithm: 'HS256', status: 'in_use', public_jwk: null, created_at: new Date(rows[0].created_at).toISOString() })])
    expect(JSON.stringify(list)).not.toContain(rows[0].jwt_secret)
    const [key] = list.keys
    expect(V1SigningKey.parse(await read(`/v1/projects/${recipes.ref}/config/auth/signing-keys/legacy`, '/v1/projects/{ref}/config/auth/signing-keys/legacy'))).toEqual(key)
    expect(V1SigningKey.parse(await read(`/v1/projects/${recipes.ref}/config/auth/signing-keys/${key.id}`, '/v1/projects/{ref}/config/auth/signing-keys/{id}'))).toEqual(key)
    // Another project's key has another id.
    const acme = await projectByName(s, 'Acme Storefront')
    const theirs = V1SigningKeys.parse(await read(`/v1/projects/${acme.ref}/config/auth/signing-keys`, '/v1/projects/{ref}/config/auth/signing-keys'))
    expect(theirs.keys[0].id).not.toBe(key.id)
    expect((await s.request(`/v1/projects/${acme.ref}/config/auth/signing-keys/${key.id}`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${recipes.ref}/config/auth/signing-keys/not-a-uuid`, { headers: owner })).status).toBe(400)
    expect((await s.request(`/v1/projects/${foreign.ref}/config/auth/signing-keys`, { headers: owner })).status).toBe(404)
  })

  it('lists no third-party issuer, SSO provider or temporary database access: none can exist here', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    expect(V1ThirdPartyAuthList.parse(await read(`/v1/projects/${ref}/config/auth/third-party-auth`, '/v1/projects/{ref}/config/auth/third-party-auth', readonly))).toEqual([])
    expect(V1SsoProviders.parse(await read(`/v1/projects/${ref}/config/auth/sso/providers`, '/v1/projects/{ref}/config/auth/sso/providers'))).toEqual({ items: [] })
    expect(V1JitAccessList.parse(await read(`/v1/projects/${ref}/database/jit/list`, '/v1/projects/{ref}/database/jit/list'))).toEqual({ items: [] })
    expect(V1JitAccessConfig.parse(await read(`/v1/projects/${ref}/jit-access`, '/v1/projects/{ref}/jit-access'))).toEqual({ state: 'disabled' })
    expect((await s.request(`/v1/projects/${foreign.ref}/jit-access`, { headers: owner })).status).toBe(404)
    const uuid = '88888888-8888-4888-8888-888888888888'
    expect((await s.request(`/v1/projects/${ref}/config/auth/third-party-auth/${uuid}`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${ref}/config/auth/sso/providers/${uuid}`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${ref}/config/auth/third-party-auth/nope`, { headers: owner })).status).toBe(400)
    expect((await s.request(`/v1/projects/${foreign.ref}/config/auth/third-party-auth`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/analytics/endpoints/usage.api-counts and usage.api-requests-count', () => {
  it("counts every request the project's API served, per hour and product", async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const countsPath = '/v1/projects/{ref}/analytics/endpoints/usage.api-counts'
    const countPath = '/v1/projects/{ref}/analytics/endpoints/usage.api-requests-count'
    const counts = async (interval = '') =>
      V1UsageApiCounts.parse(await read(`/v1/projects/${ref}/analytics/endpoints/usage.api-counts${interval}`, countsPath, readonly)).result
    const total = async () =>
      V1UsageRequestCount.parse(await read(`/v1/projects/${ref}/analytics/endpoints/usage.api-requests-count`, countPath)).result[0].count
    const before = (await counts()).at(-1)!
    const totalBefore = await total()
    // A day of hours: the one now and the 24 before it.
    expect(await counts()).toHaveLength(25)
    for (let i = 0; i < 3; i++) await s.request(`/p/${ref}/rest/v1/products?select=id`)
    for (let i = 0; i < 2; i++) await s.request(`/p/${ref}/storage/v1/bucket`)
    await s.request(`/p/${ref}/auth/v1/settings`)
    await s.request(`/p/${ref}/functions/v1/nothing-here`)
    const now = (await counts()).at(-1)!
    expect(now.timestamp).toBe(before.timestamp)
    expect({
      rest: now.total_rest_requests - before.total_rest_requests,
      storage: now.total_storage_requests - before.total_storage_requests,
      auth: now.total_auth_requests - before.total_auth_requests,
      realtime: now.total_realtime_requests - before.total_realtime_requests,
    }).toEqual({ rest: 3, storage: 2, auth: 1, realtime: 0 })
    // Edge functions are not one of the contract's four, but they are requests.
    expect((await total()) - totalBefore).toBe(7)

    // Two hours on, the hour counted is the oldest of a 3-hour window, and the last hour has nothing yet.
    s.clock.advance(2 * 3_600_000)
    const later = await counts('?interval=3hr')
    expect(later.map((r) => r.timestamp)).toEqual([0, 1, 2, 3].map((h) => new Date(Date.parse(now.timestamp) - 3_600_000 + h * 3_600_000).toISOString()))
    expect(later[1]).toEqual(now)
    expect(later[3]).toEqual({ timestamp: later[3].timestamp, total_auth_requests: 0, total_realtime_requests: 0, total_rest_requests: 0, total_storage_requests: 0 })
    expect((await s.request(`/v1/projects/${ref}/analytics/endpoints/usage.api-counts?interval=2min`, { headers: owner })).status).toBe(400)
    expect((await s.request(`/v1/projects/${foreign.ref}/analytics/endpoints/usage.api-requests-count`, { headers: owner })).status).toBe(404)
  })
})

describe('GET /v1/projects/{ref}/functions/{function_slug}/body', () => {
  it("answers the deployed files as the contract's object, the entrypoint alone as text, and the CLI's multipart", async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const deployed = new FormData()
    deployed.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', name: 'body-read' }))
    deployed.append('file', new Blob([`import { hi } from './lib/hi.ts'\nDeno.serve(() => new Response(hi))`]), 'index.ts')
    deployed.append('file', new Blob([`export const hi = 'héllo'`]), 'lib/hi.ts')
    const made = await s.request(`/v1/projects/${ref}/functions/deploy?slug=body-read`, { method: 'POST', headers: owner, body: deployed })
    expect(made.status, await made.clone().text()).toBe(201)
    const path = '/v1/projects/{ref}/functions/{function_slug}/body'
    const json = V1FunctionBody.parse(await read(`/v1/projects/${ref}/functions/body-read/body`, path, readonly))
    expect(json).toEqual({
      slug: 'body-read',
      version: 1,
      entrypoint_path: 'index.ts',
      files: [
        { name: 'index.ts', content: `import { hi } from './lib/hi.ts'\nDeno.serve(() => new Response(hi))` },
        { name: 'lib/hi.ts', content: `export const hi = 'héllo'` },
      ],
    })
    const text = await s.request(`/v1/projects/${ref}/functions/body-read/body`, { headers: { ...owner, accept: 'text/plain' } })
    expect(await text.text()).toBe(json.files[0].content)
    const multi = await s.request(`/v1/projects/${ref}/functions/body-read/body`, { headers: { ...owner, accept: 'multipart/form-data' } })
    expect(multi.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    const form = await new Response(await multi.arrayBuffer(), { headers: { 'content-type': multi.headers.get('content-type')! } }).formData()
    expect(JSON.parse(String(form.get('metadata')))).toEqual({ entrypoint_path: 'index.ts' })
    const files = form.getAll('file') as File[]
    expect(await Promise.all(files.map((f) => f.text()))).toEqual(json.files.map((f) => f.content))
    expect((await s.request(`/v1/projects/${ref}/functions/nothing-here/body`, { headers: owner })).status).toBe(404)
    expect((await s.request(`/v1/projects/${foreign.ref}/functions/body-read/body`, { headers: owner })).status).toBe(404)
  })
})
