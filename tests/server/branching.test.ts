/**
 * Database branching on the local platform (PGlite and PostgreSQL 15): preview branches built by running the
 * connected repository's migrations and seed on a database of their own, the refusals, the dry run, the failing
 * repository, reset and delete. Diff and merge: branching-merge.test.ts; a restart mid-build: branching-restart.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BranchDetailResponse, BranchingPlan, BranchList, BranchMigrations, BranchResponse, BranchUpdateResponse } from '../../src/contracts/branching'
import { ErrorBody } from '../../src/contracts/common'
import { RepositoryList } from '../../src/contracts/github'
import { Project, ProjectList } from '../../src/contracts/projects'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { addProject, addRepository, connect, settle } from './branching-support'
import { DEVELOPER, json, OWNER, projectByName, READONLY, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle: { branchStepMs: 0 } } })
  owner = await s.signIn(OWNER)
})
afterAll(() => s?.close())

const create = (ref: string, body: unknown, cookie = owner) => s.request(`/v1/projects/${ref}/branches`, json(body, { cookie }))
const get = (path: string, cookie = owner) => s.request(path, { headers: { cookie } })
const post = (path: string, body: unknown = {}, cookie = owner) => s.request(path, json(body, { cookie }))

async function inBranchDb<T = Record<string, unknown>>(ref: string, sql: string): Promise<T[]> {
  return s.projectDbs.transaction(ref, {}, async (tx) => (await tx.query(sql)).rows as T[])
}

async function counts() {
  const { rows } = await s.db.query<{ branches: number; projects: number }>(
    'select (select count(*)::int from branches) as branches, (select count(*)::int from projects) as projects',
  )
  return rows[0]
}

describe('a branch of the demo repository (Acme Storefront, notes-app)', () => {
  let acme: { id: number; ref: string }
  let branch: BranchResponse

  beforeAll(async () => {
    acme = await projectByName(s, 'Acme Storefront')
  })

  it('is created COMING_UP and CREATING_PROJECT, and the parent has branching enabled', async () => {
    await s.db.query('update projects set is_branch_enabled = false where id = $1', [acme.id])
    const res = await create(acme.ref, { branch_name: 'preview', git_branch: 'main', region: 'eu-west-1' })
    expect(res.status).toBe(201)
    branch = BranchResponse.parse(await res.json())
    expect(branch).toMatchObject({ name: 'preview', git_branch: 'main', parent_project_ref: acme.ref, status: 'CREATING_PROJECT', preview_project_status: 'COMING_UP', is_default: false, with_data: false })
    expect(branch.project_ref).toMatch(/^[a-z]{20}$/)
    const { rows } = await s.db.query<{ is_branch_enabled: boolean; organization_id: number }>('select is_branch_enabled, organization_id from projects where id = $1', [acme.id])
    expect(rows[0].is_branch_enabled).toBe(true)
    const own = await s.db.query<{ organization_id: number; status: string; region: string }>('select organization_id, status, region from projects where ref = $1', [branch.project_ref])
    expect(own.rows[0]).toEqual({ organization_id: rows[0].organization_id, status: 'COMING_UP', region: 'eu-west-1' })
  })

  it('runs the migrations in order, then the seed: its database has the tables and the seeded rows', async () => {
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_PASSED')
    const notes = await inBranchDb<{ title: string; notebook: string }>(
      branch.project_ref,
      'select n.title, b.title as notebook from public.notes n join public.notebooks b on b.id = n.notebook_id order by n.id',
    )
    expect(notes).toEqual([
      { title: 'Standup', notebook: 'Work' },
      { title: 'Release checklist', notebook: 'Work' },
      { title: 'Groceries', notebook: 'Home' },
    ])
    const history = await inBranchDb<{ version: string; name: string; n: number }>(
      branch.project_ref,
      'select version, name, cardinality(statements)::int as n from supabase_migrations.schema_migrations order by version',
    )
    expect(history.map((h) => `${h.version}_${h.name}`)).toEqual([
      '20240108090000_create_notebooks',
      '20240108093000_create_notes',
      '20240109100000_notes_rls',
      '20240110110000_notes_search',
    ])
    expect(history.map((h) => h.n)).toEqual([2, 2, 4, 1])
    expect(await inBranchDb(branch.project_ref, 'select path from supabase_migrations.seed_files')).toEqual([{ path: 'supabase/seed.sql' }])
    // Its function came with the migrations too.
    expect(await inBranchDb(branch.project_ref, `select count(*)::int as n from public.search_notes('Milk')`)).toEqual([{ n: 1 }])
  })

  it('the branch project is ACTIVE_HEALTHY with API keys; the branch answers in every read', async () => {
    const list = BranchList.parse(await (await get(`/v1/projects/${acme.ref}/branches`)).json())
    expect(list.map((b) => [b.name, b.status, b.preview_project_status])).toEqual([['preview', 'MIGRATIONS_PASSED', 'ACTIVE_HEALTHY']])
    const byName = BranchResponse.parse(await (await get(`/v1/projects/${acme.ref}/branches/preview`)).json())
    expect(byName.id).toBe(branch.id)
    expect((await get(`/v1/projects/${acme.ref}/branches/nope`)).status).toBe(404)
    for (const key of [branch.id, branch.project_ref]) {
      const detail = BranchDetailResponse.parse(await (await get(`/v1/branches/${key}`)).json())
      expect(detail).toMatchObject({ ref: branch.project_ref, status: 'ACTIVE_HEALTHY', release_channel: 'ga', db_port: 5432 })
      expect(JSON.stringify(detail)).not.toMatch(/db_pass|jwt_secret/)
    }
    const { rows } = await s.db.query<{ n: number }>('select count(*)::int as n from project_api_keys k join projects p on p.id = k.project_id where p.ref = $1', [branch.project_ref])
    expect(rows[0].n).toBeGreaterThan(0)
  })

  it('the project list and the project say it is a preview branch of Acme Storefront; other projects say null', async () => {
    const list = ProjectList.parse(await (await get('/platform/projects')).json())
    expect(list.find((p) => p.ref === branch.project_ref)?.parent_project_ref).toBe(acme.ref)
    expect(list.filter((p) => p.parent_project_ref !== null).map((p) => p.ref)).toEqual([branch.project_ref])
    expect(Project.parse(await (await get(`/platform/projects/${branch.project_ref}`)).json()).parent_project_ref).toBe(acme.ref)
    expect(Project.parse(await (await get(`/platform/projects/${acme.ref}`)).json()).parent_project_ref).toBeNull()
  })

  it('cannot be linked to a repository of its own (409), though a repository nobody uses is there to link', async () => {
    const { organization_id } = Project.parse(await (await get(`/platform/projects/${acme.ref}`)).json())
    const repositories = RepositoryList.parse(await (await get(`/platform/integrations/github/repositories?organization_id=${organization_id}`)).json()).repositories
    const landing = repositories.find((r) => r.name === 'demo-pro/landing-page')!
    const res = await post('/platform/integrations/github/connections', { installation_id: landing.installation_id, project_ref: branch.project_ref, repository_id: landing.id })
    expect(res.status).toBe(409)
    expect(ErrorBody.parse(await res.json())).toMatchObject({ code: 'project_is_preview_branch', message: expect.stringContaining(acme.ref) })
    const { rows } = await s.db.query<{ n: number }>('select count(*)::int as n from github_connections c join projects p on p.id = c.project_id where p.ref = $1', [branch.project_ref])
    expect(rows[0].n).toBe(0)
  })

  it("the branch's page reads each migration's result and the seed's", async () => {
    const res = await get(`/platform/branches/${branch.id}/migrations`)
    expect(res.status).toBe(200)
    const build = BranchMigrations.parse(await res.json())
    expect(build.status).toBe('MIGRATIONS_PASSED')
    expect(build.migrations.map((m) => [m.file, m.status, m.error])).toEqual([
      ['20240108090000_create_notebooks.sql', 'applied', null],
      ['20240108093000_create_notes.sql', 'applied', null],
      ['20240109100000_notes_rls.sql', 'applied', null],
      ['20240110110000_notes_search.sql', 'applied', null],
    ])
    for (const m of build.migrations) expect(m.duration_ms).toBeGreaterThanOrEqual(0)
    expect(build.seed).toMatchObject({ path: 'supabase/seed.sql', status: 'applied', error: null })
  })

  it('PATCH renames it and asks for review; a name in use is 409', async () => {
    const other = await create(acme.ref, { branch_name: 'second', git_branch: 'feature/tags' })
    expect(other.status).toBe(201)
    const taken = await s.request(`/v1/branches/${branch.id}`, { method: 'PATCH', headers: { cookie: owner, 'content-type': 'application/json' }, body: JSON.stringify({ branch_name: 'second' }) })
    expect(taken.status).toBe(409)
    const res = await s.request(`/v1/branches/${branch.id}`, { method: 'PATCH', headers: { cookie: owner, 'content-type': 'application/json' }, body: JSON.stringify({ branch_name: 'preview-2', request_review: true, persistent: true }) })
    expect(res.status).toBe(200)
    const updated = BranchResponse.parse(await res.json())
    expect(updated).toMatchObject({ name: 'preview-2', persistent: true })
    expect(updated.review_requested_at).toBeDefined()
    const otherBranch = BranchResponse.parse(await other.json())
    expect(await settle(s, otherBranch.id)).toBe('MIGRATIONS_PASSED')
  })

  it('reset rebuilds the database from the migrations (rows added since are gone, the seed is back)', async () => {
    await inBranchDb(branch.project_ref, `insert into public.notebooks (title) values ('Scratch')`)
    await inBranchDb(branch.project_ref, 'create table public.stray (id int)')
    const res = await post(`/v1/branches/${branch.id}/reset`)
    expect(res.status).toBe(201)
    BranchUpdateResponse.parse(await res.json())
    const during = BranchResponse.parse(await (await get(`/v1/projects/${acme.ref}/branches/preview-2`)).json())
    expect(during).toMatchObject({ status: 'CREATING_PROJECT', preview_project_status: 'COMING_UP' })
    await expect(inBranchDb(branch.project_ref, 'select 1')).rejects.toMatchObject({ code: 'database_unavailable' })
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_PASSED')
    expect(await inBranchDb(branch.project_ref, 'select title from public.notebooks order by id')).toEqual([{ title: 'Work' }, { title: 'Home' }])
    expect(await inBranchDb(branch.project_ref, `select to_regclass('public.stray') is null as gone`)).toEqual([{ gone: true }])
    expect(await inBranchDb(branch.project_ref, 'select count(*)::int as n from supabase_migrations.schema_migrations')).toEqual([{ n: 4 }])
  })

  it('a Read-only member reads branches but cannot reset, merge, change or delete them', async () => {
    const readonly = await s.signIn(READONLY)
    expect((await get(`/v1/projects/${acme.ref}/branches`, readonly)).status).toBe(200)
    expect((await get(`/platform/branches/${branch.id}/migrations`, readonly)).status).toBe(200)
    expect((await post(`/v1/branches/${branch.id}/reset`, {}, readonly)).status).toBe(403)
    expect((await post(`/v1/branches/${branch.id}/merge`, {}, readonly)).status).toBe(403)
    expect((await s.request(`/v1/branches/${branch.id}`, { method: 'DELETE', headers: { cookie: readonly } })).status).toBe(403)
    expect(await s.projectDbs.exists(branch.project_ref)).toBe(true)
  })

  it('delete drops its database, its stored objects and its project', async () => {
    // An object stored through the branch's storage API: its bytes are under the data folder until the delete.
    const { rows } = await s.db.query<{ id: number }>('select id from projects where ref = $1', [branch.project_ref])
    const projectId = rows[0].id
    const { service_role_key } = (await findProjectKeys(s.db, projectId))!
    const storage = (p: string, init: RequestInit & { headers: Record<string, string> }) =>
      s.request(`/p/${branch.project_ref}/storage/v1${p}`, { ...init, headers: { authorization: `Bearer ${service_role_key}`, ...init.headers } })
    expect((await storage('/bucket', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'b' }) })).status).toBe(200)
    expect((await storage('/object/b/file.txt', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'bytes' })).status).toBe(200)
    expect(await s.objects.stored(branch.project_ref)).toHaveLength(1)
    const res = await s.request(`/v1/branches/${branch.id}`, { method: 'DELETE', headers: { cookie: owner } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'ok' })
    expect(await s.projectDbs.exists(branch.project_ref)).toBe(false)
    expect(await s.objects.stored(branch.project_ref)).toEqual([])
    expect((await s.db.query('select 1 from projects where ref = $1', [branch.project_ref])).rows).toEqual([])
    expect((await get(`/v1/branches/${branch.id}`)).status).toBe(404)
    expect((await s.request(`/v1/branches/${branch.id}`, { method: 'DELETE', headers: { cookie: owner } })).status).toBe(404)
  })
})

describe('creating a branch is refused', () => {
  async function refused(ref: string, body: unknown, cookie = owner) {
    const before = await counts()
    const res = await create(ref, body, cookie)
    const answer = ErrorBody.parse(await res.json())
    expect(await counts()).toEqual(before)
    return { status: res.status, ...answer }
  }

  it('for a Read-only member (403), whatever the project', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    expect(await refused(ref, { branch_name: 'ro', git_branch: 'main' }, await s.signIn(READONLY))).toMatchObject({ status: 403 })
  })

  it('below Postgres 15 (Legacy Blog, 14.1): 409 with the notice', async () => {
    const { ref } = await projectByName(s, 'Legacy Blog')
    expect(await refused(ref, { branch_name: 'old', git_branch: 'main' })).toEqual({
      status: 409,
      message: 'Your project needs to be on Postgres 15 to enable branching',
      code: 'postgres_version_too_old',
    })
  })

  it('on the free plan (Recipe Box): 403 with the notice', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    expect(await refused(ref, { branch_name: 'free', git_branch: 'main' })).toEqual({
      status: 403,
      message: 'Database branching is only available on the Pro plan and above',
      code: 'branching_requires_paid_plan',
    })
  })

  it('without a connected repository: 409', async () => {
    await addProject(s.db, 'demo-pro', 'Unlinked', 'unlinkedprojectaaaaa')
    expect(await refused('unlinkedprojectaaaaa', { branch_name: 'x', git_branch: 'main' })).toMatchObject({ status: 409, code: 'no_repository_connection' })
  })

  it('for a git branch the repository does not have: 404 naming the repository', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    expect(await refused(ref, { branch_name: 'ghost', git_branch: 'no-such-branch' })).toEqual({
      status: 404,
      message: 'Unable to find branch from demo-pro/notes-app',
      code: 'git_branch_not_found',
    })
  })

  it('for a branch name already used in the project: 409', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    expect(await refused(ref, { branch_name: 'second', git_branch: 'main' })).toMatchObject({ status: 409, code: 'branch_name_taken' })
  })

  it('for a bad body (400), and for a branch of a branch (409)', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    expect(await refused(ref, { branch_name: '', git_branch: 'main' })).toMatchObject({ status: 400 })
    expect(await refused(ref, { branch_name: 'ok', git_branch: 'a..b' })).toMatchObject({ status: 400 })
    expect(await refused(ref, { branch_name: 'ok' })).toMatchObject({ status: 400 })
    const second = BranchList.parse(await (await get(`/v1/projects/${ref}/branches`)).json()).find((b) => b.name === 'second')!
    expect(await refused(second.project_ref, { branch_name: 'nested', git_branch: 'main' })).toMatchObject({ status: 409, code: 'branch_of_branch' })
  })

  it('for a member of another organization: 404, and a Developer may create one', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const res = await create(ref, { branch_name: 'dev-branch', git_branch: 'main' }, await s.signIn(DEVELOPER))
    expect(res.status).toBe(201)
  })
})

describe('the failing repository (broken-migrations)', () => {
  let branch: BranchResponse
  beforeAll(async () => {
    const id = await addProject(s.db, 'demo-pro', 'Broken parent', 'brokenparentaaaaaaaa')
    const { rows } = await s.db.query<{ id: number }>(
      `select r.id from git_repositories r join integration_installations i on i.id = r.installation_id
       join organizations o on o.id = i.organization_id where o.slug = 'demo-pro' and r.name = 'broken-migrations'`,
    )
    await connect(s.db, id, rows[0].id)
    const res = await create('brokenparentaaaaaaaa', { branch_name: 'broken', git_branch: 'main' })
    expect(res.status).toBe(201)
    branch = BranchResponse.parse(await res.json())
  })

  it('ends MIGRATIONS_FAILED naming the file, the statement and the Postgres error', async () => {
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_FAILED')
    const build = BranchMigrations.parse(await (await get(`/platform/branches/${branch.id}/migrations`)).json())
    expect(build.status).toBe('MIGRATIONS_FAILED')
    expect(build.migrations.map((m) => [m.file, m.status])).toEqual([
      ['20240201080000_create_todos.sql', 'applied'],
      ['20240202080000_add_todo_owner.sql', 'failed'],
      ['20240203080000_todos_index.sql', 'skipped'],
    ])
    expect(build.migrations[1].error).toEqual({
      message: 'relation "public.todo" does not exist',
      code: '42P01',
      statement: 'alter table public.todo add column owner text',
    })
    expect(build.seed.status).toBe('skipped')
    const listed = BranchList.parse(await (await get('/v1/projects/brokenparentaaaaaaaa/branches')).json())
    expect(listed[0]).toMatchObject({ status: 'MIGRATIONS_FAILED', preview_project_status: 'ACTIVE_HEALTHY' })
  })

  it('leaves the migrations before it applied and recorded, nothing of the failing one', async () => {
    expect(await inBranchDb(branch.project_ref, 'select version from supabase_migrations.schema_migrations')).toEqual([{ version: '20240201080000' }])
    expect(await inBranchDb(branch.project_ref, 'select count(*)::int as n from public.todos')).toEqual([{ n: 0 }])
    expect(await inBranchDb(branch.project_ref, `select to_regclass('public.todos_done_idx') is null as absent`)).toEqual([{ absent: true }])
  })

  it('cannot be merged (409)', async () => {
    const res = await post(`/v1/branches/${branch.id}/merge`)
    expect(res.status).toBe(409)
    expect(ErrorBody.parse(await res.json()).code).toBe('branch_not_ready')
  })
})

describe('the dry run', () => {
  let parentRef: string
  beforeAll(async () => {
    parentRef = 'planparentaaaaaaaaaa'
    const id = await addProject(s.db, 'demo-pro', 'Plan parent', parentRef)
    const repo = await addRepository(s.db, s.config, 'demo-pro', 'numbered', {
      commits: [
        {
          branch: 'main',
          files: {
            'supabase/migrations/0001_create_a.sql': 'create table a (id int);',
            'supabase/migrations/0002_create_b.sql': 'create table b (id int);',
            'supabase/migrations/0004_create_d.sql': 'create table d (id int);',
            'supabase/migrations/create_c.sql': 'create table c (id int);',
            'supabase/migrations/.gitkeep': '',
          },
        },
        { branch: 'dup', from: 'main', files: { 'supabase/migrations/0002_create_b_again.sql': 'create table b2 (id int);', 'supabase/seed.sql': 'insert into a values (1);' } },
      ],
    })
    await connect(s.db, id, repo)
  })

  const plan = async (ref: string, gitBranch: string) => {
    const res = await get(`/platform/projects/${ref}/branching/plan?git_branch=${encodeURIComponent(gitBranch)}`)
    expect(res.status).toBe(200)
    return BranchingPlan.parse(await res.json())
  }

  it('lists the files in order, reports the gap and the bad name, and the seed', async () => {
    const p = await plan(parentRef, 'main')
    expect(p).toMatchObject({ repository: 'demo-pro/numbered', git_branch: 'main', migrations_path: 'supabase/migrations', error: null, seed: { path: 'supabase/seed.sql', present: false } })
    expect(p.migrations.map((m) => [m.file, m.new_to_parent])).toEqual([
      ['0001_create_a.sql', true],
      ['0002_create_b.sql', true],
      ['0004_create_d.sql', true],
    ])
    expect(p.warnings.map((w) => [w.code, w.file])).toEqual([
      ['bad_name', 'create_c.sql'],
      ['gap', '0004_create_d.sql'],
    ])
    expect(p.warnings[1].message).toContain('3 missing')
  })

  it('reports a duplicate version and a seed; what the parent has recorded is not new to it', async () => {
    await s.projectDbs.transaction(parentRef, {}, async (tx) => {
      await tx.exec(`create schema supabase_migrations;
        create table supabase_migrations.schema_migrations (version text primary key, name text, statements text[]);
        insert into supabase_migrations.schema_migrations values ('0001', 'create_a', null), ('0009', 'elsewhere', null);`)
    })
    const p = await plan(parentRef, 'dup')
    expect(p.seed.present).toBe(true)
    expect(p.migrations.map((m) => [m.file, m.new_to_parent])).toEqual([
      ['0001_create_a.sql', false],
      ['0002_create_b.sql', true],
      ['0002_create_b_again.sql', true],
      ['0004_create_d.sql', true],
    ])
    expect(p.warnings.map((w) => [w.code, w.file])).toEqual([
      ['bad_name', 'create_c.sql'],
      ['duplicate_version', '0002_create_b_again.sql'],
      ['gap', '0004_create_d.sql'],
      ['out_of_order', '0002_create_b.sql'],
      ['out_of_order', '0002_create_b_again.sql'],
      ['out_of_order', '0004_create_d.sql'],
      ['missing_in_repository', '0009'],
    ])
  })

  it('a repository without supabase/migrations: the import is skipped with a warning and an error object', async () => {
    const id = await addProject(s.db, 'demo-pro', 'Landing', 'landingparentaaaaaaa')
    const { rows } = await s.db.query<{ id: number }>(
      `select r.id from git_repositories r join integration_installations i on i.id = r.installation_id
       join organizations o on o.id = i.organization_id where o.slug = 'demo-pro' and r.name = 'landing-page'`,
    )
    await connect(s.db, id, rows[0].id)
    const p = await plan('landingparentaaaaaaa', 'main')
    expect(p.error).toEqual({ status: 404, statusText: 'Not Found' })
    expect(p.migrations).toEqual([])
    expect(p.warnings.map((w) => w.code)).toEqual(['import_skipped'])
    expect(p.warnings[0].message).toMatch(/^Migration import skipped: /)
  })

  it('answers 404 for a missing git branch and 400 without one', async () => {
    const missing = await get(`/platform/projects/${parentRef}/branching/plan?git_branch=nope`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: 'Unable to find branch from demo-pro/numbered', code: 'git_branch_not_found' })
    expect((await get(`/platform/projects/${parentRef}/branching/plan`)).status).toBe(400)
  })

  it('a branch of the duplicate fails on the history, naming the second file', async () => {
    const res = await create(parentRef, { branch_name: 'dup', git_branch: 'dup' })
    const branch = BranchResponse.parse(await res.json())
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_FAILED')
    const build = BranchMigrations.parse(await (await get(`/platform/branches/${branch.id}/migrations`)).json())
    expect(build.migrations.map((m) => [m.file, m.status])).toEqual([
      ['0001_create_a.sql', 'applied'],
      ['0002_create_b.sql', 'applied'],
      ['0002_create_b_again.sql', 'failed'],
      ['0004_create_d.sql', 'skipped'],
    ])
    expect(build.migrations[2].error?.code).toBe('23505')
    expect(build.warnings.map((w) => w.code)).toContain('duplicate_version')
  })
})
