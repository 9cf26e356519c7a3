/**
 * The SQL Editor on the platform: saved queries (private or shared, rename, edit, favourite per person, delete by the
 * author only) and the Management API's /v1/snippets in its document's shapes; runs statement by statement with a
 * row cap, as the owner or as anon / a chosen authenticated user (row level security decides, as through REST),
 * Explain's plan, the last 100 runs per person, the completion catalog, and bad input answered with clear 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryError } from '../../src/contracts/database'
import { Snippet, SnippetList, V1SnippetList } from '../../src/contracts/snippets'
import { HISTORY_LENGTH, SqlCompletions, SqlHistory, SqlRunResult, SqlUsers } from '../../src/contracts/sqlEditor'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, json, startTestServer, type TestServer } from './helpers'
import { expectValid, responseValidator } from './openapi'

let s: TestServer
let ref: string
let owner: string
let developer: string
let readonly: string
let ownerToken: string
let developerToken: string
const ALICE = '11111111-1111-4111-8111-111111111111'
const BOB = '22222222-2222-4222-8222-222222222222'

async function newActiveProject(name: string): Promise<string> {
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name, status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  const created = (await res.json()) as { ref: string }
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  return created.ref
}

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  s.request(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
const bearer = (path: string, token: string) => s.request(path, { headers: { authorization: `Bearer ${token}` } })

async function tokenOf(cookie: string) {
  const res = await send('POST', '/platform/profile/access-tokens', cookie, { name: 'snippets test' })
  return ((await res.json()) as { token: string }).token
}

async function run(body: Record<string, unknown>, cookie = owner) {
  const res = await send('POST', `/platform/projects/${ref}/sql/run`, cookie, body)
  const answer = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(answer)}`)
  return SqlRunResult.parse(answer)
}

async function create(cookie: string, body: Record<string, unknown>) {
  const res = await send('POST', `/platform/projects/${ref}/snippets`, cookie, body)
  expect(res.status, await res.clone().text()).toBe(201)
  return Snippet.parse(await res.json())
}

beforeAll(async () => {
  s = await startTestServer()
  ref = await newActiveProject('SQL Editor')
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  ;[ownerToken, developerToken] = await Promise.all([tokenOf(owner), tokenOf(developer)])
  await s.projectDbs.transaction(ref, {}, async (tx) => {
    await tx.query(`insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
      values ($1, 'authenticated', 'authenticated', 'alice@example.com', '{}', '{}', now(), now()),
             ($2, 'authenticated', 'authenticated', 'bob@example.com', '{}', '{}', now(), now())`, [ALICE, BOB])
  })
  await run({
    query: `create table notes (id serial primary key, author uuid not null, body text not null, public boolean not null default false);
      alter table notes enable row level security;
      grant select on notes to anon, authenticated;
      create policy "public notes" on notes for select to anon using (public);
      create policy "own notes" on notes for select to authenticated using (author = auth.uid());
      insert into notes (author, body, public) values ('${ALICE}', 'alice secret', false), ('${ALICE}', 'alice public', true), ('${BOB}', 'bob secret', false)`,
  })
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('saved queries', () => {
  it('keeps a private snippet for its author only, and a shared one for every member', async () => {
    const mine = await create(owner, { name: 'My notes', sql: 'select * from notes' })
    expect(mine).toMatchObject({ name: 'My notes', visibility: 'user', favorite: false, type: 'sql', content: { sql: 'select * from notes', schema_version: '1.0' } })
    const shared = await create(owner, { name: 'Team report', sql: 'select count(*) from notes', visibility: 'project', description: 'counts' })

    const ownerList = SnippetList.parse(await (await send('GET', `/platform/projects/${ref}/snippets`, owner)).json())
    expect(ownerList.data.map((x) => x.id)).toEqual(expect.arrayContaining([mine.id, shared.id]))
    const devList = SnippetList.parse(await (await send('GET', `/platform/projects/${ref}/snippets`, developer)).json())
    expect(devList.data.map((x) => x.id)).toContain(shared.id)
    expect(devList.data.map((x) => x.id)).not.toContain(mine.id)
    expect((await bearer(`/v1/snippets/${mine.id}`, developerToken)).status).toBe(404)
  })

  it('renames, edits and shares only by the author; a favourite is each reader’s own', async () => {
    const snippet = await create(owner, { name: 'Draft', sql: 'select 1', visibility: 'project' })
    const path = `/platform/projects/${ref}/snippets/${snippet.id}`
    const renamed = Snippet.parse(await (await send('PATCH', path, owner, { name: 'Final "name" ünïcode', sql: 'select 2' })).json())
    expect(renamed).toMatchObject({ name: 'Final "name" ünïcode', content: { sql: 'select 2' } })

    const refused = await send('PATCH', path, developer, { name: 'Taken over' })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toContain("Only the snippet's author")
    expect((await send('DELETE', path, developer)).status).toBe(403)

    const devFavourite = Snippet.parse(await (await send('PATCH', path, developer, { favorite: true })).json())
    expect(devFavourite.favorite).toBe(true)
    const ownerView = Snippet.parse(await (await send('PATCH', path, owner, { visibility: 'user' })).json())
    expect(ownerView.favorite).toBe(false)
    expect(ownerView.visibility).toBe('user')
    // Private again: the developer no longer sees it, favourite or not.
    expect((await send('PATCH', path, developer, { favorite: false })).status).toBe(404)

    expect((await send('DELETE', path, owner)).status).toBe(204)
    expect((await send('PATCH', path, owner, { name: 'gone' })).status).toBe(404)
  })

  it('lists favourites first', async () => {
    const a = await create(readonly, { name: 'aaa', sql: 'select 1' })
    const z = await create(readonly, { name: 'zzz', sql: 'select 1' })
    await send('PATCH', `/platform/projects/${ref}/snippets/${z.id}`, readonly, { favorite: true })
    const list = SnippetList.parse(await (await send('GET', `/platform/projects/${ref}/snippets`, readonly)).json())
    const ids = list.data.map((x) => x.id)
    expect(ids.indexOf(z.id)).toBeLessThan(ids.indexOf(a.id))
  })

  it('answers the Management API in its document’s shapes, paged by cursor', async () => {
    const listValidate = responseValidator('/v1/snippets')
    const first = await bearer(`/v1/snippets?project_ref=${ref}&limit=1&sort_by=name&sort_order=asc`, ownerToken)
    expect(first.status).toBe(200)
    const page1 = await first.json()
    expectValid(listValidate, page1)
    const parsed = V1SnippetList.parse(page1)
    expect(parsed.data).toHaveLength(1)
    expect(parsed.cursor).toBeDefined()
    const page2 = V1SnippetList.parse(await (await bearer(`/v1/snippets?project_ref=${ref}&limit=1&sort_by=name&sort_order=asc&cursor=${parsed.cursor}`, ownerToken)).json())
    const names = [...parsed.data, ...page2.data].map((x) => x.name)
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)))
    expect(new Set([...parsed.data, ...page2.data].map((x) => x.id)).size).toBe(parsed.data.length + page2.data.length)

    const one = await bearer(`/v1/snippets/${parsed.data[0].id}`, ownerToken)
    expect(one.status).toBe(200)
    expectValid(responseValidator('/v1/snippets/{id}'), await one.json())
  })

  it('refuses bad input with a clear 4xx', async () => {
    const base = `/platform/projects/${ref}/snippets`
    const cases: Array<[Promise<Response>, number, string]> = [
      [send('POST', base, owner, { name: '', sql: 'select 1' }), 400, 'name is required'],
      [send('POST', base, owner, { name: 'x'.repeat(257), sql: 'select 1' }), 400, 'at most 256'],
      [send('POST', base, owner, { name: 'x', sql: 'select 1', visibility: 'public' }), 400, 'visibility'],
      [send('PATCH', `${base}/not-a-uuid`, owner, { name: 'x' }), 400, 'id: a snippet id'],
      [send('PATCH', `${base}/${ALICE}`, owner, {}), 400, 'Name at least one'],
      [bearer('/v1/snippets?limit=0', ownerToken), 400, 'limit'],
      [bearer('/v1/snippets?cursor=bogus', ownerToken), 400, 'cursor'],
      [bearer('/v1/snippets?sort_by=size', ownerToken), 400, 'sort_by'],
      [bearer(`/v1/snippets/${ALICE}`, ownerToken), 404, 'Snippet not found'],
    ]
    for (const [response, status, message] of cases) {
      const res = await response
      expect(res.status).toBe(status)
      expect(((await res.json()) as { message: string }).message).toContain(message)
    }
  })

  it('keeps another organization’s project out of reach', async () => {
    const foreign = await insertForeignOrganization(s.db)
    expect((await send('GET', `/platform/projects/${foreign.ref}/snippets`, owner)).status).toBe(404)
    expect((await send('POST', `/platform/projects/${foreign.ref}/snippets`, owner, { name: 'x', sql: '' })).status).toBe(404)
  })
})

describe('runs', () => {
  it('answers each statement with its own result', async () => {
    const ran = await run({ query: `select 1 as one; select 'a' as letter, 2 as two; create temporary table t(x int)` })
    expect(ran.results.map((r) => r.command)).toEqual(['SELECT', 'SELECT', 'CREATE TABLE'])
    expect(ran.results[0]).toMatchObject({ columns: [{ name: 'one', type: 'integer' }], rows: [{ one: 1 }], capped: false })
    expect(ran.results[1].rows).toEqual([{ letter: 'a', two: 2 }])
    expect(ran).toMatchObject({ role: 'postgres', readOnly: false })
  })

  it('caps a result at the row limit and says so', async () => {
    const ran = await run({ query: 'select g from generate_series(1, 250) g; select 1 as n', row_limit: 100 })
    expect(ran.results[0]).toMatchObject({ capped: true, rowCount: 100 })
    expect(ran.results[0].rows).toHaveLength(100)
    expect(ran.results[1]).toMatchObject({ capped: false, rowCount: 1 })
    const exact = await run({ query: 'select g from generate_series(1, 100) g', row_limit: 100 })
    expect(exact.results[0]).toMatchObject({ capped: false, rowCount: 100 })
  })

  it('runs as anon and as a chosen user, and row level security decides as through REST', async () => {
    const asOwner = await run({ query: 'select body from notes order by id' })
    expect(asOwner.results[0].rows.map((r) => r.body)).toEqual(['alice secret', 'alice public', 'bob secret'])
    const asAnon = await run({ query: 'select body from notes order by id', role: 'anon' })
    expect(asAnon.role).toBe('anon')
    expect(asAnon.results[0].rows.map((r) => r.body)).toEqual(['alice public'])
    const asAlice = await run({ query: `select body, auth.uid()::text as uid, current_user as who from notes order by id`, role: 'authenticated', user_id: ALICE })
    expect(asAlice.results[0].rows).toEqual([
      { body: 'alice secret', uid: ALICE, who: 'authenticated' },
      { body: 'alice public', uid: ALICE, who: 'authenticated' },
    ])
    const asBob = await run({ query: 'select body from notes', role: 'authenticated', user_id: BOB })
    expect(asBob.results[0].rows).toEqual([{ body: 'bob secret' }])
    // The API roles have only their grants: no writing where none was granted.
    const denied = await send('POST', `/platform/projects/${ref}/sql/run`, owner, { query: `insert into notes (author, body) values ('${BOB}', 'x')`, role: 'anon' })
    expect(denied.status).toBe(400)
    expect(QueryError.parse(await denied.json()).code).toBe('42501')
  })

  it('shows the plan of one statement with Explain, without running it', async () => {
    const ran = await run({ query: `delete from notes where body = 'bob secret'`, explain: true })
    expect(ran.results).toEqual([])
    expect(ran.plan?.['Node Type']).toBe('ModifyTable')
    expect(ran.plan?.Plans?.[0]?.['Node Type']).toBe('Seq Scan')
    expect((await run({ query: 'select count(*)::int as n from notes' })).results[0].rows).toEqual([{ n: 3 }])
    const two = await send('POST', `/platform/projects/${ref}/sql/run`, owner, { query: 'select 1; select 2', explain: true })
    expect(two.status).toBe(400)
    expect(((await two.json()) as { message: string }).message).toContain('Explain takes one statement')
  })

  it("runs a Read-only member's queries read-only", async () => {
    const ran = await run({ query: 'select 1 as n' }, readonly)
    expect(ran.readOnly).toBe(true)
    const res = await send('POST', `/platform/projects/${ref}/sql/run`, readonly, { query: 'create table nope (x int)' })
    expect(res.status).toBe(400)
    expect(QueryError.parse(await res.json()).code).toBe('25006')
  })

  it('refuses bad input with a clear 4xx, never a 500', async () => {
    const path = `/platform/projects/${ref}/sql/run`
    const cases: Array<[unknown, number, string]> = [
      [{ query: '' }, 400, 'query is required'],
      [{ query: 'select 1', role: 'service_role' }, 400, 'role'],
      [{ query: 'select 1', role: 'authenticated' }, 400, 'needs user_id'],
      [{ query: 'select 1', user_id: ALICE }, 400, 'user_id goes with role authenticated'],
      [{ query: 'select 1', role: 'authenticated', user_id: 'alice' }, 400, 'user_id'],
      [{ query: 'select 1', role: 'authenticated', user_id: '33333333-3333-4333-8333-333333333333' }, 404, 'No user with id'],
      [{ query: 'select 1', row_limit: 0 }, 400, 'row_limit: at least 1'],
      [{ query: 'select 1', row_limit: 100_001 }, 400, 'row_limit: at most 100000'],
      [{ query: 'selec 1' }, 400, 'syntax error'],
      [{ query: 'select * from "no such table ✓"' }, 400, 'does not exist'],
      [{ query: 'begin; select 1' }, 400, 'BEGIN, COMMIT'],
    ]
    for (const [body, status, message] of cases) {
      const res = await send('POST', path, owner, body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(((await res.json()) as { message: string }).message).toContain(message)
    }
  })

  it('keeps each person’s last 100 runs, failed ones with their error', async () => {
    const before = SqlHistory.parse(await (await send('GET', `/platform/projects/${ref}/sql/history`, developer)).json())
    expect(before.runs).toEqual([])
    await run({ query: 'select 1 as first' }, developer)
    const failed = await send('POST', `/platform/projects/${ref}/sql/run`, developer, { query: 'select * from nowhere' })
    expect(failed.status).toBe(400)
    const history = SqlHistory.parse(await (await send('GET', `/platform/projects/${ref}/sql/history`, developer)).json())
    expect(history.runs.map((r) => [r.query, r.error === null])).toEqual([
      ['select * from nowhere', false],
      ['select 1 as first', true],
    ])
    expect(history.runs[0].error).toContain('nowhere')
    // Past 100, the oldest go: 99 older runs written straight to the store, then one more run.
    await s.db.query(
      `insert into sql_history (project_id, account_id, query, role, ran_at)
       select p.id, a.id, 'select ' || g || ' as n', 'postgres', now() from projects p, accounts a, generate_series(0, $3 - 2) g
       where p.ref = $1 and a.primary_email = $2 order by g`,
      [ref, DEVELOPER, HISTORY_LENGTH],
    )
    await run({ query: `select ${HISTORY_LENGTH - 1} as n` }, developer)
    const full = SqlHistory.parse(await (await send('GET', `/platform/projects/${ref}/sql/history`, developer)).json())
    expect(full.runs).toHaveLength(HISTORY_LENGTH)
    expect(full.runs[0].query).toBe(`select ${HISTORY_LENGTH - 1} as n`)
    expect(full.runs.at(-1)?.query).toBe('select 0 as n')
    const { rows } = await s.db.query<{ n: number }>(`select count(*)::int as n from sql_history h join accounts a on a.id = h.account_id where a.primary_email = $1`, [DEVELOPER])
    expect(rows[0].n).toBe(HISTORY_LENGTH)
    // Another person's history is their own.
    const ownerHistory = SqlHistory.parse(await (await send('GET', `/platform/projects/${ref}/sql/history`, owner)).json())
    expect(ownerHistory.runs.some((r) => r.query.startsWith('select 99 as n'))).toBe(false)
  })
})

describe('completions and users', () => {
  it('reads schemas, tables with columns and functions from the database, new ones after DDL', async () => {
    const before = SqlCompletions.parse(await (await send('GET', `/platform/projects/${ref}/sql/completions`, owner)).json())
    expect(before.schemas).toEqual(expect.arrayContaining(['public', 'auth']))
    expect(before.tables.find((t) => t.schema === 'public' && t.name === 'notes')?.columns.map((c) => c.name)).toEqual(['id', 'author', 'body', 'public'])
    expect(before.functions.some((f) => f.schema === 'auth' && f.name === 'uid')).toBe(true)
    await run({ query: `create table "select" ("my col" text); create function public.twice(n int) returns int language sql as 'select n * 2'` })
    const after = SqlCompletions.parse(await (await send('GET', `/platform/projects/${ref}/sql/completions`, owner)).json())
    expect(after.tables.find((t) => t.name === 'select')?.columns).toEqual([{ name: 'my col', type: 'text' }])
    expect(after.functions.find((f) => f.name === 'twice')).toEqual({ schema: 'public', name: 'twice', args: 'n integer', returns: 'integer' })
  })

  it('lists the project’s users to run as, searched by e-mail', async () => {
    const all = SqlUsers.parse(await (await send('GET', `/platform/projects/${ref}/sql/users`, owner)).json())
    expect(all.users.map((u) => u.email).sort()).toEqual(['alice@example.com', 'bob@example.com'])
    const found = SqlUsers.parse(await (await send('GET', `/platform/projects/${ref}/sql/users?search=BOB`, owner)).json())
    expect(found.users).toEqual([{ id: BOB, email: 'bob@example.com' }])
    const percent = SqlUsers.parse(await (await send('GET', `/platform/projects/${ref}/sql/users?search=%25`, owner)).json())
    expect(percent.users).toEqual([])
  })
})
