/**
 * The SQL of the Table Editor, built from the catalog's names and the person's values:
 *  - every identifier is the catalog's (or the form's) name, quoted (spaces, quotes, unicode, reserved words);
 *  - every value is bound as JSON and read for the column's type by `json_populate_record(null::<table>, …)`, so
 *    Postgres parses it (a bad value is Postgres's 22P02, never text spliced into SQL);
 *  - every write is one statement naming the row by its primary key; a table without one is refused.
 * The statements run through the SQL runner (run.ts: the project's own role, its time-out and guard); a form's DDL
 * runs there as one script, in one transaction.
 */
import type { QueryRun } from './run'
import type { ColumnDefinition, ColumnReference, ForeignKeyDefinition, RowFilter, RowSearch, RowSort, TableDefinition, TableReferences } from '../../../contracts/tableEditor'
import { quoteIdent } from '../../core/sql'
import { splitStatements } from '../../projectdb/statements'

export const SCHEMA = 'public'

/** Runs one statement (parameters bound) or a script; read-only when asked. */
export type Runner = (sql: string, parameters: unknown[], readOnly: boolean) => Promise<QueryRun>

/** A request the editor refuses before it reaches the database: the status and a message for the person. */
export class EditorRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'EditorRefusal'
  }
}

export interface RelationColumn {
  name: string
  type: string
  default_value: string | null
  is_nullable: boolean
  is_identity: boolean
  enums: string[]
  /** A one-column foreign key's target, with the target's first text column to show beside its key. */
  references?: ColumnReference | null
}

export interface Relation {
  name: string
  kind: 'table' | 'view'
  primaryKey: string[]
  columns: RelationColumn[]
}

const RELATION_SQL = `select c.relname as name, c.relkind::text as relkind,
  array(select a.attname::text from pg_constraint con
        cross join unnest(con.conkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num
        where con.conrelid = c.oid and con.contype = 'p' order by k.i) as pk,
  array(select json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
          'default_value', pg_get_expr(d.adbin, d.adrelid), 'is_nullable', not a.attnotnull, 'is_identity', a.attidentity <> '',
          'enums', coalesce((select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = a.atttypid), '{}'),
          'references', (select json_build_object('schema', fn.nspname, 'table', fc.relname, 'column', fa.attname,
              'label', (select l.attname from pg_attribute l join pg_type lt on lt.oid = l.atttypid
                        where l.attrelid = fc.oid and l.attnum > 0 and not l.attisdropped and l.attnum <> fa.attnum and lt.typcategory = 'S'
                        order by l.attnum limit 1))
            from pg_constraint f
            join pg_class fc on fc.oid = f.confrelid join pg_namespace fn on fn.oid = fc.relnamespace
            join pg_attribute fa on fa.attrelid = f.confrelid and fa.attnum = f.confkey[1]
            where f.conrelid = c.oid and f.contype = 'f' and f.conkey = array[a.attnum]::int2[]
            order by f.conname limit 1))
        from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns
from pg_class c
where c.relnamespace = $1::regnamespace and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')`

/** The relation of schema public by that name, or a 404 refusal. */
export async function relationOf(run: Runner, name: string): Promise<Relation> {
  const { rows } = await run(RELATION_SQL, [SCHEMA, name], true)
  const row = rows.at(0)
  if (!row) throw new EditorRefusal(404, `No table or view named '${name}' in schema ${SCHEMA}`)
  const relkind = String(row.relkind)
  return {
    name: String(row.name),
    kind: relkind === 'v' || relkind === 'm' || relkind === 'f' ? 'view' : 'table',
    primaryKey: (row.pk as string[]) ?? [],
    columns: ((row.columns as RelationColumn[]) ?? []).map((c) => ({
      name: String(c.name),
      type: String(c.type),
      default_value: c.default_value === null ? null : String(c.default_value),
      is_nullable: c.is_nullable === true,
      is_identity: c.is_identity === true,
      enums: Array.isArray(c.enums) ? c.enums.map(String) : [],
      references: referenceOf(c.references),
    })),
  }
}

function referenceOf(value: unknown): ColumnReference | null {
  if (typeof value !== 'object' || value === null) return null
  const r = value as Record<string, unknown>
  return { schema: String(r.schema), table: String(r.table), column: String(r.column), label: typeof r.label === 'string' ? r.label : null }
}

export const targetOf = (rel: { name: string }) => `${quoteIdent(SCHEMA)}.${quoteIdent(rel.name)}`
const populate = (rel: Relation, param: string) => `json_populate_record(null::${targetOf(rel)}, ${param}::json)`
const populateSet = (rel: Relation, param: string) => `json_populate_recordset(null::${targetOf(rel)}, ${param}::json)`

function columnOf(rel: Relation, name: string, what: string): RelationColumn {
  const col = rel.columns.find((c) => c.name === name)
  if (!col) throw new EditorRefusal(400, `${what}: table '${rel.name}' has no column named '${name}'`)
  return col
}

function writable(rel: Relation, action: string): string[] {
  if (rel.kind !== 'table') throw new EditorRefusal(400, `'${rel.name}' is a view: its rows cannot be ${action} here`)
  if (rel.primaryKey.length === 0) {
    throw new EditorRefusal(
      400,
      `Table '${rel.name}' has no primary key, so a row cannot be named by it: rows cannot be ${action} here. ` +
        'Add a primary key to the table to edit its rows.',
    )
  }
  return rel.primaryKey
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export interface RowsSelection {
  where: string
  order: string
  parameters: unknown[]
}

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }
const IS_VALUES: Record<string, string> = { null: 'null', 'not null': 'not null', true: 'true', false: 'false' }

/** A LIKE pattern matching the term anywhere, its own wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The WHERE and ORDER BY of a page; `$1` and `$2` are left for the limit and offset. */
export function selectionOf(rel: Relation, filters: RowFilter[], sort: RowSort[], search?: RowSearch): RowsSelection {
  const parameters: unknown[] = []
  const bind = (value: unknown) => {
    parameters.push(value)
    return `$${parameters.length + 2}`
  }
  const conditions = filters.map((f) => {
    const column = quoteIdent(columnOf(rel, f.column, 'Filter').name)
    const value = f.value
    if (f.operator in COMPARISONS) {
      if (Array.isArray(value)) throw new EditorRefusal(400, `Filter on '${f.column}': ${f.operator} takes one value`)
      return `t.${column} ${COMPARISONS[f.operator]} (select p.${column} from ${populate(rel, bind(JSON.stringify({ [f.column]: value })))} p)`
    }
    if (f.operator === 'like' || f.operator === 'ilike') {
      if (Array.isArray(value)) throw new EditorRefusal(400, `Filter on '${f.column}': ${f.operator} takes one pattern`)
      return `t.${column}::text ${f.operator} ${bind(String(value))}::text`
    }
    if (f.operator === 'is') {
      const literal = IS_VALUES[String(value).toLowerCase()]
      if (!literal) throw new EditorRefusal(400, `Filter on '${f.column}': is takes null, not null, true or false`)
      return `t.${column} is ${literal}`
    }
    const list = Array.isArray(value) ? value : [value]
    if (list.length === 0) return 'false'
    return `t.${column} in (select p.${column} from ${populateSet(rel, bind(JSON.stringify(list.map((v) => ({ [f.column]: v })))))} p)`
  })
  // A search is one condition over several columns (a foreign key's picker: the key or its label), as text.
  if (search && search.term !== '') {
    const pattern = bind(containing(search.term))
    conditions.push(`(${search.columns.map((name) => `t.${quoteIdent(columnOf(rel, name, 'Search').name)}::text ilike ${pattern}::text`).join(' or ')})`)
  }
  const orderBy = sort.map((s) => `t.${quoteIdent(columnOf(rel, s.column, 'Sort').name)} ${s.ascending ? 'asc' : 'desc'}`)
  // A stable order for paging: the primary key after the person's sort, else the row's position.
  for (const key of rel.primaryKey) if (!sort.some((s) => s.column === key)) orderBy.push(`t.${quoteIdent(key)}`)
  if (rel.primaryKey.length === 0 && rel.kind === 'table') orderBy.push('t.ctid')
  return {
    where: conditions.length > 0 ? `where ${conditions.join(' and ')}` : '',
    order: orderBy.length > 0 ? `order by ${orderBy.join(', ')}` : '',
    parameters,
  }
}

export function pageSql(rel: Relation, sel: RowsSelection): string {
  return `select t.* from ${targetOf(rel)} t ${sel.where} ${sel.order} limit $1 offset $2`
}

/** The count shares the page's parameters ($1 and $2 unused but bound, so the numbering holds). */
export function countSql(rel: Relation, sel: RowsSelection): string {
  return `select count(*)::int8 as n, $1::int as l, $2::int as o from ${targetOf(rel)} t ${sel.where}`
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

function checkColumns(rel: Relation, values: Record<string, unknown>, what: string): string[] {
  const names = Object.keys(values)
  for (const name of names) columnOf(rel, name, what)
  return names
}

function keyCondition(rel: Relation, key: Record<string, unknown>, alias: string): string {
  const pk = writable(rel, 'changed')
  for (const column of pk) {
    if (!(column in key) || key[column] === null) throw new EditorRefusal(400, `The row's key needs a value for '${column}'`)
  }
  return pk.map((c) => `t.${quoteIdent(c)} = ${alias}.${quoteIdent(c)}`).join(' and ')
}

export function insertSql(rel: Relation, values: Record<string, unknown>): { sql: string; parameters: unknown[] } {
  writable(rel, 'inserted')
  const names = checkColumns(rel, values, 'Insert')
  if (names.length === 0) return { sql: `insert into ${targetOf(rel)} default values returning *`, parameters: [] }
  const list = names.map(quoteIdent).join(', ')
  return {
    sql: `insert into ${targetOf(rel)} (${list}) select ${names.map((n) => `p.${quoteIdent(n)}`).join(', ')} from ${populate(rel, '$1')} p returning *`,
    parameters: [JSON.stringify(values)],
  }
}

/**
 * One UPDATE by primary key that changes the row only if the changed columns still hold what the editor read
 * (compared as Postgres prints them, so types without equality compare too).
 */
export function updateSql(
  rel: Relation,
  key: Record<string, unknown>,
  previous: Record<string, unknown>,
  values: Record<string, unknown>,
): { sql: string; parameters: unknown[] } {
  const condition = keyCondition(rel, key, 'k')
  const names = checkColumns(rel, values, 'Update')
  if (names.length === 0) throw new EditorRefusal(400, 'Nothing to update: name at least one column')
  const before = checkColumns(rel, previous, 'Update')
  const unchanged = before.map((c) => `t.${quoteIdent(c)}::text is not distinct from o.${quoteIdent(c)}::text`)
  return {
    sql:
      `update ${targetOf(rel)} t set ${names.map((n) => `${quoteIdent(n)} = p.${quoteIdent(n)}`).join(', ')} ` +
      `from ${populate(rel, '$1')} p, ${populate(rel, '$2')} k, ${populate(rel, '$3')} o ` +
      `where ${[condition, ...unchanged].join(' and ')} returning t.*`,
    parameters: [JSON.stringify(values), JSON.stringify(key), JSON.stringify(previous)],
  }
}

export function rowByKeySql(rel: Relation, key: Record<string, unknown>): { sql: string; parameters: unknown[] } {
  const condition = keyCondition(rel, key, 'k')
  return { sql: `select t.* from ${targetOf(rel)} t, ${populate(rel, '$1')} k where ${condition}`, parameters: [JSON.stringify(key)] }
}

export function deleteSql(rel: Relation, keys: Record<string, unknown>[]): { sql: string; parameters: unknown[] } {
  writable(rel, 'deleted')
  for (const key of keys) keyCondition(rel, key, 'k')
  const condition = rel.primaryKey.map((c) => `t.${quoteIdent(c)} = k.${quoteIdent(c)}`).join(' and ')
  return {
    sql: `delete from ${targetOf(rel)} t using ${populateSet(rel, '$1')} k where ${condition}`,
    parameters: [JSON.stringify(keys)],
  }
}

/** One batch of CSV rows: the header's columns, read for their types from JSON objects. */
export function importBatchSql(rel: Relation, columns: string[]): string {
  const list = columns.map(quoteIdent).join(', ')
  return `insert into ${targetOf(rel)} (${list}) select ${columns.map((n) => `p.${quoteIdent(n)}`).join(', ')} from ${populateSet(rel, '$1')} p`
}

// ---------------------------------------------------------------------------------------------------------------
// Table definitions

/** A string literal: standard_conforming_strings stays on in the runner (its guard checks it), so only ' doubles. */
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`

/**
 * A type as the form names it: words with an optional schema, modifiers and array brackets ('numeric(10,2)',
 * 'timestamp with time zone', 'text[]'), or one quoted name (an enum named with spaces). Nothing else reaches the SQL.
 */
const TYPE_NAME = /^(?:[A-Za-z_][\w$]*\.)?[A-Za-z_][\w$]*(?: [A-Za-z_][\w$]*)*(?: ?\(\s*\d+\s*(?:,\s*\d+\s*)?\))?(?: with(?:out)? time zone)?(?:\[\])*$/
const QUOTED_TYPE = /^"(?:[^"]|"")+"(?:\[\])*$/

function typeOf(column: { name: string; type: string }): string {
  const type = column.type.trim()
  if (!TYPE_NAME.test(type) && !QUOTED_TYPE.test(type)) {
    throw new EditorRefusal(400, `Column '${column.name}': '${column.type}' is not a type name`)
  }
  return type
}

/** A default must be one SQL expression: the parser reads `select <it>` as one statement, or it is refused. */
async function defaultOf(column: { name: string; default?: string }): Promise<string | undefined> {
  const expr = (column.default ?? '').trim()
  if (expr === '') return undefined
  // In parentheses, a comma cannot start another column and a semicolon another statement.
  const split = await splitStatements(`select (${expr})`)
  if (!split.ok || split.statements.length !== 1) {
    throw new EditorRefusal(400, `Column '${column.name}': the default '${expr}' is not one SQL expression`)
  }
  return expr
}

function checkNames(def: TableDefinition) {
  const seen = new Set<string>()
  for (const column of def.columns) {
    if (seen.has(column.name)) throw new EditorRefusal(400, `Two columns are named '${column.name}'`)
    seen.add(column.name)
  }
  for (const fk of def.foreign_keys ?? []) {
    for (const c of fk.columns) if (!seen.has(c)) throw new EditorRefusal(400, `Foreign key: the table has no column '${c}'`)
    if (fk.columns.length !== fk.referenced_columns.length) {
      throw new EditorRefusal(400, `Foreign key to '${fk.referenced_table}': name as many referenced columns as columns`)
    }
  }
}

async function columnSql(column: ColumnDefinition): Promise<string> {
  const parts = [quoteIdent(column.name), typeOf(column)]
  if (column.identity) parts.push('generated by default as identity')
  else {
    const expr = await defaultOf(column)
    if (expr !== undefined) parts.push(`default ${expr}`)
  }
  if (column.nullable === false || column.primary_key) parts.push('not null')
  if (column.unique && !column.primary_key) parts.push('unique')
  return parts.join(' ')
}

const ACTION = (a: string | undefined) => (a ?? 'no action')

function foreignKeySql(fk: ForeignKeyDefinition): string {
  return (
    `foreign key (${fk.columns.map(quoteIdent).join(', ')}) references ${quoteIdent(fk.referenced_schema ?? SCHEMA)}.${quoteIdent(fk.referenced_table)} ` +
    `(${fk.referenced_columns.map(quoteIdent).join(', ')}) on delete ${ACTION(fk.on_delete)} on update ${ACTION(fk.on_update)}`
  )
}

/** CREATE TABLE with its comment and row level security, as one script. */
export async function createTableSql(def: TableDefinition): Promise<string> {
  checkNames(def)
  const target = targetOf(def)
  const lines = await Promise.all(def.columns.map(columnSql))
  const pk = def.columns.filter((c) => c.primary_key).map((c) => quoteIdent(c.name))
  if (pk.length > 0) lines.push(`primary key (${pk.join(', ')})`)
  for (const fk of def.foreign_keys ?? []) lines.push(foreignKeySql(fk))
  const statements = [`create table ${target} (\n  ${lines.join(',\n  ')}\n);`]
  if ((def.comment ?? '') !== '') statements.push(`comment on table ${target} is ${quoteLiteral(def.comment ?? '')};`)
  if (def.rls_enabled !== false) statements.push(`alter table ${target} enable row level security;`)
  return statements.join('\n')
}

/** What the catalog says of a table, in the form's terms (with the constraints' names the changes need). */
export interface CurrentTable {
  definition: TableDefinition
  primaryKeyName: string | null
  /** Single-column unique constraints by column. */
  uniqueNames: Record<string, string>
}

const CURRENT_SQL = `select c.relname as name, coalesce(obj_description(c.oid, 'pg_class'), '') as comment, c.relrowsecurity as rls,
  (select conname from pg_constraint where conrelid = c.oid and contype = 'p') as pk_name,
  array(select json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
          'default', coalesce(pg_get_expr(d.adbin, d.adrelid), ''), 'nullable', not a.attnotnull,
          'identity', a.attidentity <> '',
          'primary_key', exists(select 1 from pg_constraint p where p.conrelid = c.oid and p.contype = 'p' and a.attnum = any(p.conkey)),
          'unique_name', (select u.conname from pg_constraint u where u.conrelid = c.oid and u.contype = 'u' and u.conkey = array[a.attnum]::int2[] limit 1))
        from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns,
  array(select json_build_object('name', f.conname, 'referenced_schema', (select nspname from pg_namespace where oid = rc.relnamespace), 'referenced_table', rc.relname,
          'columns', array(select a.attname from unnest(f.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = f.conrelid and a.attnum = k.n order by k.i),
          'referenced_columns', array(select a.attname from unnest(f.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = f.confrelid and a.attnum = k.n order by k.i),
          'on_delete', f.confdeltype, 'on_update', f.confupdtype)
        from pg_constraint f join pg_class rc on rc.oid = f.confrelid where f.conrelid = c.oid and f.contype = 'f' order by f.conname) as fks
from pg_class c where c.relnamespace = $1::regnamespace and c.relname = $2 and c.relkind in ('r', 'p')`

const ACTIONS: Record<string, ForeignKeyDefinition['on_delete']> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }

export async function currentTable(run: Runner, name: string): Promise<CurrentTable> {
  const { rows } = await run(CURRENT_SQL, [SCHEMA, name], true)
  const row = rows.at(0)
  if (!row) throw new EditorRefusal(404, `No table named '${name}' in schema ${SCHEMA}`)
  const columns = row.columns as Array<Record<string, unknown>>
  const uniqueNames: Record<string, string> = {}
  for (const c of columns) if (typeof c.unique_name === 'string') uniqueNames[String(c.name)] = c.unique_name
  return {
    primaryKeyName: typeof row.pk_name === 'string' ? row.pk_name : null,
    uniqueNames,
    definition: {
      name: String(row.name),
      comment: String(row.comment ?? ''),
      rls_enabled: row.rls === true,
      columns: columns.map((c) => ({
        original_name: String(c.name),
        name: String(c.name),
        type: String(c.type),
        default: c.identity ? '' : String(c.default ?? ''),
        nullable: c.nullable === true,
        unique: typeof c.unique_name === 'string',
        primary_key: c.primary_key === true,
        identity: c.identity === true,
      })),
      foreign_keys: (row.fks as Array<Record<string, unknown>>).map((f) => ({
        name: String(f.name),
        columns: f.columns as string[],
        referenced_schema: String(f.referenced_schema),
        referenced_table: String(f.referenced_table),
        referenced_columns: f.referenced_columns as string[],
        on_delete: ACTIONS[String(f.on_delete)] ?? 'no action',
        on_update: ACTIONS[String(f.on_update)] ?? 'no action',
      })),
    },
  }
}

/** The statements that turn the table the catalog has into the form's, as one script (empty: nothing changes). */
export async function alterTableSql(current: CurrentTable, def: TableDefinition): Promise<string> {
  checkNames(def)
  const was = current.definition
  const out: string[] = []
  let target = targetOf(was)
  if (def.name !== was.name) {
    out.push(`alter table ${target} rename to ${quoteIdent(def.name)};`)
    target = targetOf(def)
  }
  const kept = new Map(def.columns.filter((c) => c.original_name !== undefined).map((c) => [c.original_name as string, c]))
  for (const old of was.columns) {
    const name = old.original_name as string
    if (!kept.has(name)) out.push(`alter table ${target} drop column ${quoteIdent(name)};`)
  }
  const oldPk = was.columns.filter((c) => c.primary_key).map((c) => c.name)
  const newPk = def.columns.filter((c) => c.primary_key).map((c) => c.name)
  const pkChanged = oldPk.join('\u0000') !== newPk.join('\u0000')
  if (pkChanged && current.primaryKeyName) out.push(`alter table ${target} drop constraint ${quoteIdent(current.primaryKeyName)};`)
  for (const column of def.columns) {
    const old = column.original_name === undefined ? undefined : was.columns.find((c) => c.original_name === column.original_name)
    if (!old) {
      out.push(`alter table ${target} add column ${await columnSql({ ...column, primary_key: false })};`)
      continue
    }
    if (old.name !== column.name) out.push(`alter table ${target} rename column ${quoteIdent(old.name)} to ${quoteIdent(column.name)};`)
    const col = quoteIdent(column.name)
    const type = typeOf(column)
    if (type !== old.type) out.push(`alter table ${target} alter column ${col} type ${type} using ${col}::${type};`)
    if (!column.identity) {
      const expr = (await defaultOf(column)) ?? ''
      if (expr !== (old.default ?? '')) {
        out.push(expr === '' ? `alter table ${target} alter column ${col} drop default;` : `alter table ${target} alter column ${col} set default ${expr};`)
      }
    }
    const nullable = column.nullable !== false && !column.primary_key
    if (nullable !== (old.nullable !== false) && !(column.primary_key && old.primary_key)) {
      out.push(`alter table ${target} alter column ${col} ${nullable ? 'drop' : 'set'} not null;`)
    }
    const unique = column.unique === true && !column.primary_key
    const uniqueName = current.uniqueNames[old.name]
    if (unique && !uniqueName) out.push(`alter table ${target} add unique (${col});`)
    if (!unique && uniqueName && !column.primary_key) out.push(`alter table ${target} drop constraint ${quoteIdent(uniqueName)};`)
  }
  if (pkChanged && newPk.length > 0) out.push(`alter table ${target} add primary key (${newPk.map(quoteIdent).join(', ')});`)
  const wanted = new Set((def.foreign_keys ?? []).map((f) => f.name).filter((n): n is string => n !== undefined))
  for (const fk of was.foreign_keys ?? []) {
    if (fk.name && !wanted.has(fk.name)) out.push(`alter table ${target} drop constraint ${quoteIdent(fk.name)};`)
  }
  for (const fk of def.foreign_keys ?? []) if (fk.name === undefined) out.push(`alter table ${target} add ${foreignKeySql(fk)};`)
  if ((def.comment ?? '') !== (was.comment ?? '')) {
    out.push(`comment on table ${target} is ${def.comment ? quoteLiteral(def.comment) : 'null'};`)
  }
  const rls = def.rls_enabled !== false
  if (rls !== was.rls_enabled) out.push(`alter table ${target} ${rls ? 'enable' : 'disable'} row level security;`)
  return out.join('\n')
}

const REFERENCES_SQL = `select n.nspname as schema, c.relname as name,
  json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
    'unique', exists(select 1 from pg_constraint k where k.conrelid = c.oid and k.contype in ('p', 'u') and k.conkey = array[a.attnum]::int2[]))
    order by a.attnum) as columns
from pg_class c join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
  and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%' and has_table_privilege(c.oid, 'references')
group by n.nspname, c.relname order by 1, 2 limit 5000`

/** The tables a foreign key may point at (those the owner may reference), with the columns that can be its target. */
export async function tableReferences(run: Runner): Promise<TableReferences> {
  const { rows } = await run(REFERENCES_SQL, [], true)
  return {
    tables: rows.map((r) => ({
      schema: String(r.schema),
      name: String(r.name),
      columns: (typeof r.columns === 'string' ? JSON.parse(r.columns) : r.columns) as TableReferences['tables'][number]['columns'],
    })),
  }
}
