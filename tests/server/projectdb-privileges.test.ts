/**
 * What the people's SQL may do in a project database. On PostgreSQL the server's own user is a superuser (the test
 * cluster's is): project SQL must run as the project's own login role instead, which can do everything a project
 * owner needs (make and change tables, functions, policies, the demo's tables included, and act as the API roles)
 * but nothing that reaches past its database: read the server's files, run programs, become a superuser again.
 * On PGlite the one session is the cluster's bootstrap role, postgres, made no superuser by the template's lock-down;
 * the same owner-level checks apply to both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryError, QueryResult } from '../../src/contracts/database'
import { DEVELOPER, isPostgres, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let developer: string
let ref: string

async function sql(query: string, projectRef = ref) {
  return s.request(`/platform/projects/${projectRef}/database/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: developer },
    body: JSON.stringify({ query }),
  })
}

async function rows(query: string, projectRef = ref) {
  const res = await sql(query, projectRef)
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return QueryResult.parse(body).rows
}

async function refused(query: string) {
  const res = await sql(query)
  expect(res.status, query).toBe(400)
  return QueryError.parse(await res.json())
}

beforeAll(async () => {
  s = await startTestServer()
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Privileges', status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  ref = ((await res.json()) as { ref: string }).ref
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  developer = await s.signIn(DEVELOPER)
})

afterAll(() => s?.close())

describe('what a member can do with SQL', () => {
  it('makes, changes and drops tables, functions and policies, and acts as the API roles', async () => {
    await rows(`create table notes (id bigint generated always as identity primary key, body text);
      alter table notes enable row level security;
      create policy anon_reads on notes for select to anon using (true);
      create function note_count() returns bigint language sql stable as 'select count(*) from notes';
      insert into notes (body) values ('one');`)
    expect(await rows('set local role anon; select note_count() as n')).toEqual([{ n: 1 }])
    await rows('alter table notes add column tag text; drop function note_count(); drop table notes;')
  })

  it("changes the demo schema's own tables", async () => {
    const { ref: demo } = await projectByName(s, 'Recipe Box')
    await rows('alter table recipes add column spicy boolean not null default false', demo)
    expect(await rows("select column_name from information_schema.columns where table_name = 'recipes' and column_name = 'spicy'", demo)).toHaveLength(1)
  })
})

describe('what SQL cannot reach', () => {
  it("runs as a role that is no superuser and cannot become one (PostgreSQL: the project's own login role; PGlite: postgres)", async () => {
    const [me] = await rows(`select current_user as role, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls
      from pg_roles r where r.rolname = current_user`)
    expect(me).toMatchObject({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false })
    // PGlite's one session is its bootstrap role, postgres, no superuser any more; its superuser is supabase_admin.
    if (isPostgres) expect(String(me.role)).toMatch(new RegExp(`_p_${ref}$`))
    else expect(me.role).toBe('postgres')
    const superuser = isPostgres ? 'postgres' : 'supabase_admin'
    // RESET ROLE and SET SESSION AUTHORIZATION lead back to the login role, never to the server's own user.
    expect(await rows('reset role; select current_user as role, session_user as session')).toEqual([{ role: me.role, session: me.role }])
    expect((await refused(`set session authorization ${superuser}`)).code).toBe('42501')
    expect((await refused(`set role ${superuser}`)).code).toBe('42501')
    expect((await refused("select pg_read_file('/etc/hostname')")).code).toBe('42501')
    expect((await refused(`do $$ begin execute 'copy (select 1) to program ''true'''; end $$`)).code).toBe('42501')
    expect((await refused("select * from pg_ls_dir('.')")).code).toBe('42501')
    expect((await refused('create extension if not exists dblink')).code).toMatch(/^(42501|58P01|0A000)$/)
  })

  it('a top-level COPY to or from the server or a program is refused before it reaches the database', async () => {
    expect((await refused("copy (select 1) to program 'true'")).message).toMatch(/COPY/i)
    expect((await refused("copy (select 1) to '/tmp/out'")).message).toMatch(/COPY/i)
  })
})
