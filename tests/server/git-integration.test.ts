/**
 * The GitHub integration's platform calls: the demo's installations, authorization and connection; linking a
 * project to a repository (409 when the repository already has a connection, relinking after deleting the old),
 * every refusal (Read-only 403, unknown installation / repository / project 404, another organization's or
 * installation's 400 / 404), the branch check against git, and the install step the popup page performs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AuthorizationResponse,
  Branch,
  Connection,
  ConnectionList,
  Installation,
  InstallationList,
  INTEGRATION_IDS,
  ProjectConnectionList,
  REPOSITORY_ALREADY_CONNECTED,
  RepositoryList,
} from '../../src/contracts/github'
import { createApp } from '../../src/server/app'
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
let freeOrgId: number
let proOrgId: number
let freeInstallation: Installation
let proInstallation: Installation
let repos: Map<string, number>
let recipeBox: string
let legacyBlog: string
let storefront: string

async function ok<T>(res: Response, schema: { parse(v: unknown): T }, status = 200): Promise<T> {
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(status)
  return schema.parse(body)
}

async function refused(res: Response, status: number, message?: string | RegExp) {
  const body = (await res.json()) as { message: string; code?: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else if (message) expect(body.message).toMatch(message)
  return body
}

const get = (path: string, cookie = owner) => s.request(path, { headers: { cookie } })
const connections = async (orgId: number, cookie = owner) =>
  (await ok(await get(`/platform/integrations/github/connections?organization_id=${orgId}`, cookie), ConnectionList)).connections
const link = (body: unknown, cookie = developer) => s.request('/platform/integrations/github/connections', json(body, { cookie }))
const unlink = (id: number, cookie = developer) => s.request(`/platform/integrations/github/connections/${id}`, { method: 'DELETE', headers: { cookie } })
const branch = (connectionId: number, name: string, cookie = owner) =>
  get(`/platform/integrations/github/branches/${connectionId}/${encodeURIComponent(name)}`, cookie)

beforeAll(async () => {
  s = await startTestServer()
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  const { rows } = await s.db.query<{ id: number; slug: string }>('select id, slug from organizations')
  freeOrgId = rows.find((r) => r.slug === 'demo-free')!.id
  proOrgId = rows.find((r) => r.slug === 'demo-pro')!.id
  ;[freeInstallation] = await ok(await get('/platform/organizations/demo-free/integrations'), InstallationList)
  ;[proInstallation] = await ok(await get('/platform/organizations/demo-pro/integrations'), InstallationList)
  const list = await ok(await get('/platform/integrations/github/repositories'), RepositoryList)
  repos = new Map(list.repositories.map((r) => [r.name, r.id]))
  recipeBox = (await projectByName(s, 'Recipe Box')).ref
  legacyBlog = (await projectByName(s, 'Legacy Blog')).ref
  storefront = (await projectByName(s, 'Acme Storefront')).ref
}, 120_000)
afterAll(() => s?.close())

describe('the demo', () => {
  it('each demo organization has a GitHub installation added by the Owner, with three repositories', async () => {
    expect(freeInstallation).toMatchObject({
      integration: { name: 'GitHub' },
      metadata: { account: { name: 'demo-free', type: 'Organization' }, gitHubConnectionOwner: 'owner' },
      added_by: { primary_email: OWNER },
    })
    expect(freeInstallation.metadata.account.avatar_url).toMatch(/^data:image\/svg\+xml;base64,/)
    expect([...repos.keys()].sort()).toEqual([
      'demo-free/broken-migrations',
      'demo-free/landing-page',
      'demo-free/notes-app',
      'demo-pro/broken-migrations',
      'demo-pro/landing-page',
      'demo-pro/notes-app',
    ])
    const mine = await ok(await get(`/platform/integrations/github/repositories?organization_id=${proOrgId}`, readonly), RepositoryList)
    expect(mine.repositories.map((r) => [r.name, r.installation_id, r.default_branch])).toEqual([
      ['demo-pro/broken-migrations', proInstallation.id, 'main'],
      ['demo-pro/landing-page', proInstallation.id, 'main'],
      ['demo-pro/notes-app', proInstallation.id, 'main'],
    ])
  })

  it('Acme Storefront starts connected to demo-pro/notes-app; every member can read the connections', async () => {
    const list = await connections(proOrgId, readonly)
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      installation_id: proInstallation.id,
      project: { name: 'Acme Storefront', ref: storefront },
      repository: { name: 'demo-pro/notes-app' },
      user: { primary_email: OWNER, username: 'owner' },
      workdir: '.',
      branch_limit: 50,
      new_branch_per_pr: false,
      supabase_changes_only: false,
    })
    expect(await connections(freeOrgId)).toEqual([])
  })

  it("the installation's project connections carry the spec's fields: foreign project, project ref, ids, metadata, added_by", async () => {
    const list = await ok(await get(`/platform/integrations/installations/${proInstallation.id}/connections`, readonly), ProjectConnectionList)
    const notes = repos.get('demo-pro/notes-app')!
    expect(list).toEqual([
      {
        id: expect.any(Number),
        foreign_project_id: String(notes),
        supabase_project_ref: storefront,
        integration_id: INTEGRATION_IDS.GitHub,
        organization_integration_id: proInstallation.id,
        metadata: { id: notes, name: 'demo-pro/notes-app', installation_id: proInstallation.id, framework: null },
        inserted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        added_by: { id: expect.any(Number), primary_email: OWNER, username: 'owner' },
      },
    ])
    expect(list[0].id).toBe((await connections(proOrgId))[0].id)
    expect(await ok(await get(`/platform/integrations/installations/${freeInstallation.id}/connections`), ProjectConnectionList)).toEqual([])
  })

  it('an unknown installation is 404, a bad id 400', async () => {
    await refused(await get('/platform/integrations/installations/999999/connections'), 404, 'Installation 999999 not found')
    await refused(await get('/platform/integrations/installations/abc/connections'), 400)
  })

  it('the Owner has authorized the app, the others have not (null)', async () => {
    const mine = await ok(await get('/platform/integrations/github/authorization'), AuthorizationResponse)
    expect(mine).toMatchObject({ user_id: expect.any(Number), sender_id: expect.any(Number) })
    expect(await ok(await get('/platform/integrations/github/authorization', developer), AuthorizationResponse)).toBeNull()
  })
})

describe('linking a project to a repository', () => {
  let first: Connection

  it('links Recipe Box to demo-free/notes-app (201, the connection), listed for the organization', async () => {
    first = await ok(
      await link({ installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: repos.get('demo-free/notes-app') }),
      Connection,
      201,
    )
    expect(first).toMatchObject({
      installation_id: freeInstallation.id,
      project: { ref: recipeBox, name: 'Recipe Box' },
      repository: { id: repos.get('demo-free/notes-app'), name: 'demo-free/notes-app' },
      user: { primary_email: DEVELOPER },
    })
    expect((await connections(freeOrgId)).map((c) => c.id)).toEqual([first.id])
  })

  it('linking the same repository again is 409 with the message the dashboard shows', async () => {
    const body = await refused(
      await link({ installation_id: freeInstallation.id, project_ref: legacyBlog, repository_id: repos.get('demo-free/notes-app') }),
      409,
      REPOSITORY_ALREADY_CONNECTED,
    )
    expect(body.code).toBe('repository_already_connected')
  })

  it('a project that already has a connection is 409 until the old one is deleted; relinking replaces it', async () => {
    const body = await refused(
      await link({ installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: repos.get('demo-free/landing-page') }),
      409,
      /already has a connection/,
    )
    expect(body.code).toBe('project_already_connected')
    await ok(await unlink(first.id), { parse: (v: unknown) => v })
    const relinked = await ok(
      await link({ installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: repos.get('demo-free/landing-page') }),
      Connection,
      201,
    )
    const list = await connections(freeOrgId)
    expect(list.map((c) => [c.id, c.repository.name])).toEqual([[relinked.id, 'demo-free/landing-page']])
    expect(relinked.id).not.toBe(first.id)
    // The old connection is gone: deleting it again is 404.
    await refused(await unlink(first.id), 404)
    // And the repository it left is free again.
    await ok(
      await link({ installation_id: freeInstallation.id, project_ref: legacyBlog, repository_id: repos.get('demo-free/notes-app') }),
      Connection,
      201,
    )
  })

  it('a Read-only member can neither link nor unlink (403), and nothing changes', async () => {
    const before = await connections(proOrgId)
    await refused(
      await link({ installation_id: proInstallation.id, project_ref: storefront, repository_id: repos.get('demo-pro/landing-page') }, readonly),
      403,
    )
    await refused(await unlink(before[0].id, readonly), 403)
    expect(await connections(proOrgId)).toEqual(before)
  })

  it('unknown installation, repository or project: 404; another organization’s project or installation’s repository: 400', async () => {
    const valid = { installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: repos.get('demo-free/broken-migrations') }
    await refused(await link({ ...valid, installation_id: 999_999 }), 404, /Installation 999999 not found/)
    await refused(await link({ ...valid, repository_id: 999_999 }), 404, /Repository 999999 not found/)
    await refused(await link({ ...valid, project_ref: 'abcdefghijabcdefghij' }), 404, /Project abcdefghijabcdefghij not found/)
    await refused(await link({ ...valid, project_ref: storefront }), 400, /another organization/)
    await refused(await link({ ...valid, repository_id: repos.get('demo-pro/broken-migrations') }), 400, /another installation/)
  })

  it("another organization's installation, repository or connection is 404 to a non-member", async () => {
    const foreign = await insertForeignOrganization(s.db)
    const { rows: inst } = await s.db.query<{ id: number }>(
      `insert into integration_installations (organization_id, integration, account_name, connection_owner, added_by, inserted_at)
       select o.id, 'GitHub', 'foreign-account', 'x', (select min(id) from accounts), now() from organizations o where o.slug = $1 returning id`,
      [foreign.slug],
    )
    const { rows: repo } = await s.db.query<{ id: number }>(
      `insert into git_repositories (installation_id, name, created_at) values ($1, 'hidden', now()) returning id`,
      [inst[0].id],
    )
    const { rows: conn } = await s.db.query<{ id: number }>(
      `insert into github_connections (installation_id, project_id, repository_id, added_by, inserted_at, updated_at)
       select $1, p.id, $2, (select min(id) from accounts), now(), now() from projects p where p.ref = $3 returning id`,
      [inst[0].id, repo[0].id, foreign.ref],
    )
    await refused(await link({ installation_id: inst[0].id, project_ref: foreign.ref, repository_id: repo[0].id }), 404)
    await refused(await link({ installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: repo[0].id }), 404)
    await refused(await unlink(conn[0].id), 404)
    await refused(await branch(conn[0].id, 'main'), 404)
    const { rows: orgs } = await s.db.query<{ id: number }>('select id from organizations where slug = $1', [foreign.slug])
    await refused(await get(`/platform/integrations/github/connections?organization_id=${orgs[0].id}`), 404)
    await refused(await get(`/platform/organizations/${foreign.slug}/integrations`), 404)
    const visible = await ok(await get('/platform/integrations/github/repositories'), RepositoryList)
    expect(visible.repositories.some((r) => r.name === 'foreign-account/hidden')).toBe(false)
    await refused(await get('/platform/git-api/repos/foreign-account/hidden/branches'), 404)
  })

  it('bad bodies and parameters are 400', async () => {
    await refused(await link({ installation_id: freeInstallation.id, project_ref: recipeBox, repository_id: 'notes-app' }), 400)
    await refused(await link({ installation_id: freeInstallation.id, repository_id: 1 }), 400)
    await refused(await link({ installation_id: -1, project_ref: recipeBox, repository_id: 1 }), 400)
    await refused(await unlink(0), 400)
    await refused(await get('/platform/integrations/github/connections'), 400)
    await refused(await get('/platform/integrations/github/connections?organization_id=abc'), 400)
    await refused(await get('/platform/integrations/github/repositories?organization_id=-3'), 400)
  })
})

describe('the branch check', () => {
  let demoConnection: Connection

  beforeAll(async () => {
    ;[demoConnection] = await connections(proOrgId)
  })

  it('answers 200 with the branch for main and feature/tags, 404 for a branch git does not have', async () => {
    const main = await ok(await branch(demoConnection.id, 'main'), Branch)
    expect(main).toMatchObject({ name: 'main', protected: false })
    expect(main.commit.sha).toMatch(/^[0-9a-f]{40}$/)
    const feature = await ok(await branch(demoConnection.id, 'feature/tags', readonly), Branch)
    expect(feature.commit.sha).not.toBe(main.commit.sha)
    const missing = await refused(await branch(demoConnection.id, 'feature/nope'), 404, /feature\/nope/)
    expect(missing.code).toBe('branch_not_found')
  })

  it("refuses a name with '..', spaces or control characters (400), and an unknown connection (404)", async () => {
    await refused(await branch(demoConnection.id, 'a..b'), 400, 'Branch name cannot contain ".."')
    await refused(await branch(demoConnection.id, 'my branch'), 400, 'Branch name cannot contain spaces')
    await refused(await branch(demoConnection.id, 'tab\u0001name'), 400, 'Branch name cannot contain control characters')
    await refused(await branch(demoConnection.id, '-rf'), 400)
    await refused(await branch(demoConnection.id, 'x.lock'), 400)
    await refused(await branch(999_999, 'main'), 404, /Connection 999999 not found/)
  })
})

describe('installing (the popup page)', () => {
  it('serves the page (HTML with its script and stylesheet, no inline script) to a member', async () => {
    const res = await get('/platform/integrations/github/install?organization_slug=demo-free', developer)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<script src="install.js" defer></script>')
    expect(html).not.toMatch(/<script>(?!<\/script>)/)
    expect(html).toContain('data-organization-slug="demo-free"')
    const script = await get('/platform/integrations/github/install.js', developer)
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(await script.text()).toContain("postMessage(message, window.location.origin)")
    expect((await get('/platform/integrations/github/install?organization_slug=nope', developer)).status).toBe(404)
    const ro = await (await get('/platform/integrations/github/install?organization_slug=demo-free', readonly)).text()
    expect(ro).toContain('Read-only')
    expect(ro).not.toContain('id="install"')
  })

  it("records the person's authorization and answers the organization's installation (one per organization)", async () => {
    const res = await s.request('/platform/integrations/github/installations', json({ organization_slug: 'demo-free' }, { cookie: developer }))
    const again = await ok(res, Installation, 200)
    expect(again.id).toBe(freeInstallation.id)
    expect(await ok(await get('/platform/integrations/github/authorization', developer), AuthorizationResponse)).toMatchObject({ user_id: expect.any(Number) })
    await refused(await s.request('/platform/integrations/github/installations', json({ organization_slug: 'demo-free' }, { cookie: readonly })), 403)
    await refused(await s.request('/platform/integrations/github/installations', json({ organization_slug: 'nope' }, { cookie: developer })), 404)
  })

  it('installs GitHub in an organization that has none (201), its account named after the organization', async () => {
    await s.db.query(
      `insert into organizations (slug, name, plan_id) values ('fresh-org', 'Fresh Org', 'free')`,
    )
    await s.db.query(
      `insert into members (organization_id, account_id, role)
       select o.id, a.id, 'Developer' from organizations o, accounts a where o.slug = 'fresh-org' and a.primary_email = $1`,
      [DEVELOPER],
    )
    expect(await ok(await get('/platform/organizations/fresh-org/integrations', developer), InstallationList)).toEqual([])
    const created = await ok(
      await s.request('/platform/integrations/github/installations', json({ organization_slug: 'fresh-org' }, { cookie: developer })),
      Installation,
      201,
    )
    expect(created).toMatchObject({ metadata: { account: { name: 'fresh-org' }, gitHubConnectionOwner: 'developer' }, added_by: { primary_email: DEVELOPER } })
    expect(await ok(await get('/platform/organizations/fresh-org/integrations', developer), InstallationList)).toEqual([created])
  })
})

describe('the demo data of migration 011 in a data folder made before it', () => {
  it('adds the installations, repositories, authorization and connection when 011 is applied, once', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const config = testConfig({ ...store.placement })
      const first = await createApp({ db, config, clock: new FakeClock() })
      await first.close()
      // Back to the data folder as it was before migration 011.
      await db.exec(`drop table github_connections; drop table git_repositories; drop table github_authorizations;
        drop table integration_installations; delete from schema_migrations where id = '011_github'`)
      for (let start = 0; start < 2; start++) {
        const again = await createApp({ db, config, clock: new FakeClock() })
        await again.close()
      }
      const { rows } = await db.query<{ owner: string; repos: string }>(
        `select i.account_name as owner, string_agg(r.name, ',' order by r.name) as repos
         from integration_installations i join git_repositories r on r.installation_id = i.id group by i.id order by i.account_name`,
      )
      expect(rows).toEqual([
        { owner: 'demo-free', repos: 'broken-migrations,landing-page,notes-app' },
        { owner: 'demo-pro', repos: 'broken-migrations,landing-page,notes-app' },
      ])
      const { rows: linked } = await db.query<{ name: string }>(
        'select p.name from github_connections c join projects p on p.id = c.project_id',
      )
      expect(linked).toEqual([{ name: 'Acme Storefront' }])
      const { rows: authorized } = await db.query<{ n: number }>('select count(*)::int as n from github_authorizations')
      expect(authorized[0].n).toBe(1)
    } finally {
      await store.destroy()
    }
  }, 60_000)
})
