/**
 * Diff and merge of preview branches (PGlite and PostgreSQL 15). A Pro project with an empty database is connected
 * to a copy of the demo's notes repository: a branch of `main` merged into it runs exactly its four migrations; a
 * column added on the branch is what the diff names; a branch of `feature/tags` merges exactly the one migration the
 * parent lacks; a migration that fails on the parent stops the merge and says which.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BranchDiff, BranchResponse, MergeFailure, MergePlan, MergeResponse } from '../../src/contracts/branching'
import { addProject, addRepository, connect, settle } from './branching-support'
import { json, OWNER, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
const PARENT = 'mergeparentaaaaaaaaa'

beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle: { branchStepMs: 0 } } })
  owner = await s.signIn(OWNER)
  const id = await addProject(s.db, 'demo-pro', 'Merge parent', PARENT)
  await connect(s.db, id, await addRepository(s.db, s.config, 'demo-pro', 'notes-copy', { demo: 'notes' }))
})
afterAll(() => s?.close())

const get = (path: string) => s.request(path, { headers: { cookie: owner } })
const post = (path: string, body: unknown = {}) => s.request(path, json(body, { cookie: owner }))

async function rows<T = Record<string, unknown>>(ref: string, sql: string): Promise<T[]> {
  return s.projectDbs.transaction(ref, {}, async (tx) => (await tx.query(sql)).rows as T[])
}
const history = async (ref: string) =>
  (await rows<{ v: string }>(ref, `select version || '_' || name as v from supabase_migrations.schema_migrations order by version`)).map((r) => r.v)

async function branchOf(name: string, gitBranch: string): Promise<BranchResponse> {
  const res = await post(`/v1/projects/${PARENT}/branches`, { branch_name: name, git_branch: gitBranch })
  expect(res.status).toBe(201)
  const branch = BranchResponse.parse(await res.json())
  expect(await settle(s, branch.id)).toBe('MIGRATIONS_PASSED')
  return branch
}

const NOTES_MIGRATIONS = [
  { version: '20240108090000', name: 'create_notebooks' },
  { version: '20240108093000', name: 'create_notes' },
  { version: '20240109100000', name: 'notes_rls' },
  { version: '20240110110000', name: 'notes_search' },
]

describe('merge and diff', () => {
  let main: BranchResponse

  it('the diff of a fresh branch against the empty parent lists its tables and function', async () => {
    main = await branchOf('main-copy', 'main')
    const diff = BranchDiff.parse(await (await get(`/platform/branches/${main.id}/diff`)).json())
    expect(diff.schemas).toContain('public')
    expect(diff.changes.filter((c) => c.change === 'added').map((c) => `${c.kind} ${c.name}`)).toEqual([
      'table notebooks',
      'table notes',
      'function search_notes(query text)',
    ])
    // The parts of an added table are said by the table's own line.
    expect(diff.changes.every((c) => c.change === 'added')).toBe(true)
  })

  it('the merge plan and the merge run exactly the four migrations on the parent, each recorded', async () => {
    const plan = MergePlan.parse(await (await get(`/platform/branches/${main.id}/merge-plan`)).json())
    expect(plan.migrations).toEqual(NOTES_MIGRATIONS)
    const res = await post(`/v1/branches/${main.id}/merge`)
    expect(res.status).toBe(201)
    expect(MergeResponse.parse(await res.json()).applied).toEqual(NOTES_MIGRATIONS)
    expect(await history(PARENT)).toEqual(NOTES_MIGRATIONS.map((m) => `${m.version}_${m.name}`))
    // The schema came, not the seed's rows.
    expect(await rows(PARENT, 'select count(*)::int as n from public.notes')).toEqual([{ n: 0 }])
    const again = MergeResponse.parse(await (await post(`/v1/branches/${main.id}/merge`)).json())
    expect(again.applied).toEqual([])
    expect(MergePlan.parse(await (await get(`/platform/branches/${main.id}/merge-plan`)).json()).migrations).toEqual([])
  })

  it('after the merge the diff is empty; one added column is what it names', async () => {
    const empty = BranchDiff.parse(await (await get(`/platform/branches/${main.id}/diff`)).json())
    expect(empty.changes).toEqual([])
    await rows(main.project_ref, `alter table public.notes add column color text not null default 'yellow'`)
    const diff = BranchDiff.parse(await (await get(`/platform/branches/${main.id}/diff`)).json())
    expect(diff.changes).toEqual([
      { kind: 'column', change: 'added', schema: 'public', table: 'notes', name: 'color', parent: null, branch: `text not null default 'yellow'::text` },
    ])
    const text = await get(`/v1/branches/${main.id}/diff`)
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await text.text()).toBe(`+ column public.notes.color: text not null default 'yellow'::text\n`)
  })

  it('names changed and removed objects too: a type, a policy, an index', async () => {
    await rows(main.project_ref, `alter table public.notes alter column title type varchar(200)`)
    await rows(main.project_ref, `drop policy "notes are readable" on public.notes`)
    await rows(main.project_ref, `create index notes_pinned_idx on public.notes (pinned)`)
    const diff = BranchDiff.parse(await (await get(`/platform/branches/${main.id}/diff`)).json())
    expect(diff.changes.map((c) => [c.kind, c.change, c.table, c.name])).toEqual([
      ['column', 'added', 'notes', 'color'],
      ['column', 'changed', 'notes', 'title'],
      ['index', 'added', 'notes', 'notes_pinned_idx'],
      ['policy', 'removed', 'notes', 'notes are readable'],
    ])
    expect(diff.changes[1]).toMatchObject({ parent: 'text not null', branch: 'character varying(200) not null' })
  })

  it('a branch of feature/tags merges exactly the one migration the parent lacks', async () => {
    const tags = await branchOf('tags', 'feature/tags')
    const plan = MergePlan.parse(await (await get(`/platform/branches/${tags.id}/merge-plan`)).json())
    expect(plan.migrations).toEqual([{ version: '20240111120000', name: 'add_tags' }])
    const merged = MergeResponse.parse(await (await post(`/v1/branches/${tags.id}/merge`)).json())
    expect(merged.applied).toEqual([{ version: '20240111120000', name: 'add_tags' }])
    expect(await history(PARENT)).toEqual([...NOTES_MIGRATIONS.map((m) => `${m.version}_${m.name}`), '20240111120000_add_tags'])
    expect(await rows(PARENT, `select to_regclass('public.note_tags') is not null as present`)).toEqual([{ present: true }])
  })

  it('a migration that fails on the parent stops the merge, says which, and keeps what ran before it', async () => {
    const id = await addProject(s.db, 'demo-pro', 'Clashing parent', 'clashparentaaaaaaaaa')
    const repo = await addRepository(s.db, s.config, 'demo-pro', 'clash', {
      commits: [
        {
          branch: 'main',
          files: {
            'supabase/migrations/0001_create_a.sql': 'create table public.a (id int);',
            'supabase/migrations/0002_create_b.sql': 'create table public.b (id int);',
            'supabase/migrations/0003_create_c.sql': 'create table public.c (id int);',
          },
        },
      ],
    })
    await connect(s.db, id, repo)
    // The parent already has a table b that no migration made.
    await rows('clashparentaaaaaaaaa', 'create table public.b (id int)')
    const res = await s.request('/v1/projects/clashparentaaaaaaaaa/branches', json({ branch_name: 'clash', git_branch: 'main' }, { cookie: owner }))
    const branch = BranchResponse.parse(await res.json())
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_PASSED')
    const merge = await post(`/v1/branches/${branch.id}/merge`)
    expect(merge.status).toBe(422)
    const failure = MergeFailure.parse(await merge.json())
    expect(failure).toMatchObject({
      code: 'merge_migration_failed',
      migration: { version: '0002', name: 'create_b' },
      error: { message: 'relation "b" already exists', code: '42P07', statement: 'create table public.b (id int)' },
      applied: [{ version: '0001', name: 'create_a' }],
    })
    expect(failure.message).toBe('Migration 0002_create_b failed on the parent: relation "b" already exists')
    expect(await history('clashparentaaaaaaaaa')).toEqual(['0001_create_a'])
    expect(await rows('clashparentaaaaaaaaa', `select to_regclass('public.c') is null as absent`)).toEqual([{ absent: true }])
  })

  it('merging up to a migration_version runs only up to it', async () => {
    const id = await addProject(s.db, 'demo-pro', 'Partial parent', 'partialparentaaaaaaa')
    const repo = await addRepository(s.db, s.config, 'demo-pro', 'partial', {
      commits: [{ branch: 'main', files: { 'supabase/migrations/0001_a.sql': 'create table public.a (id int);', 'supabase/migrations/0002_b.sql': 'create table public.b (id int);' } }],
    })
    await connect(s.db, id, repo)
    const res = await s.request('/v1/projects/partialparentaaaaaaa/branches', json({ branch_name: 'p', git_branch: 'main' }, { cookie: owner }))
    const branch = BranchResponse.parse(await res.json())
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_PASSED')
    const merged = MergeResponse.parse(await (await post(`/v1/branches/${branch.id}/merge`, { migration_version: '0001' })).json())
    expect(merged.applied).toEqual([{ version: '0001', name: 'a' }])
    expect(await history('partialparentaaaaaaa')).toEqual(['0001_a'])
    expect((await post(`/v1/branches/${branch.id}/merge`, { migration_version: 'latest' })).status).toBe(400)
  })
})
