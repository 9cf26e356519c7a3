/**
 * A project's own database, through the app (PGlite workers, or a database per project on PostgreSQL): the
 * template's roles and grants, row level security as anon, service_role's bypass, Postgres errors as
 * ProjectDbError, read-only transactions, isolation between projects, status gating.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProjectDbError } from '../../src/server/projectdb/types'
import { json, startTestServer, type TestServer } from './helpers'

let s: TestServer
let refA: string
let refB: string

async function newActiveProject(name: string): Promise<string> {
  const res = await s.request(
    '/dev/projects',
    json({ organization_slug: 'demo-pro', name, status: 'COMING_UP' }),
  )
  expect(res.status).toBe(201)
  const { ref } = (await res.json()) as { ref: string }
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  return ref
}

beforeAll(async () => {
  s = await startTestServer()
  refA = await newActiveProject('Db A')
  refB = await newActiveProject('Db B')
  await s.projectDbs.transaction(refA, {}, (tx) =>
    tx.exec(`
      create table notes (id int generated always as identity primary key, body text not null, published boolean not null default false);
      alter table notes enable row level security;
      create policy published_only on notes for select to anon using (published);
      insert into notes (body, published) values ('public', true), ('draft', false);
      create table secrets (v text);
      revoke all on secrets from anon;
      insert into secrets values ('s');
    `),
  )
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('project database from the template', () => {
  it('has the API roles with their attributes, schema storage and the buckets table', async () => {
    const roles = await s.projectDbs.transaction(refA, {}, (tx) =>
      tx.query(
        `select rolname, rolcanlogin, rolinherit, rolbypassrls from pg_roles
         where rolname in ('anon', 'authenticated', 'service_role') order by rolname`,
      ),
    )
    expect(roles.rows).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolinherit: false, rolbypassrls: false },
      { rolname: 'authenticated', rolcanlogin: false, rolinherit: false, rolbypassrls: false },
      { rolname: 'service_role', rolcanlogin: false, rolinherit: false, rolbypassrls: true },
    ])
    const buckets = await s.projectDbs.transaction(refA, { role: 'service_role' }, (tx) =>
      tx.query(`insert into storage.buckets (id, name) values ('avatars', 'avatars') returning id, public`),
    )
    expect(buckets.rows).toEqual([{ id: 'avatars', public: false }])
    // As on the platform, anon may query storage.buckets but row level security (no policy) shows it no bucket.
    const seen = await s.projectDbs.transaction(refA, { role: 'anon' }, (tx) => tx.query('select * from storage.buckets'))
    expect(seen.rows).toEqual([])
  })

  it('a PGlite project cluster runs with small shared buffers (its WebAssembly memory holds all of them)', async () => {
    const r = await s.projectDbs.transaction(refA, {}, (tx) => tx.query(`select current_setting('shared_buffers') as sb`))
    if (s.projectDbs.kind === 'pglite') expect(r.rows).toEqual([{ sb: '16MB' }])
    else expect(r.rows[0].sb).toMatch(/B$/)
  })

  it('row level security applies to anon; service_role bypasses it', async () => {
    const anon = await s.projectDbs.transaction(refA, { role: 'anon' }, (tx) => tx.query('select body from notes order by id'))
    expect(anon.rows).toEqual([{ body: 'public' }])
    expect(anon.fields.map((f) => f.name)).toEqual(['body'])
    const service = await s.projectDbs.transaction(refA, { role: 'service_role' }, (tx) =>
      tx.query('select body from notes order by id'),
    )
    expect(service.rows).toEqual([{ body: 'public' }, { body: 'draft' }])
  })

  it('a table without a grant answers permission denied as a ProjectDbError', async () => {
    const err = await s.projectDbs
      .transaction(refA, { role: 'anon' }, (tx) => tx.query('select * from secrets'))
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProjectDbError)
    expect(err).toMatchObject({ code: '42501', message: expect.stringContaining('permission denied') })
  })

  it('sets request.jwt.claims and the role for the transaction only', async () => {
    const r = await s.projectDbs.transaction(refA, { role: 'authenticated', claims: { sub: 'u1', role: 'authenticated' } }, (tx) =>
      tx.query(`select current_user as who, current_setting('request.jwt.claims', true)::jsonb ->> 'sub' as sub`),
    )
    expect(r.rows).toEqual([{ who: 'authenticated', sub: 'u1' }])
    const after = await s.projectDbs.transaction(refA, {}, (tx) => tx.query('select current_user as who'))
    expect(after.rows[0].who).not.toBe('authenticated')
  })

  it('what a transaction set for the session (role, settings, temporary tables) does not reach the next one', async () => {
    await s.projectDbs.transaction(refA, {}, (tx) =>
      tx.exec(`set role anon; set application_name = 'leaky'; create temp table leftover (x int)`),
    )
    const r = await s.projectDbs.transaction(refA, {}, (tx) =>
      tx.query(
        `select current_user as who, current_setting('application_name') as app, to_regclass('pg_temp.leftover') is null as gone`,
      ),
    )
    expect(r.rows[0].who).not.toBe('anon')
    expect(r.rows[0].app).not.toBe('leaky')
    expect(r.rows[0].gone).toBe(true)
  })

  it('reports the position, and rolls back a failed transaction', async () => {
    const err = (await s.projectDbs
      .transaction(refA, {}, async (tx) => {
        await tx.query(`insert into notes (body) values ('lost')`)
        await tx.query('select nosuchcolumn from notes')
      })
      .catch((e: unknown) => e)) as ProjectDbError
    expect(err.code).toBe('42703')
    expect(err.position).toBe(8)
    const r = await s.projectDbs.transaction(refA, {}, (tx) => tx.query(`select count(*)::int as n from notes where body = 'lost'`))
    expect(r.rows).toEqual([{ n: 0 }])
  })

  it("passes the caller's own error through unchanged, after rolling back", async () => {
    class Mine extends Error {}
    const err = await s.projectDbs
      .transaction(refA, {}, async (tx) => {
        await tx.query(`insert into notes (body) values ('mine')`)
        throw new Mine('stop')
      })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Mine)
    const r = await s.projectDbs.transaction(refA, {}, (tx) => tx.query(`select count(*)::int as n from notes where body = 'mine'`))
    expect(r.rows).toEqual([{ n: 0 }])
  })

  it('a read-only transaction refuses writes', async () => {
    await expect(
      s.projectDbs.transaction(refA, { readOnly: true }, (tx) => tx.query(`insert into notes (body) values ('x')`)),
    ).rejects.toMatchObject({ code: '25006' })
  })

  it('query carries one statement only, so nothing can end a read-only transaction behind another statement', async () => {
    await expect(
      s.projectDbs.transaction(refA, { readOnly: true }, (tx) => tx.query(`select 1; commit; insert into notes (body) values ('x')`)),
    ).rejects.toMatchObject({ code: '42601' })
    const { rows } = await s.projectDbs.transaction(refA, {}, (tx) => tx.query(`select count(*)::int as n from notes where body = 'x'`))
    expect(rows).toEqual([{ n: 0 }])
  })

  it('exec runs a script and answers one result per statement', async () => {
    const results = await s.projectDbs.transaction(refA, {}, (tx) => tx.exec(`select 1 as a; select 2 as b, 3 as c`))
    expect(results.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2, c: 3 }]])
  })

  it('two projects cannot see each other’s tables', async () => {
    await expect(s.projectDbs.transaction(refB, {}, (tx) => tx.query('select * from notes'))).rejects.toMatchObject({
      code: '42P01',
    })
    await s.projectDbs.transaction(refB, {}, (tx) => tx.query('create table only_b (x int)'))
    await expect(s.projectDbs.transaction(refA, {}, (tx) => tx.query('select * from only_b'))).rejects.toMatchObject({
      code: '42P01',
    })
  })

  it('refuses transactions while the project is not ACTIVE_HEALTHY', async () => {
    const res = await s.request(`/dev/projects/${refB}/status`, json({ status: 'UNKNOWN' }))
    expect(res.status).toBe(200)
    await expect(s.projectDbs.transaction(refB, {}, (tx) => tx.query('select 1'))).rejects.toMatchObject({
      code: 'database_unavailable',
    })
    await s.request(`/dev/projects/${refB}/status`, json({ status: 'ACTIVE_HEALTHY' }))
    const r = await s.projectDbs.transaction(refB, {}, (tx) => tx.query('select count(*)::int as n from only_b'))
    expect(r.rows).toEqual([{ n: 0 }])
  })
})
