/**
 * The Table Editor's routes on a project's own database: a table made from the form (its SQL answered first, then
 * run), rows inserted, read with sort, filters and pages, updated unless another tab changed them, deleted by key;
 * a table changed from the form; CSV imported whole or not at all, and exported. Names with spaces, quotes, unicode
 * and reserved words throughout; bad input answers a clear 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryResult } from '../../src/contracts/database'
import { DeletedRows, ImportAnswer, ImportFailure, RowConflict, RowsPage, TableDefinition, TableDefinitionAnswer, TableReferences, WrittenRow } from '../../src/contracts/tableEditor'
import { OWNER, READONLY, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
let ref: string
let owner: string
let readonly: string

/** A table whose names need quoting: a space, a quote, unicode and a reserved word. */
const TABLE = 'my "odd" tâble'
const T = encodeURIComponent(TABLE)
const base = () => `/platform/projects/${ref}/table-editor/tables`

const send = (method: string, path: string, body?: unknown, cookie = owner) =>
  s.request(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

async function ok<T>(res: Response, schema: { parse(v: unknown): T }, status = 200): Promise<T> {
  const body = await res.json()
  if (res.status !== status) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return schema.parse(body)
}

async function sql(query: string) {
  return ok(await send('POST', `/platform/projects/${ref}/database/query`, { query }), QueryResult)
}

const rows = (query: Record<string, string> = {}) => send('GET', `${base()}/${T}/rows?${new URLSearchParams(query)}`)

const DEFINITION: TableDefinition = {
  name: TABLE,
  comment: "it's odd",
  columns: [
    { name: 'id', type: 'bigint', identity: true, primary_key: true },
    { name: 'select', type: 'text', nullable: false, default: "'none'" },
    { name: 'größe', type: 'numeric(10,2)' },
    { name: 'done', type: 'boolean', default: 'false', nullable: false },
    { name: 'meta', type: 'jsonb' },
    { name: 'at', type: 'timestamp with time zone' },
  ],
}

beforeAll(async () => {
  // 10 MB in a cell takes seconds on PGlite on a busy machine: a time-out well past it, so the test reads the cell's fate.
  s = await startTestServer({ config: { projectDb: { queryTimeoutMs: 60_000 } } })
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Table Editor', status: 'COMING_UP' }))
  ref = ((await res.json()) as { ref: string }).ref
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  ;[owner, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(READONLY)])
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('tables from the form', () => {
  it('answers the SQL first and runs nothing, then runs it on confirmation with RLS on', async () => {
    const preview = await ok(await send('POST', base(), { definition: DEFINITION }), TableDefinitionAnswer)
    expect(preview.ran).toBe(false)
    expect(preview.sql).toContain('create table "public"."my ""odd"" tâble" (')
    expect(preview.sql).toContain('"select" text default \'none\' not null')
    expect(preview.sql).toContain(`comment on table "public"."my ""odd"" tâble" is 'it''s odd';`)
    expect(preview.sql).toContain('enable row level security')
    expect((await sql(`select count(*)::int as n from pg_class where relname = '${TABLE.replace(/'/g, "''")}'`)).rows).toEqual([{ n: 0 }])

    const done = await ok(await send('POST', base(), { definition: DEFINITION, run: true }), TableDefinitionAnswer, 201)
    expect(done).toEqual({ sql: preview.sql, ran: true })
    const made = await sql(`select relrowsecurity as rls from pg_class where relname = 'my "odd" tâble'`)
    expect(made.rows).toEqual([{ rls: true }])
  })

  it('refuses a type or a default that is not one, and a Read-only member', async () => {
    const badType = await send('POST', base(), { definition: { name: 'x', columns: [{ name: 'a', type: 'text; drop table x' }] } })
    expect(badType.status).toBe(400)
    expect(((await badType.json()) as { message: string }).message).toMatch(/is not a type name/)
    const badDefault = await send('POST', base(), { definition: { name: 'x', columns: [{ name: 'a', type: 'int', default: '1); drop table y; select (1' }] } })
    expect(badDefault.status).toBe(400)
    expect(((await badDefault.json()) as { message: string }).message).toMatch(/not one SQL expression/)
    const noColumns = await send('POST', base(), { definition: { name: 'x', columns: [] } })
    expect(noColumns.status).toBe(400)
    const denied = await send('POST', base(), { definition: { name: 'x', columns: [{ name: 'a', type: 'int' }] }, run: true }, readonly)
    expect(denied.status).toBe(403)
  })
})

describe('rows', () => {
  let first: Record<string, unknown>

  it('inserts a row with its defaults, and reads values for their types', async () => {
    const w = await ok(await send('POST', `${base()}/${T}/rows`, { values: { größe: '12.50', meta: { a: [1, 'x'] }, at: '2026-01-02T03:04:05Z' } }), WrittenRow, 201)
    first = w.row
    expect(w.row).toMatchObject({ id: 1, select: 'none', größe: '12.50', done: false, meta: { a: [1, 'x'] } })
    expect(w.sql).toMatch(/^insert into "public"\."my ""odd"" tâble"/)
    for (const n of [2, 3, 4, 5]) {
      await ok(await send('POST', `${base()}/${T}/rows`, { values: { select: `row ${n}`, größe: n, done: n % 2 === 0 } }), WrittenRow, 201)
    }
  })

  it('answers a value that does not parse for its type with a 400 and writes nothing', async () => {
    const res = await send('POST', `${base()}/${T}/rows`, { values: { größe: 'twelve' } })
    expect(res.status).toBe(400)
    expect((await res.json()) as { code: string; message: string }).toMatchObject({ code: '22P02', message: expect.stringMatching(/numeric/) })
    const unknown = await send('POST', `${base()}/${T}/rows`, { values: { nope: 1 } })
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { message: string }).message).toMatch(/no column named 'nope'/)
    const page = await ok(await rows(), RowsPage)
    expect(page.total).toBe(5)
  })

  it('sorts, filters with the REST operators, pages and counts', async () => {
    const sorted = await ok(await rows({ sort: JSON.stringify([{ column: 'größe', ascending: false }]), limit: '2' }), RowsPage)
    expect(sorted.rows.map((r) => r.id)).toEqual([1, 5])
    expect(sorted).toMatchObject({ total: 5, limit: 2, offset: 0, primary_keys: ['id'] })
    expect(sorted.columns.map((c) => c.name)).toEqual(['id', 'select', 'größe', 'done', 'meta', 'at'])
    expect(sorted.columns[1]).toEqual({ name: 'select', type: 'text', default_value: "'none'::text", is_nullable: false, is_identity: false, enums: [], references: null })
    expect(sorted.columns[0]).toMatchObject({ is_identity: true })
    const page2 = await ok(await rows({ limit: '2', offset: '2' }), RowsPage)
    expect(page2.rows.map((r) => r.id)).toEqual([3, 4])
    const cases: [unknown[], number[]][] = [
      [[{ column: 'done', operator: 'eq', value: 'true' }], [2, 4]],
      [[{ column: 'größe', operator: 'gte', value: 4 }], [1, 4, 5]],
      [[{ column: 'größe', operator: 'lt', value: '3' }, { column: 'done', operator: 'neq', value: false }], [2]],
      [[{ column: 'select', operator: 'ilike', value: 'ROW%' }], [2, 3, 4, 5]],
      [[{ column: 'select', operator: 'like', value: 'none' }], [1]],
      [[{ column: 'meta', operator: 'is', value: 'not null' }], [1]],
      [[{ column: 'id', operator: 'in', value: [2, '5', 9] }], [2, 5]],
      [[{ column: 'at', operator: 'gt', value: '2026-01-01' }], [1]],
    ]
    for (const [filters, ids] of cases) {
      const page = await ok(await rows({ filters: JSON.stringify(filters) }), RowsPage)
      expect(page.rows.map((r) => r.id), JSON.stringify(filters)).toEqual(ids)
      expect(page.total).toBe(ids.length)
    }
  })

  it("names a column's foreign key, and searches the referenced table by its key or its first text column", async () => {
    await sql(`create table "tëams" ("team id" bigint primary key, score int, "näme" text);
      insert into "tëams" values (1, 10, 'Ada''s 100%'), (2, 20, 'Bob'), (12, 30, 'Cy_12'), (30, 40, null);
      create table members (id int primary key, team bigint references "tëams" ("team id"), "co-team" bigint, note text,
        foreign key ("co-team") references "tëams" ("team id"))`)
    const page = await ok(await send('GET', `${base()}/members/rows`), RowsPage)
    const ref = { schema: 'public', table: 'tëams', column: 'team id', label: 'näme' }
    expect(page.columns.map((c) => [c.name, c.references])).toEqual([['id', null], ['team', ref], ['co-team', ref], ['note', null]])
    const search = (term: string, columns = ['team id', 'näme']) =>
      send('GET', `${base()}/${encodeURIComponent('tëams')}/rows?${new URLSearchParams({ search: JSON.stringify({ term, columns }), sort: JSON.stringify([{ column: 'team id', ascending: true }]), limit: '2' })}`)
    const cases: [string, number[], number][] = [
      ['2', [2, 12], 2], // the key as text: 2 and 12
      ['b', [2], 1], // a name, without regard to case
      ['%', [1], 1], // a wildcard is the character itself
      ['_', [12], 1],
      ['', [1, 2], 4], // no term: every row, paged
    ]
    for (const [term, ids, total] of cases) {
      const found = await ok(await search(term), RowsPage)
      expect(found.rows.map((r) => r['team id']), term).toEqual(ids)
      expect(found.total, term).toBe(total)
    }
    for (const bad of [JSON.stringify({ term: 'x', columns: [] }), JSON.stringify({ term: 'x', columns: ['ghost'] }), 'nope', JSON.stringify({ term: 'x'.repeat(201), columns: ['näme'] })]) {
      const res = await send('GET', `${base()}/${encodeURIComponent('tëams')}/rows?${new URLSearchParams({ search: bad })}`)
      expect(res.status, bad).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(/search/i)
    }
  })

  it('answers bad sort and filters with a 400', async () => {
    for (const query of [
      { filters: 'not json' },
      { filters: JSON.stringify([{ column: 'id', operator: 'sounds_like', value: 1 }]) },
      { filters: JSON.stringify([{ column: 'ghost', operator: 'eq', value: 1 }]) },
      { filters: JSON.stringify([{ column: 'id', operator: 'is', value: 'maybe' }]) },
      { filters: JSON.stringify([{ column: 'id', operator: 'eq', value: 'one' }]) },
      { sort: JSON.stringify([{ column: 'ghost', ascending: true }]) },
      { limit: '5000' },
    ] as Record<string, string>[]) {
      const res = await rows(query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(typeof ((await res.json()) as { message: unknown }).message).toBe('string')
    }
    expect((await send('GET', `${base()}/nothing%20here/rows`)).status).toBe(404)
  })

  it('updates a row by its key, and refuses to overwrite one changed meanwhile', async () => {
    const w = await ok(
      await send('PATCH', `${base()}/${T}/rows`, { key: { id: 1 }, previous: { select: first.select, meta: first.meta }, values: { select: 'edited', meta: [true] } }),
      WrittenRow,
    )
    expect(w.row).toMatchObject({ id: 1, select: 'edited', meta: [true] })
    // The other tab still holds what it read before the edit.
    const stale = await send('PATCH', `${base()}/${T}/rows`, { key: { id: 1 }, previous: { select: first.select }, values: { select: 'other tab' } })
    expect(stale.status).toBe(409)
    const conflict = RowConflict.parse(await stale.json())
    expect(conflict.current).toMatchObject({ id: 1, select: 'edited' })
    const missing = await send('PATCH', `${base()}/${T}/rows`, { key: { id: 99 }, previous: {}, values: { select: 'x' } })
    expect(missing.status).toBe(404)
    const noKey = await send('PATCH', `${base()}/${T}/rows`, { key: {}, previous: {}, values: { select: 'x' } })
    expect(noKey.status).toBe(400)
  })

  it('holds 10 MB of text in a cell', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024)
    await ok(await send('PATCH', `${base()}/${T}/rows`, { key: { id: 2 }, previous: {}, values: { select: big } }), WrittenRow)
    const back = await sql(`select length("select") as n from "my ""odd"" tâble" where id = 2`)
    expect(back.rows).toEqual([{ n: big.length }])
    // Back to a short value, so the reads that follow do not carry 10 MB each.
    await ok(await send('PATCH', `${base()}/${T}/rows`, { key: { id: 2 }, previous: {}, values: { select: 'row 2' } }), WrittenRow)
  })

  it('deletes the selected rows by key in one statement', async () => {
    const d = await ok(await send('DELETE', `${base()}/${T}/rows`, { keys: [{ id: 4 }, { id: 5 }] }), DeletedRows)
    expect(d.deleted).toBe(2)
    expect(d.sql).toMatch(/^delete from "public"\."my ""odd"" tâble" t using json_populate_recordset/)
    expect((await ok(await rows(), RowsPage)).total).toBe(3)
    expect((await send('DELETE', `${base()}/${T}/rows`, { keys: [] })).status).toBe(400)
    expect((await send('DELETE', `${base()}/${T}/rows`, { keys: [{ id: 1 }] }, readonly)).status).toBe(403)
  })

  it('refuses to write rows of a table without a primary key, or of a view', async () => {
    await sql('create table "no key" (a int); insert into "no key" values (1); create view "a view" as select 1 as a')
    for (const [table, pattern] of [['no key', /has no primary key/], ['a view', /is a view/]] as const) {
      const path = `${base()}/${encodeURIComponent(table)}/rows`
      for (const [method, body] of [
        ['POST', { values: { a: 2 } }],
        ['PATCH', { key: { a: 1 }, previous: {}, values: { a: 2 } }],
        ['DELETE', { keys: [{ a: 1 }] }],
      ] as const) {
        const res = await send(method, path, body)
        expect(res.status, `${method} ${table}`).toBe(400)
        expect(((await res.json()) as { message: string }).message).toMatch(pattern)
      }
    }
    // Reading one still works, in the rows' physical order.
    expect((await ok(await send('GET', `${base()}/no%20key/rows`), RowsPage)).rows).toEqual([{ a: 1 }])
  })
})

describe('changing a table from the form', () => {
  it('answers the changes as SQL, then runs them: rename, add, type, nullability, unique, foreign key with its action', async () => {
    await sql('create table "order" (id int primary key, "user" text)')
    const definition: TableDefinition = {
      name: 'order items',
      comment: '',
      rls_enabled: false,
      columns: [
        { original_name: 'id', name: 'id', type: 'bigint', primary_key: true, nullable: false },
        { original_name: 'user', name: 'who "wrote"', type: 'text', nullable: false, unique: true },
        { name: 'parent', type: 'bigint' },
      ],
      foreign_keys: [{ columns: ['parent'], referenced_table: TABLE, referenced_columns: ['id'], on_delete: 'cascade' }],
    }
    const preview = await ok(await send('PATCH', `${base()}/order`, { definition }), TableDefinitionAnswer)
    expect(preview.ran).toBe(false)
    expect(preview.sql.split('\n')).toEqual([
      'alter table "public"."order" rename to "order items";',
      'alter table "public"."order items" alter column "id" type bigint using "id"::bigint;',
      'alter table "public"."order items" rename column "user" to "who ""wrote""";',
      'alter table "public"."order items" alter column "who ""wrote""" set not null;',
      'alter table "public"."order items" add unique ("who ""wrote""");',
      'alter table "public"."order items" add column "parent" bigint;',
      'alter table "public"."order items" add foreign key ("parent") references "public"."my ""odd"" tâble" ("id") on delete cascade on update no action;',
    ])
    await ok(await send('PATCH', `${base()}/order`, { definition, run: true }), TableDefinitionAnswer)
    const insert = await send('POST', `${base()}/order%20items/rows`, { values: { id: 1, 'who "wrote"': 'me', parent: 1 } })
    expect(insert.status).toBe(201)
    // The foreign key's action: deleting the parent deletes the child.
    await ok(await send('DELETE', `${base()}/${T}/rows`, { keys: [{ id: 1 }] }), DeletedRows)
    expect((await ok(await send('GET', `${base()}/order%20items/rows`), RowsPage)).total).toBe(0)
    const again = await ok(await send('PATCH', `${base()}/order%20items`, { definition: { ...definition, name: 'order items', columns: definition.columns.map((c) => ({ ...c, original_name: c.original_name === 'user' ? 'who "wrote"' : c.original_name ?? c.name })), foreign_keys: [] } }), TableDefinitionAnswer)
    expect(again.sql).toMatch(/drop constraint/)
  })

  it('reads the table as the alter form starts from it, lists what a foreign key may reference, and drops a column and a default', async () => {
    await sql(`create schema "ref 'schema"; create table "ref 'schema"."pärents" (code text primary key, label text, tag text unique);
      create table kids (id int primary key, parent text default 'x' not null, note text)`)
    const refs = await ok(await send('GET', `/platform/projects/${ref}/table-editor/references`), TableReferences)
    const parents = refs.tables.find((t) => t.schema === "ref 'schema" && t.name === 'pärents')
    expect(parents?.columns).toEqual([
      { name: 'code', type: 'text', unique: true },
      { name: 'label', type: 'text', unique: false },
      { name: 'tag', type: 'text', unique: true },
    ])
    expect(refs.tables.some((t) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(false)

    const current = await ok(await send('GET', `${base()}/kids`), TableDefinition)
    expect(current.columns.map((c) => [c.original_name, c.type, c.default, c.nullable, c.primary_key])).toEqual([
      ['id', 'integer', '', false, true],
      ['parent', 'text', "'x'::text", false, false],
      ['note', 'text', '', true, false],
    ])
    // The form's changes: the default dropped, nullable again, a column dropped, a foreign key into another schema.
    const definition: TableDefinition = {
      ...current,
      columns: current.columns.filter((c) => c.name !== 'note').map((c) => (c.name === 'parent' ? { ...c, default: '', nullable: true } : c)),
      foreign_keys: [{ columns: ['parent'], referenced_schema: "ref 'schema", referenced_table: 'pärents', referenced_columns: ['code'], on_delete: 'set null' }],
    }
    const preview = await ok(await send('PATCH', `${base()}/kids`, { definition }), TableDefinitionAnswer)
    expect(preview.sql.split('\n')).toEqual([
      'alter table "public"."kids" drop column "note";',
      'alter table "public"."kids" alter column "parent" drop default;',
      'alter table "public"."kids" alter column "parent" drop not null;',
      'alter table "public"."kids" add foreign key ("parent") references "ref \'schema"."pärents" ("code") on delete set null on update no action;',
    ])
    await ok(await send('PATCH', `${base()}/kids`, { definition, run: true }), TableDefinitionAnswer)
    const after = await ok(await send('GET', `${base()}/kids`), TableDefinition)
    expect(after.foreign_keys).toEqual([expect.objectContaining({ referenced_schema: "ref 'schema", referenced_table: 'pärents', referenced_columns: ['code'], on_delete: 'set null' })])
    // A key into a row that is not there is the database's refusal, as a clear 400.
    const orphan = await send('POST', `${base()}/kids/rows`, { values: { id: 1, parent: 'nope' } })
    expect(orphan.status).toBe(400)
    expect(((await orphan.json()) as { message: string }).message).toMatch(/foreign key/)
    expect((await send('GET', `${base()}/no%20such`)).status).toBe(404)
  })
})

describe('CSV', () => {
  const importCsv = (table: string, body: string | Uint8Array<ArrayBuffer>, type = 'text/csv', cookie = owner) =>
    s.request(`${base()}/${encodeURIComponent(table)}/import`, { method: 'POST', headers: { cookie, 'content-type': type }, body })

  it('imports a file whole, quoting and unicode included', async () => {
    await sql('create table people (id int primary key, name text not null, born date, tags text[])')
    const csv = '\ufeffid,name,born,tags\n1,"Ada, Countess",1815-12-10,"{a,b}"\n2,"Zoë ""Z"" Ünal",,\n3,名前,2000-01-01,{}\n'
    expect(await ok(await importCsv('people', csv), ImportAnswer, 201)).toEqual({ inserted: 3 })
    const back = await ok(await send('GET', `${base()}/people/rows`), RowsPage)
    expect(back.rows).toEqual([
      { id: 1, name: 'Ada, Countess', born: '1815-12-10', tags: ['a', 'b'] },
      { id: 2, name: 'Zoë "Z" Ünal', born: null, tags: null },
      { id: 3, name: '名前', born: '2000-01-01', tags: [] },
    ])
  })

  it('reports the rows the database refuses by line, and imports none of the file', async () => {
    const lines = ['id,name,born', '10,ok,2000-01-01', '11,bad date,someday', '1,duplicate key,', '12,,']
    const res = await importCsv('people', lines.join('\n'))
    expect(res.status).toBe(400)
    const failure = ImportFailure.parse(await res.json())
    expect(failure.message).toMatch(/3 rows could not be inserted; nothing was imported/)
    expect(failure.bad_rows.map((r) => r.line)).toEqual([3, 4, 5])
    expect(failure.bad_rows[0].message).toMatch(/date/)
    expect((await ok(await send('GET', `${base()}/people/rows`), RowsPage)).total).toBe(3)
  })

  it('refuses wrong column counts, unknown columns, bytes that are not UTF-8 and other media types', async () => {
    const counts = ImportFailure.parse(await (await importCsv('people', 'id,name\n20,a\n21\n22,b,c\n')).json())
    expect(counts.bad_rows).toEqual([
      { line: 3, message: 'Line 3 has 1 field where the header has 2' },
      { line: 4, message: 'Line 4 has 3 fields where the header has 2' },
    ])
    const unknown = await importCsv('people', 'id,nickname\n1,x\n')
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { message: string }).message).toMatch(/'nickname'/)
    const latin1 = await importCsv('people', new Uint8Array([...Buffer.from('id,name\n30,Z'), 0xeb, 0x0a]) as Uint8Array<ArrayBuffer>)
    expect(latin1.status).toBe(400)
    expect(((await latin1.json()) as { message: string }).message).toMatch(/not UTF-8/)
    const unclosed = await importCsv('people', 'id,name\n31,"open\n')
    expect(unclosed.status).toBe(400)
    expect((await importCsv('people', '')).status).toBe(400)
    expect((await importCsv('people', 'id,name\n1,x', 'text/plain')).status).toBe(415)
    expect((await importCsv('people', 'id,name\n40,x', 'text/csv', readonly)).status).toBe(403)
    expect((await ok(await send('GET', `${base()}/people/rows`), RowsPage)).total).toBe(3)
  })

  it('reads UTF-16 with its byte order mark as the text it is, and refuses Latin-1 and UTF-16 without a mark, writing nothing', async () => {
    await sql('create table encodings (id int primary key, name text)')
    const text = 'id,name\n50,Zoë Ünal\n51,名前 ✓\n'
    const utf16le = new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')])
    expect(await ok(await importCsv('encodings', utf16le), ImportAnswer, 201)).toEqual({ inserted: 2 })
    const swapped = Buffer.from(text.replace(/5/g, '6'), 'utf16le')
    swapped.swap16()
    expect(await ok(await importCsv('encodings', new Uint8Array([0xfe, 0xff, ...swapped])), ImportAnswer, 201)).toEqual({ inserted: 2 })
    const back = await ok(await send('GET', `${base()}/encodings/rows?${new URLSearchParams({ filters: JSON.stringify([{ column: 'id', operator: 'gte', value: 50 }]) })}`), RowsPage)
    expect(back.rows.map((r) => [r.id, r.name])).toEqual([[50, 'Zoë Ünal'], [51, '名前 ✓'], [60, 'Zoë Ünal'], [61, '名前 ✓']])

    const latin1 = await importCsv('encodings', new Uint8Array(Buffer.from('id,name\n70,Zoë Ünal\n', 'latin1')))
    expect(latin1.status).toBe(400)
    expect(((await latin1.json()) as { message: string }).message).toMatch(/not UTF-8 text, nor UTF-16/)
    const unmarked = await importCsv('encodings', new Uint8Array(Buffer.from('id,name\n71,x\n', 'utf16le')))
    expect(unmarked.status).toBe(400)
    expect(((await unmarked.json()) as { message: string }).message).toMatch(/UTF-16 without its byte order mark/)
    // A lone half of a surrogate pair is not UTF-16 text either.
    const broken = await importCsv('encodings', new Uint8Array([0xff, 0xfe, ...Buffer.from('id,name\n72,', 'utf16le'), 0x00, 0xd8, 0x0a, 0x00]))
    expect(broken.status).toBe(400)
    expect((await ok(await send('GET', `${base()}/encodings/rows`), RowsPage)).total).toBe(4)
  })

  it('exports a table as CSV, arrays and JSON as JSON text', async () => {
    const res = await s.request(`${base()}/people/export`, { headers: { cookie: readonly } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    const text = await res.text()
    expect(text).toBe('id,name,born,tags\n1,"Ada, Countess",1815-12-10,"[""a"",""b""]"\n2,"Zoë ""Z"" Ünal",,\n3,名前,2000-01-01,[]\n')
  })
})
