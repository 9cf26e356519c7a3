/**
 * The read-only SQL endpoints never write, whatever the script: one the parser cannot read (8,000 `+1` terms) is
 * refused with the parser's message instead of running unchecked, and neither transaction control (COMMIT, COMMIT in
 * DO or in a called procedure, SET TRANSACTION READ WRITE, session characteristics, prepared statements) nor a change
 * to how Postgres reads the next statement's text (standard_conforming_strings) gets a write past read-only. The
 * writable endpoint refuses unparseable scripts too, and a branch migration the parser refuses fails its build at
 * that file with the parser's message, running none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BranchMigrations, BranchResponse } from '../../src/contracts/branching'
import { QueryError, QueryResult } from '../../src/contracts/database'
import { addProject, addRepository, connect, settle } from './branching-support'
import { json, OWNER, READONLY, startTestServer, type TestServer } from './helpers'

let s: TestServer
let ref: string
let owner: string
let readonly: string

/** An expression that nests one level per term: past some thousands the parser runs out of stack. */
const deep = (terms: number) => `select 1${'+1'.repeat(terms - 1)}`
/**
 * The attack: a COMMIT that ends the read-only transaction, a write, and what makes the parser throw. Where it
 * throws depends on the stack left to it (8,000 terms did on the running server, not always in a test worker), so
 * the tests use 50,000 terms, and 8,000 only where either refusal will do.
 */
const attack = (terms: number) => `commit; insert into ledger (note) values ('escaped'); ${deep(terms)}`
const ATTACK = attack(50_000)
const DEEP_MIGRATION = `commit; create table escaped (id int); ${deep(50_000)};`

const post = (path: string, cookie: string, body: unknown) => s.request(path, json(body, { cookie }))
const readOnlyV1 = (query: string, cookie = readonly) => post(`/v1/projects/${ref}/database/query/read-only`, cookie, { query })
const writableV1 = (query: string, cookie = owner) => post(`/v1/projects/${ref}/database/query`, cookie, { query })
/** The SQL Editor's endpoint: a Read-only member's queries run read-only there. */
const editor = (query: string, cookie = readonly) => post(`/platform/projects/${ref}/database/query`, cookie, { query })

async function refused(res: Response) {
  expect(res.status).toBe(400)
  return QueryError.parse(await res.json())
}

/** The ledger's notes, read as the Owner on the writable endpoint. */
async function notes(): Promise<string[]> {
  const res = await editor('select note from ledger order by note', owner)
  expect(res.status).toBe(200)
  return QueryResult.parse(await res.json()).rows.map((r) => String(r.note))
}

beforeAll(async () => {
  s = await startTestServer()
  ;[owner, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(READONLY)])
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Read-only SQL', status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  ref = ((await res.json()) as { ref: string }).ref
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  const made = await editor(
    `create table ledger (note text not null);
     create procedure commit_then_write() language plpgsql as $$ begin commit; insert into ledger (note) values ('procedure'); end $$;
     create procedure just_write() language plpgsql as $$ begin insert into ledger (note) values ('procedure'); end $$`,
    owner,
  )
  expect(made.status).toBe(200)
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('a script the parser cannot read', () => {
  it('is refused on the read-only endpoint with the parser’s message, and writes nothing', async () => {
    const body = await refused(await readOnlyV1(ATTACK))
    expect(body).toEqual({ message: expect.stringMatching(/^the query is nested too deeply to parse \(.+\)$/), code: '54001' })
    // With 8,000 terms the parser reads the script (and refuses its COMMIT) or gives up: either way nothing runs.
    await refused(await readOnlyV1(attack(8_000)))
    expect(await notes()).toEqual([])
  })

  it('is refused on the SQL Editor’s endpoint for a Read-only member, and writes nothing', async () => {
    expect((await refused(await editor(ATTACK))).code).toBe('54001')
    expect(await notes()).toEqual([])
  })

  it('is refused on the writable endpoints too, never run as it is', async () => {
    expect((await refused(await writableV1(ATTACK))).code).toBe('54001')
    expect((await refused(await editor(ATTACK, owner))).code).toBe('54001')
    expect(await notes()).toEqual([])
  })

  it('a syntax error is the parser’s, with its SQLSTATE and its position in the script', async () => {
    const script = `select 'é'; select * frm ledger`
    const body = await refused(await readOnlyV1(script))
    expect(body).toEqual({ message: 'syntax error at or near "frm"', code: '42601', position: script.indexOf('frm') + 1 })
  })
})

describe('transaction control on the read-only endpoint', () => {
  it('refuses COMMIT before anything runs', async () => {
    const body = await refused(await readOnlyV1(`commit; insert into ledger (note) values ('escaped')`))
    expect(body.message).toMatch(/COMMIT/)
    expect(await notes()).toEqual([])
  })

  it('COMMIT inside DO fails: the script runs in a transaction block', async () => {
    const body = await refused(await readOnlyV1(`do $$ begin commit; insert into ledger (note) values ('do'); end $$`))
    expect(body.code).toBe('2D000')
    expect(await notes()).toEqual([])
  })

  it('a called procedure can neither commit nor write', async () => {
    expect((await refused(await readOnlyV1('call commit_then_write()'))).code).toBe('2D000')
    expect((await refused(await readOnlyV1('call just_write()'))).code).toBe('25006')
    expect(await notes()).toEqual([])
  })

  it('SET TRANSACTION READ WRITE fails: the mode is fixed before the script’s first statement', async () => {
    const body = await refused(await readOnlyV1(`set transaction read write; insert into ledger (note) values ('lifted')`))
    expect(body.code).toBe('25001')
    const viaSetting = await refused(await readOnlyV1(`select set_config('transaction_read_only', 'off', true); insert into ledger (note) values ('lifted')`))
    expect(viaSetting.code).toBe('25001')
    expect(await notes()).toEqual([])
  })

  it('session characteristics and defaults change later transactions, never this one nor the next read-only one', async () => {
    expect((await refused(await readOnlyV1(`set session characteristics as transaction read write; insert into ledger (note) values ('session')`))).code).toBe('25006')
    expect((await refused(await readOnlyV1(`set default_transaction_read_only = off; insert into ledger (note) values ('session')`))).code).toBe('25006')
    expect((await readOnlyV1('set session characteristics as transaction read write')).status).toBe(201)
    expect((await readOnlyV1(`select set_config('default_transaction_read_only', 'off', false)`)).status).toBe(201)
    expect((await refused(await readOnlyV1(`insert into ledger (note) values ('next')`))).code).toBe('25006')
    expect(await notes()).toEqual([])
  })

  it('a prepared statement that writes fails when executed, in the same query or a later one', async () => {
    expect((await refused(await readOnlyV1(`prepare w as insert into ledger (note) values ('prepared'); execute w`))).code).toBe('25006')
    await readOnlyV1(`prepare later as insert into ledger (note) values ('prepared later')`)
    expect((await readOnlyV1('execute later')).status).toBe(400)
    expect(await notes()).toEqual([])
  })

  it('a statement that would be read differently (standard_conforming_strings off) stops the script before it runs', async () => {
    // The parser reads the second statement as one EXPLAIN of a long string; with the setting off, Postgres would
    // read `'a\''` as a string of its own and then run the COMMIT and the INSERT after it.
    const script = `set standard_conforming_strings = off; explain select 'a\\''; commit; insert into ledger (note) values (current_user); select 1 --'`
    for (const send of [readOnlyV1, editor, (q: string) => writableV1(q)]) {
      const body = await refused(await send(script))
      expect(body.message).toMatch(/standard_conforming_strings/)
    }
    const viaFunction = await refused(await readOnlyV1(`select set_config('standard_conforming_strings', 'off', false); select 1`))
    expect(viaFunction.message).toMatch(/standard_conforming_strings/)
    expect(await notes()).toEqual([])
  })

  it('reads still work: several statements, savepoints, the last statement’s rows', async () => {
    const res = await readOnlyV1(`select 1 as a; savepoint s; select 1 as b; rollback to savepoint s; select count(*) as n from ledger`)
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual([{ n: 0 }])
    const shown = await editor('select 1 as one; show transaction_read_only')
    expect(shown.status).toBe(200)
    expect(QueryResult.parse(await shown.json())).toMatchObject({ readOnly: true, command: 'SHOW', rows: [{ transaction_read_only: 'on' }] })
  })
})

describe('a branch migration the parser cannot read', () => {
  it('fails the build at that file with the parser’s message, and none of it runs', async () => {
    const parentRef = 'unparseableparentaaa'
    const id = await addProject(s.db, 'demo-pro', 'Unparseable parent', parentRef)
    const repo = await addRepository(s.db, s.config, 'demo-pro', 'unparseable', {
      commits: [
        {
          branch: 'main',
          files: {
            'supabase/migrations/0001_create_a.sql': 'create table a (id int);',
            'supabase/migrations/0002_deep.sql': DEEP_MIGRATION,
            'supabase/migrations/0003_create_c.sql': 'create table c (id int);',
          },
        },
      ],
    })
    await connect(s.db, id, repo)
    const res = await s.request(`/v1/projects/${parentRef}/branches`, json({ branch_name: 'deep', git_branch: 'main' }, { cookie: owner }))
    expect(res.status).toBe(201)
    const branch = BranchResponse.parse(await res.json())
    expect(await settle(s, branch.id)).toBe('MIGRATIONS_FAILED')
    const build = BranchMigrations.parse(await (await s.request(`/platform/branches/${branch.id}/migrations`, { headers: { cookie: owner } })).json())
    expect(build.migrations.map((m) => [m.file, m.status])).toEqual([
      ['0001_create_a.sql', 'applied'],
      ['0002_deep.sql', 'failed'],
      ['0003_create_c.sql', 'skipped'],
    ])
    expect(build.migrations[1].error).toEqual({
      message: expect.stringMatching(/^the query is nested too deeply to parse \(.+\)$/),
      code: '54001',
      statement: DEEP_MIGRATION,
    })
    const tables = await s.projectDbs.transaction(branch.project_ref, {}, async (tx) =>
      (await tx.query(`select table_name from information_schema.tables where table_schema = 'public' order by 1`)).rows,
    )
    expect(tables).toEqual([{ table_name: 'a' }])
  }, 120_000)
})
