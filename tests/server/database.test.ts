/**
 * A project's own database through its endpoints: SQL queries (v1, v1 read-only, the SQL Editor) with their rows as
 * Postgres prints them, errors with their SQLSTATE and position, read-only rules by role, the time-out, status
 * gating; then the tables of schema public (columns, keys, relationships, comments, enums, identity, row counts) and
 * a table's rows by page, for names with spaces, quotes and unicode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatabaseTableList, QueryError, QueryResult, TableRows, V1QueryResult } from '../../src/contracts/database'
import { LARGE_BODY_ROUTES } from '../../src/server/core/guards'
import { COUNT_BOUND } from '../../src/server/features/database/tables'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, isPostgres, json, startTestServer, type TestServer } from './helpers'

/** Short, so the time-out test is quick; every other query here takes milliseconds. */
const QUERY_TIMEOUT_MS = 1_500

let s: TestServer
let ref: string
let owner: string
let developer: string
let readonly: string
let ownerToken: string

async function newActiveProject(name: string): Promise<string> {
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name, status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  const created = (await res.json()) as { ref: string }
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  return created.ref
}

const post = (path: string, cookieOrToken: { cookie?: string; token?: string }, body: unknown) =>
  s.request(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(cookieOrToken.cookie ? { cookie: cookieOrToken.cookie } : {}),
      ...(cookieOrToken.token ? { authorization: `Bearer ${cookieOrToken.token}` } : {}),
    },
    body: JSON.stringify(body),
  })

/** The SQL Editor's endpoint, as the Owner unless told. */
async function sql(query: string, opts: { cookie?: string; parameters?: unknown[]; projectRef?: string } = {}) {
  return post(`/platform/projects/${opts.projectRef ?? ref}/database/query`, { cookie: opts.cookie ?? owner }, {
    query,
    ...(opts.parameters ? { parameters: opts.parameters } : {}),
  })
}

async function sqlOk(query: string, opts: Parameters<typeof sql>[1] = {}): Promise<QueryResult> {
  const res = await sql(query, opts)
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return QueryResult.parse(body)
}

async function sqlError(query: string, opts: Parameters<typeof sql>[1] = {}) {
  const res = await sql(query, opts)
  return { status: res.status, body: QueryError.parse(await res.json()) }
}

beforeAll(async () => {
  s = await startTestServer({ config: { projectDb: { queryTimeoutMs: QUERY_TIMEOUT_MS } } })
  ref = await newActiveProject('Database Endpoints')
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  const res = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie: owner, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'database test' }),
  })
  ownerToken = ((await res.json()) as { token: string }).token
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('POST /platform/projects/{ref}/database/query (SQL Editor)', () => {
  it('creates a table, inserts with RETURNING and selects, with columns and command', async () => {
    const ddl = await sqlOk('create table notes (id bigint generated always as identity primary key, body text not null)')
    expect(ddl).toMatchObject({ columns: [], rows: [], command: 'CREATE TABLE', readOnly: false })

    const inserted = await sqlOk(`insert into notes (body) values ('first'), ('second') returning id, body`)
    expect(inserted.command).toBe('INSERT')
    expect(inserted.rows).toEqual([
      { id: 1, body: 'first' },
      { id: 2, body: 'second' },
    ])
    expect(inserted.rowCount).toBe(2)

    const selected = await sqlOk('select id, body from notes order by id desc')
    expect(selected.columns).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'body', type: 'text' },
    ])
    expect(selected.rows).toEqual([
      { id: 2, body: 'second' },
      { id: 1, body: 'first' },
    ])
    expect(selected).toMatchObject({ rowCount: 2, command: 'SELECT', readOnly: false })
    expect(selected.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('gives the columns and their types when there are no rows', async () => {
    const empty = await sqlOk(`select id, body, now() as at, 1.5::numeric(4,2) as n from notes where false`)
    expect(empty.rows).toEqual([])
    expect(empty.columns).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'body', type: 'text' },
      { name: 'at', type: 'timestamp with time zone' },
      { name: 'n', type: 'numeric' },
    ])
  })

  it('runs several statements and answers the last one; an UPDATE counts its rows', async () => {
    const r = await sqlOk(`insert into notes (body) values ('third'); update notes set body = upper(body) where id <= 2; select count(*) as n from notes`)
    expect(r.rows).toEqual([{ n: 3 }])
    const updated = await sqlOk(`update notes set body = lower(body)`)
    expect(updated).toMatchObject({ command: 'UPDATE', rowCount: 3, rows: [], columns: [] })
  })

  it('binds parameters, and refuses parameters with several statements', async () => {
    const r = await sqlOk('select body from notes where id = $1 or body = $2 order by id', { parameters: [1, 'third'] })
    expect(r.rows).toEqual([{ body: 'first' }, { body: 'third' }])
    const refused = await sqlError('select 1; select $1', { parameters: [1] })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/single statement/)
  })

  it('answers a Postgres error with its SQLSTATE and its 1-based position in the script', async () => {
    const one = await sqlError('select * from nope')
    expect(one).toEqual({ status: 400, body: { message: 'relation "nope" does not exist', code: '42P01', position: 15 } })
    // In the second statement of a script, after a multi-byte character: the position still points at "nope".
    const script = `select 'é'; select * from nope`
    const second = await sqlError(script)
    expect(second.body).toMatchObject({ code: '42P01', position: script.indexOf('nope') + 1 })
    const syntax = await sqlError('select * frm notes')
    expect(syntax.body).toMatchObject({ code: '42601', position: 10 })
    const withDetail = await sqlError(`insert into notes (id, body) values (1, 'x')`)
    expect(withDetail.body.code).toBe('428C9')
    expect(withDetail.body.hint).toMatch(/OVERRIDING SYSTEM VALUE/)
  })

  it('rolls the whole script back when a statement fails', async () => {
    await sqlError(`insert into notes (body) values ('lost'); select * from nope`)
    const r = await sqlOk(`select count(*) as n from notes where body = 'lost'`)
    expect(r.rows).toEqual([{ n: 0 }])
  })

  it('gives bigints past 2^53, numerics, timestamps, bytea and json exactly as Postgres prints them', async () => {
    const r = await sqlOk(
      `select 9007199254740993::bigint as big, 42::bigint as small, 12345678901234567890.123456789::numeric as n,
              1.10::numeric as ten, 1.5::float8 as f, '2024-02-29 12:34:56.123456+00'::timestamptz as ts,
              '\\x00ff'::bytea as b, '{"k": [1, 2], "big": 123456789012345678901}'::jsonb as j, null::int as nothing`,
    )
    expect(r.rows).toEqual([
      {
        big: '9007199254740993',
        small: 42,
        n: '12345678901234567890.123456789',
        ten: '1.10',
        f: 1.5,
        ts: '2024-02-29T12:34:56.123456+00:00',
        b: '\\x00ff',
        j: { big: '123456789012345678901', k: [1, 2] },
        nothing: null,
      },
    ])
  })

  it('makes driver values JSON for statements that cannot be read through row_to_json (a WITH that writes, SHOW)', async () => {
    const r = await sqlOk(
      `with w as (update notes set body = body where false returning id)
       select 9007199254740993::bigint as big, 7::bigint as small, '\\x01ff'::bytea as b from (values (1)) v left join w on true`,
    )
    expect(r).toMatchObject({ command: 'SELECT', rowCount: 1, rows: [{ big: '9007199254740993', small: 7, b: '\\x01ff' }] })
    expect(r.columns).toEqual([
      { name: 'big', type: 'bigint' },
      { name: 'small', type: 'bigint' },
      { name: 'b', type: 'bytea' },
    ])
    const show = await sqlOk('show transaction_read_only', { cookie: readonly })
    expect(show).toMatchObject({ command: 'SHOW', rows: [{ transaction_read_only: 'on' }], readOnly: true })
  })

  it('refuses transaction control, which would end the transaction the query runs in', async () => {
    const r = await sqlError(`commit; insert into notes (body) values ('escaped')`)
    expect(r.status).toBe(400)
    expect(r.body.message).toMatch(/COMMIT/)
  })

  it('runs a Read-only member’s query read-only: reads work, writes fail with 25006', async () => {
    const read = await sqlOk('select count(*) as n from notes', { cookie: readonly })
    expect(read).toMatchObject({ rows: [{ n: 3 }], readOnly: true })
    const write = await sqlError(`insert into notes (body) values ('ro')`, { cookie: readonly })
    expect(write).toMatchObject({ status: 400, body: { code: '25006' } })
    // Nor can the script lift read-only.
    const lift = await sqlError(`set transaction read write; insert into notes (body) values ('ro')`, { cookie: readonly })
    expect(lift.body.code).toBe('25001')
    expect((await sqlOk(`select count(*) as n from notes where body = 'ro'`)).rows).toEqual([{ n: 0 }])
  })

  it('leaves no session setting, role or temporary table behind for the next query', async () => {
    const settings = `select current_user as who, current_setting('search_path') as path, current_setting('application_name') as app`
    const before = await sqlOk(settings)
    await sqlOk(`set role anon; set search_path = nowhere`, { cookie: readonly })
    await sqlOk(`create temp table notes (shadow int); select set_config('application_name', 'leaked', false)`)
    const after = await sqlOk(settings)
    expect(after.rows).toEqual(before.rows)
    // The project owner: PGlite's postgres, or on PostgreSQL the project's own role (never the server's own user).
    expect(String(after.rows[0].who)).toMatch(isPostgres ? new RegExp(`_p_${ref}$`) : /^postgres$/)
    expect((await sqlOk('select count(*) as n from notes')).rows).toEqual([{ n: 3 }])
  })

  it('lets a Developer write', async () => {
    const r = await sqlOk(`insert into notes (body) values ('dev') returning body`, { cookie: developer })
    expect(r).toMatchObject({ rows: [{ body: 'dev' }], readOnly: false })
  })

  it('stops a query past the time-out with query_timeout, and the next query works', async () => {
    const slow = await sql('select pg_sleep(30)')
    expect(slow.status).toBe(408)
    const body = QueryError.parse(await slow.json())
    expect(body.code).toBe('query_timeout')
    expect(body.message).toMatch(/time-out of 1500 ms/)
    const next = await sqlOk('select count(*) as n from notes')
    expect(next.rows).toEqual([{ n: 4 }])
  }, 30_000)

  it('validates the body', async () => {
    const res = await post(`/platform/projects/${ref}/database/query`, { cookie: owner }, { query: '' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toMatch(/query is required/)
  })
})

describe('POST /v1/projects/{ref}/database/query and /read-only (Management API)', () => {
  it('answers 201 with the rows of the last statement, for a personal access token', async () => {
    const res = await post(`/v1/projects/${ref}/database/query`, { token: ownerToken }, { query: `select 1 as a; select 'x' as b, 2::bigint as c` })
    expect(res.status).toBe(201)
    expect(V1QueryResult.parse(await res.json())).toEqual([{ b: 'x', c: 2 }])
    const ddl = await post(`/v1/projects/${ref}/database/query`, { token: ownerToken }, { query: 'create table v1_made (x int)' })
    expect(ddl.status).toBe(201)
    expect(await ddl.json()).toEqual([])
  })

  it('refuses a Read-only member’s write query with 403, runs it with read_only: true or on /read-only', async () => {
    const refused = await post(`/v1/projects/${ref}/database/query`, { cookie: readonly }, { query: 'select 1 as one' })
    expect(refused.status).toBe(403)
    const asked = await post(`/v1/projects/${ref}/database/query`, { cookie: readonly }, { query: 'select 1 as one', read_only: true })
    expect(asked.status).toBe(201)
    expect(await asked.json()).toEqual([{ one: 1 }])
    const ro = await post(`/v1/projects/${ref}/database/query/read-only`, { cookie: readonly }, { query: 'select count(*) as n from notes' })
    expect(ro.status).toBe(201)
    expect(await ro.json()).toEqual([{ n: 4 }])
  })

  it('the read-only endpoint refuses writes with 25006, for the Owner too', async () => {
    const res = await post(`/v1/projects/${ref}/database/query/read-only`, { token: ownerToken }, { query: `delete from notes` })
    expect(res.status).toBe(400)
    expect(QueryError.parse(await res.json()).code).toBe('25006')
  })

  it('a Developer may write through v1', async () => {
    const res = await post(`/v1/projects/${ref}/database/query`, { cookie: developer }, { query: `delete from notes where body = 'dev' returning id` })
    expect(res.status).toBe(201)
    expect(await res.json()).toHaveLength(1)
  })

  it('answers 404 for a project of another organization, on every endpoint', async () => {
    const foreign = await insertForeignOrganization(s.db)
    for (const path of ['database/query', 'database/query/read-only']) {
      const res = await post(`/v1/projects/${foreign.ref}/${path}`, { token: ownerToken }, { query: 'select 1' })
      expect(res.status).toBe(404)
    }
    expect((await sql('select 1', { projectRef: foreign.ref })).status).toBe(404)
    expect((await s.request(`/platform/projects/${foreign.ref}/database/tables`, { headers: { cookie: owner } })).status).toBe(404)
    expect((await s.request(`/v1/projects/${foreign.ref}/types/typescript`, { headers: { cookie: owner } })).status).toBe(404)
  })

  it('accepts a script over the 64 KB JSON limit (up to 2 MB) on the query routes only', async () => {
    const values = Array.from({ length: 4_000 }, (_, i) => `(${i}, '${'x'.repeat(20)}')`).join(', ')
    const query = `select count(*) as n from (values ${values}) v(i, s)`
    expect(query.length).toBeGreaterThan(64 * 1024)
    const res = await post(`/v1/projects/${ref}/database/query`, { token: ownerToken }, { query })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual([{ n: 4_000 }])
    expect(LARGE_BODY_ROUTES.find((r) => r.path.test(`/platform/projects/${ref}/database/query`))?.maxBytes).toBe(2 * 1024 * 1024)
    const tooBig = await post(`/v1/projects/${ref}/database/query`, { token: ownerToken }, { query: `select '${'x'.repeat(2 * 1024 * 1024)}'` })
    expect(tooBig.status).toBe(413)
  })
})

describe('a project that is not ACTIVE_HEALTHY', () => {
  it('answers 409 with a clear message, and works again once active', async () => {
    const paused = await newActiveProject('Paused Database')
    expect((await s.request(`/dev/projects/${paused}/status`, json({ status: 'INACTIVE' }))).status).toBe(200)
    const res = await sql('select 1', { projectRef: paused })
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toMatch(/paused: restore it/)
    const v1 = await post(`/v1/projects/${paused}/database/query/read-only`, { token: ownerToken }, { query: 'select 1' })
    expect(v1.status).toBe(409)
    const tables = await s.request(`/platform/projects/${paused}/database/tables`, { headers: { cookie: owner } })
    expect(tables.status).toBe(409)
    await s.request(`/dev/projects/${paused}/status`, json({ status: 'ACTIVE_HEALTHY' }))
    expect((await sqlOk('select 1 as one', { projectRef: paused })).rows).toEqual([{ one: 1 }])
  })
})

describe('GET /platform/projects/{ref}/database/tables', () => {
  let tables: DatabaseTableList

  beforeAll(async () => {
    await sqlOk(`
      create type order_status as enum ('pending', 'paid', 'shipped');
      create table customers (
        id bigint generated by default as identity primary key,
        email text not null unique,
        nickname varchar(40) default 'friend'
      );
      comment on table customers is 'People who buy';
      comment on column customers.email is 'Where receipts go';
      create table orders (
        id int generated always as identity,
        region text not null,
        customer_id bigint references customers (id),
        status order_status not null default 'pending',
        tags text[],
        primary key (region, id)
      );
      alter table orders enable row level security;
      create table order_lines (
        order_region text, order_id int, line int,
        constraint order_lines_order_fkey foreign key (order_region, order_id) references orders (region, id)
      );
      create view paid_orders as select id, region from orders where status = 'paid';
      insert into customers (email) select 'c' || g || '@example.com' from generate_series(1, 250) g;
    `)
    const res = await s.request(`/platform/projects/${ref}/database/tables`, { headers: { cookie: readonly } })
    expect(res.status).toBe(200)
    tables = DatabaseTableList.parse(await res.json())
  })

  const table = (name: string) => {
    const t = tables.find((x) => x.name === name)
    if (!t) throw new Error(`no table ${name} in ${tables.map((x) => x.name).join(', ')}`)
    return t
  }

  it('lists the tables and views of public made through the query endpoint', () => {
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['customers', 'orders', 'order_lines', 'paid_orders', 'notes', 'v1_made']))
    expect(table('paid_orders')).toMatchObject({ kind: 'view', schema: 'public', primary_keys: [] })
    expect(table('customers')).toMatchObject({ kind: 'table', comment: 'People who buy', rls_enabled: false, estimated_rows: 250 })
    expect(table('orders')).toMatchObject({ rls_enabled: true, estimated_rows: 0, comment: null })
  })

  it('describes the columns: types, nullability, defaults, identity, primary key, comment, enum labels', () => {
    expect(table('customers').columns).toEqual([
      { name: 'id', data_type: 'bigint', is_nullable: false, default_value: null, is_identity: true, is_primary_key: true, comment: null, enums: [] },
      { name: 'email', data_type: 'text', is_nullable: false, default_value: null, is_identity: false, is_primary_key: false, comment: 'Where receipts go', enums: [] },
      {
        name: 'nickname',
        data_type: 'character varying(40)',
        is_nullable: true,
        default_value: `'friend'::character varying`,
        is_identity: false,
        is_primary_key: false,
        comment: null,
        enums: [],
      },
    ])
    const orders = table('orders')
    expect(orders.primary_keys).toEqual(['region', 'id'])
    expect(orders.columns.find((c) => c.name === 'status')).toMatchObject({
      data_type: 'order_status',
      is_nullable: false,
      default_value: `'pending'::order_status`,
      enums: ['pending', 'paid', 'shipped'],
    })
    expect(orders.columns.find((c) => c.name === 'tags')).toMatchObject({ data_type: 'text[]', is_nullable: true })
    expect(orders.columns.filter((c) => c.is_primary_key).map((c) => c.name).sort()).toEqual(['id', 'region'])
  })

  it('gives the foreign-key relationships with their columns in key order', () => {
    expect(table('orders').relationships).toEqual([
      { constraint_name: 'orders_customer_id_fkey', source_columns: ['customer_id'], target_table: 'customers', target_columns: ['id'] },
    ])
    expect(table('order_lines').relationships).toEqual([
      { constraint_name: 'order_lines_order_fkey', source_columns: ['order_region', 'order_id'], target_table: 'orders', target_columns: ['region', 'id'] },
    ])
  })

  it('counts rows exactly up to the bound', async () => {
    expect(COUNT_BOUND).toBe(100_000)
    await sqlOk(`create table many (x int); insert into many select generate_series(1, ${COUNT_BOUND + 5})`)
    const res = await s.request(`/platform/projects/${ref}/database/tables`, { headers: { cookie: owner } })
    const many = DatabaseTableList.parse(await res.json()).find((t) => t.name === 'many')
    // Past the bound: the bound's count (PGlite and a fresh table have no statistics), never a full count.
    expect(many?.estimated_rows).toBe(COUNT_BOUND + 1)
    await sqlOk('analyze many')
    const after = DatabaseTableList.parse(await (await s.request(`/platform/projects/${ref}/database/tables`, { headers: { cookie: owner } })).json())
    expect(after.find((t) => t.name === 'many')?.estimated_rows).toBe(COUNT_BOUND + 5)
    await sqlOk('drop table many')
  }, 60_000)
})

describe('GET /platform/projects/{ref}/database/tables/{table}/rows', () => {
  const WEIRD = `my "odd" tablé ✓`

  beforeAll(async () => {
    await sqlOk(`
      create table "${WEIRD.replace(/"/g, '""')}" (id int primary key, "first name" text, amount numeric(12,2), big bigint);
      insert into "${WEIRD.replace(/"/g, '""')}" select g, 'n' || g, g * 1.5, 9007199254740990 + g from generate_series(1, 205) g;
    `)
  })

  const rowsUrl = (name: string, query = '') =>
    `/platform/projects/${ref}/database/tables/${encodeURIComponent(name)}/rows${query}`

  it('answers 100 rows a page by default, ordered by the primary key, with the total', async () => {
    const res = await s.request(rowsUrl(WEIRD), { headers: { cookie: readonly } })
    expect(res.status).toBe(200)
    const page = TableRows.parse(await res.json())
    expect(page).toMatchObject({ offset: 0, limit: 100, total: 205 })
    expect(page.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'first name', type: 'text' },
      { name: 'amount', type: 'numeric(12,2)' },
      { name: 'big', type: 'bigint' },
    ])
    expect(page.rows).toHaveLength(100)
    expect(page.rows[0]).toEqual({ id: 1, 'first name': 'n1', amount: '1.50', big: 9007199254740991 })
    expect(page.rows.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
  })

  it('pages with offset and limit; values past 2^53 come back as their digits', async () => {
    const page = TableRows.parse(await (await s.request(rowsUrl(WEIRD, '?offset=200&limit=10'), { headers: { cookie: owner } })).json())
    expect(page).toMatchObject({ offset: 200, limit: 10, total: 205 })
    expect(page.rows.map((r) => r.id)).toEqual([201, 202, 203, 204, 205])
    expect(page.rows[4]).toMatchObject({ big: '9007199254741195', amount: '307.50' })
  })

  it('orders a table without a primary key by its physical order, and reads a view', async () => {
    const notes = TableRows.parse(await (await s.request(rowsUrl('v1_made'), { headers: { cookie: owner } })).json())
    expect(notes).toMatchObject({ rows: [], total: 0, columns: [{ name: 'x', type: 'integer' }] })
    const view = await s.request(rowsUrl('paid_orders'), { headers: { cookie: owner } })
    expect(view.status).toBe(200)
  })

  it('answers 404 for an unknown table, and 400 for a bad page', async () => {
    const missing = await s.request(rowsUrl('no such table'), { headers: { cookie: owner } })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { message: string }).message).toMatch(/No table or view named 'no such table'/)
    // A name that would be SQL if it were pasted into a statement is only ever looked up.
    const injection = await s.request(rowsUrl(`notes"; drop table notes; --`), { headers: { cookie: owner } })
    expect(injection.status).toBe(404)
    expect((await sqlOk('select count(*) as n from notes')).rows).toEqual([{ n: 3 }])
    for (const q of ['?limit=0', '?limit=1001', '?offset=-1', '?limit=abc']) {
      expect((await s.request(rowsUrl('notes', q), { headers: { cookie: owner } })).status).toBe(400)
    }
  })
})
