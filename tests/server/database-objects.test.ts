/**
 * The Database section's objects and Policies: each list read from the project's own catalog, each change shown as
 * SQL first and then run as the project's own role, for names with spaces, quotes, unicode and reserved words; REST
 * obeying a policy made here; bad descriptions and refusals with clear 4xx answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryError } from '../../src/contracts/database'
import {
  ChangeApplied, ChangePreview, ExtensionList, FunctionList, IndexList, PolicyTableList, PublicationList, RoleList,
  SchemaList, TriggerList, TypeList, type ObjectChangeInput,
} from '../../src/contracts/databaseObjects'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { OWNER, READONLY, isPostgres, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let ref: string
let owner: string
let readonly: string
let anonKey: string

/** A table whose name needs every kind of quoting, with a column named by a reserved word. */
const TABLE = 'my "odd" täble'
const Q_TABLE = '"public"."my ""odd"" täble"'

const base = () => `/platform/projects/${ref}/database/objects`

async function list<T>(kind: string, schema: { parse(v: unknown): T }, query = ''): Promise<T> {
  const res = await s.request(`${base()}/${kind}${query}`, { headers: { cookie: owner } })
  const body: unknown = await res.json()
  if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${JSON.stringify(body)}`)
  return schema.parse(body)
}

const send = (what: 'preview' | 'apply', change: unknown, cookie = owner) =>
  s.request(`${base()}/${what}`, { ...json(change), headers: { 'content-type': 'application/json', cookie } })

async function preview(change: ObjectChangeInput): Promise<string> {
  const res = await send('preview', change)
  const body: unknown = await res.json()
  if (res.status !== 200) throw new Error(`preview: ${res.status} ${JSON.stringify(body)}`)
  return ChangePreview.parse(body).sql
}

/** Previews, applies, and checks the two agree; the applied answer. */
async function apply(change: ObjectChangeInput): Promise<ChangeApplied> {
  const sql = await preview(change)
  const res = await send('apply', change)
  const body: unknown = await res.json()
  if (res.status !== 200) throw new Error(`apply: ${res.status} ${JSON.stringify(body)}`)
  const applied = ChangeApplied.parse(body)
  expect(applied.sql).toBe(sql)
  return applied
}

async function sql(query: string) {
  const res = await s.request(`/platform/projects/${ref}/database/query`, {
    ...json({ query }),
    headers: { 'content-type': 'application/json', cookie: owner },
  })
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`)
}

const rest = (path: string) => s.request(`/p/${ref}/rest/v1/${path}`, { headers: { apikey: anonKey } })

beforeAll(async () => {
  s = await startTestServer()
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  const keys = await findProjectKeys(s.db, project.id)
  if (!keys) throw new Error('Recipe Box has no keys')
  anonKey = keys.anon_key
  ;[owner, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(READONLY)])
  await sql(
    `create table ${Q_TABLE} (id int primary key, "select" text, published boolean not null default false);
     grant select on ${Q_TABLE} to anon;
     insert into ${Q_TABLE} values (1, 'draft', false), (2, 'out', true);`,
  )
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('lists', () => {
  it('names the schemas, public first, without Postgres own', async () => {
    const schemas = await list('schemas', SchemaList)
    expect(schemas[0]).toBe('public')
    expect(schemas).toEqual(expect.arrayContaining(['auth', 'storage']))
    expect(schemas).not.toContain('pg_catalog')
    expect(schemas).not.toContain('information_schema')
  })

  it('lists the roles the project has, its own marked, and no other login role', async () => {
    const roles = await list('roles', RoleList)
    const current = roles.filter((r) => r.is_current)
    expect(current).toHaveLength(1)
    expect(current[0].superuser).toBe(false)
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role']))
    expect(roles.find((r) => r.name === 'service_role')?.bypass_rls).toBe(true)
    expect(roles.filter((r) => r.can_login && !r.is_current)).toEqual([])
    expect(current[0].member_of).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role']))
  })

  it('lists the publications, the realtime one included', async () => {
    const pubs = await list('publications', PublicationList)
    expect(pubs.map((p) => p.name)).toContain('supabase_realtime')
  })

  it('lists the functions of a schema, without those of other schemas', async () => {
    const auth = await list('functions', FunctionList, '?schema=auth')
    const uid = auth.find((f) => f.name === 'uid')
    expect(uid).toMatchObject({ schema: 'auth', return_type: 'uuid', language: 'sql', kind: 'function', arguments: '' })
    expect(auth.every((f) => f.schema === 'auth')).toBe(true)
  })
})

describe('policies and row level security', () => {
  const policyName = 'Enable read access for "published" rows ✓'

  it('shows the table without RLS, then enables it from SQL shown first', async () => {
    const before = await list('policies', PolicyTableList)
    expect(before.find((t) => t.name === TABLE)).toEqual({ schema: 'public', name: TABLE, rls_enabled: false, rls_forced: false, policies: [] })
    expect(await preview({ action: 'table.rls', schema: 'public', table: TABLE, enabled: true })).toBe(
      `alter table ${Q_TABLE} enable row level security;`,
    )
    // Without RLS the anon key reads every row.
    expect(((await (await rest(encodeURIComponent(TABLE))).json()) as unknown[]).length).toBe(2)
    const applied = await apply({ action: 'table.rls', schema: 'public', table: TABLE, enabled: true })
    expect(applied.command).toBe('ALTER TABLE')
    const after = await list('policies', PolicyTableList)
    expect(after.find((t) => t.name === TABLE)?.rls_enabled).toBe(true)
    // RLS on and no policy: nothing.
    expect(await (await rest(encodeURIComponent(TABLE))).json()).toEqual([])
  })

  it('creates a policy from its description, and REST obeys it', async () => {
    const change = {
      action: 'policy.create',
      schema: 'public',
      table: TABLE,
      name: policyName,
      command: 'SELECT',
      roles: ['anon'],
      using: 'published',
    } satisfies ObjectChangeInput
    expect(await preview(change)).toBe(
      `create policy "Enable read access for ""published"" rows ✓" on ${Q_TABLE}\n  as permissive\n  for select\n  to "anon"\n  using (published);`,
    )
    expect((await apply(change)).command).toBe('CREATE POLICY')
    const table = (await list('policies', PolicyTableList)).find((t) => t.name === TABLE)
    expect(table?.policies).toEqual([
      { name: policyName, command: 'SELECT', permissive: true, roles: ['anon'], using: 'published', check: null },
    ])
    const rows = (await (await rest(`${encodeURIComponent(TABLE)}?select=id,select`)).json()) as unknown[]
    expect(rows).toEqual([{ id: 2, select: 'out' }])
  })

  it('edits a policy: its roles, expression and name', async () => {
    const renamed = 'select'
    await apply({ action: 'policy.update', schema: 'public', table: TABLE, name: policyName, roles: ['anon', 'authenticated'], using: 'id > 0', new_name: renamed })
    const table = (await list('policies', PolicyTableList)).find((t) => t.name === TABLE)
    expect(table?.policies).toEqual([
      { name: renamed, command: 'SELECT', permissive: true, roles: ['anon', 'authenticated'], using: '(id > 0)', check: null },
    ])
    expect(((await (await rest(encodeURIComponent(TABLE))).json()) as unknown[]).length).toBe(2)
    await apply({ action: 'policy.drop', schema: 'public', table: TABLE, name: renamed })
    expect((await list('policies', PolicyTableList)).find((t) => t.name === TABLE)?.policies).toEqual([])
  })

  it('a policy for every role names PUBLIC, not a role called "public"', async () => {
    const change = { action: 'policy.create', schema: 'public', table: TABLE, name: 'all', command: 'ALL', using: 'true', check: 'true' } satisfies ObjectChangeInput
    expect(await preview(change)).toContain('\n  to public\n')
    await apply(change)
    const table = (await list('policies', PolicyTableList)).find((t) => t.name === TABLE)
    expect(table?.policies.map((p) => [p.name, p.roles, p.command])).toEqual([['all', ['public'], 'ALL']])
    await apply({ action: 'policy.drop', schema: 'public', table: TABLE, name: 'all' })
    await apply({ action: 'table.rls', schema: 'public', table: TABLE, enabled: false })
  })
})

describe('functions and triggers', () => {
  const fn = 'stamp "it" ✎'
  const trigger = 'before insert or update'

  it('creates a trigger function, a trigger on it, lists both, disables, drops', async () => {
    await apply({
      action: 'function.create',
      schema: 'public',
      name: fn,
      return_type: 'trigger',
      language: 'plpgsql',
      // The body holds the default dollar tag: the quoting picks another.
      definition: "begin new.\"select\" := coalesce(new.\"select\", '$fn$'); return new; end;",
    })
    const fns = await list('functions', FunctionList)
    const made = fns.find((f) => f.name === fn)
    expect(made).toMatchObject({ schema: 'public', return_type: 'trigger', language: 'plpgsql', kind: 'function', security_definer: false })
    expect(made?.definition).toContain("'$fn$'")

    const create = {
      action: 'trigger.create',
      schema: 'public',
      table: TABLE,
      name: trigger,
      timing: 'BEFORE',
      events: ['INSERT', 'UPDATE'],
      orientation: 'ROW',
      function_schema: 'public',
      function_name: fn,
    } satisfies ObjectChangeInput
    expect(await preview(create)).toBe(
      `create trigger "before insert or update"\n  before insert or update on ${Q_TABLE}\n  for each row\n  execute function "public"."stamp ""it"" ✎"();`,
    )
    await apply(create)
    const triggers = await list('triggers', TriggerList)
    expect(triggers.find((t) => t.name === trigger)).toMatchObject({
      table: TABLE, enabled: true, timing: 'BEFORE', events: ['INSERT', 'UPDATE'], orientation: 'ROW', function_name: fn,
    })
    await sql(`insert into ${Q_TABLE} (id) values (3)`)

    await apply({ action: 'trigger.enable', schema: 'public', table: TABLE, name: trigger, enabled: false })
    expect((await list('triggers', TriggerList)).find((t) => t.name === trigger)?.enabled).toBe(false)
    await apply({ action: 'trigger.drop', schema: 'public', table: TABLE, name: trigger })
    expect((await list('triggers', TriggerList)).find((t) => t.name === trigger)).toBeUndefined()

    expect((await apply({ action: 'function.drop', id: made!.id })).sql).toBe('drop function public."stamp ""it"" ✎"();')
    expect((await list('functions', FunctionList)).find((f) => f.name === fn)).toBeUndefined()
  })

  it('creates a function with arguments named by reserved words', async () => {
    await apply({
      action: 'function.create',
      schema: 'public',
      name: 'add',
      arguments: [{ name: 'order', type: 'integer' }, { name: 'from', type: 'integer' }],
      return_type: 'integer',
      language: 'sql',
      definition: 'select "order" + "from"',
    })
    const made = (await list('functions', FunctionList)).find((f) => f.name === 'add')
    expect(made?.arguments).toBe('"order" integer, "from" integer')
    expect((await apply({ action: 'function.drop', id: made!.id })).sql).toBe('drop function public.add("order" integer, "from" integer);')
  })
})

describe('types, indexes, publications, extensions', () => {
  it('creates an enumerated type with labels that need quoting, then drops it', async () => {
    const change = { action: 'type.create', schema: 'public', name: 'mood ☺', values: ["it's ok", 'happy', 'ünïcode'] } satisfies ObjectChangeInput
    expect(await preview(change)).toBe(`create type "public"."mood ☺" as enum ('it''s ok', 'happy', 'ünïcode');`)
    await apply(change)
    expect((await list('types', TypeList)).find((t) => t.name === 'mood ☺')).toMatchObject({ values: ["it's ok", 'happy', 'ünïcode'], comment: null })
    await apply({ action: 'type.drop', schema: 'public', name: 'mood ☺' })
    expect((await list('types', TypeList)).find((t) => t.name === 'mood ☺')).toBeUndefined()
  })

  it('creates an index on a reserved-word column, lists it with the primary key, drops it', async () => {
    await apply({ action: 'index.create', schema: 'public', table: TABLE, name: 'by "select"', columns: ['select'], unique: true })
    const indexes = (await list('indexes', IndexList)).filter((i) => i.table === TABLE)
    expect(indexes.find((i) => i.primary)?.unique).toBe(true)
    const made = indexes.find((i) => i.name === 'by "select"')
    expect(made).toMatchObject({ method: 'btree', unique: true, primary: false })
    expect(made?.definition).toContain('("select")')
    await apply({ action: 'index.drop', schema: 'public', name: 'by "select"' })
    expect((await list('indexes', IndexList)).find((i) => i.name === 'by "select"')).toBeUndefined()
  })

  it('creates a publication of the odd table, then drops it', async () => {
    await apply({ action: 'publication.create', name: 'pub "one"', tables: [{ schema: 'public', name: TABLE }] })
    const pub = (await list('publications', PublicationList)).find((p) => p.name === 'pub "one"')
    expect(pub).toMatchObject({ all_tables: false, insert: true, tables: [`public.${TABLE}`] })
    await apply({ action: 'publication.drop', name: 'pub "one"' })
  })

  it('lists what the engine really has, and enables and disables a trusted extension', async () => {
    const extensions = await list('extensions', ExtensionList)
    expect(extensions.find((e) => e.name === 'plpgsql')).toMatchObject({ installed_version: expect.any(String), can_enable: false })
    const citext = extensions.find((e) => e.name === 'citext')
    if (!isPostgres) {
      // PGlite has plpgsql and the pg_stat_statements its template made: its lock-down leaves no superuser to run
      // another extension's script.
      expect(extensions.map((e) => e.name)).toEqual(['pg_stat_statements', 'plpgsql'])
      expect(extensions.find((e) => e.name === 'pg_stat_statements')).toMatchObject({ installed_version: expect.any(String), schema: 'extensions' })
    }
    // Each answer matches the engine: one the role may not create is refused by Postgres itself.
    const refusedOne = extensions.find((e) => !e.can_enable && !e.installed_version)
    if (refusedOne) {
      const res = await send('apply', { action: 'extension.enable', name: refusedOne.name })
      expect(res.status).toBe(400)
      expect(QueryError.parse(await res.json()).code).toBe('42501')
    }
    const res = await send('apply', { action: 'extension.enable', name: 'no such extension' })
    expect(res.status).toBe(400)
    expect(QueryError.parse(await res.json()).code).toBe('0A000')
    if (!isPostgres) return
    // The test server has contrib installed; its bootstrap role is a superuser, so the trusted citext can be enabled.
    expect(citext).toMatchObject({ trusted: true, can_enable: true, installed_version: null })
    expect(await preview({ action: 'extension.enable', name: 'citext' })).toBe('create extension "citext";')
    await apply({ action: 'extension.enable', name: 'citext' })
    const enabled = (await list('extensions', ExtensionList)).find((e) => e.name === 'citext')
    expect(enabled).toMatchObject({ installed_version: expect.any(String), schema: 'public', can_enable: false, can_disable: true })
    await sql(`select 'A'::citext = 'a'::citext`)
    await apply({ action: 'extension.disable', name: 'citext' })
    expect((await list('extensions', ExtensionList)).find((e) => e.name === 'citext')?.installed_version).toBeNull()
  })
})

describe('bad input', () => {
  const refused = async (change: unknown, status = 400) => {
    const res = await send('preview', change)
    expect(res.status).toBe(status)
    return ((await res.json()) as { message: string }).message
  }

  it('refuses a description that does not parse, with the field named', async () => {
    expect(await refused({ action: 'policy.drop', schema: 'public', table: TABLE, name: '' })).toBe('name: a name is required')
    expect(await refused({ action: 'type.drop', schema: 'public', name: 'x'.repeat(60) + 'ééé' })).toBe(
      'name: a name is at most 63 bytes (UTF-8) long',
    )
    expect(await refused({ action: 'type.drop', schema: 'public', name: 'a\u0000b' })).toMatch(/NUL character/)
    expect(await refused({ action: 'drop everything' })).toMatch(/action/)
    expect(await refused({ action: 'trigger.create', schema: 'public', table: TABLE, name: 't', timing: 'BEFORE', events: [], orientation: 'ROW', function_schema: 'public', function_name: 'f' })).toBe(
      'events: choose at least one event',
    )
  })

  it('refuses what Postgres would refuse, before it runs', async () => {
    expect(await refused({ action: 'policy.create', schema: 'public', table: TABLE, name: 'p', command: 'INSERT', using: 'true' })).toBe(
      'An INSERT policy takes a WITH CHECK expression only (no USING)',
    )
    expect(await refused({ action: 'policy.create', schema: 'public', table: TABLE, name: 'p', command: 'SELECT' })).toBe(
      'Give a USING or a WITH CHECK expression',
    )
    expect(await refused({ action: 'policy.update', schema: 'public', table: TABLE, name: 'p' })).toMatch(/^Nothing to change/)
    expect(await refused({ action: 'function.drop', id: 999999999 }, 404)).toBe('No function with id 999999999')
  })

  it('answers the Postgres error of a change on something missing, and nothing is left half-made', async () => {
    const res = await send('apply', { action: 'policy.create', schema: 'public', table: 'no such table', name: 'p', command: 'SELECT', using: 'true' })
    expect(res.status).toBe(400)
    expect(QueryError.parse(await res.json())).toMatchObject({ code: '42P01', message: 'relation "public.no such table" does not exist' })
    const bad = await send('apply', { action: 'type.create', schema: 'public', name: 'twice', values: ['a', 'a'] })
    expect(bad.status).toBe(400)
    expect((await list('types', TypeList)).find((t) => t.name === 'twice')).toBeUndefined()
  })

  it('a Read-only member sees the SQL but cannot run it; an unknown schema lists nothing', async () => {
    const change = { action: 'table.rls', schema: 'public', table: TABLE, enabled: true }
    expect((await send('preview', change, readonly)).status).toBe(200)
    const res = await send('apply', change, readonly)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: 'A Read-only member cannot change the database' })
    expect((await list('policies', PolicyTableList)).find((t) => t.name === TABLE)?.rls_enabled).toBe(false)
    expect(await list('functions', FunctionList, `?schema=${encodeURIComponent('no "such" schema')}`)).toEqual([])
  })

  it('answers 404 for a project the person is not in', async () => {
    const res = await s.request(`/platform/projects/abcdefghijklmnopqrst/database/objects/functions`, { headers: { cookie: owner } })
    expect(res.status).toBe(404)
  })
})
