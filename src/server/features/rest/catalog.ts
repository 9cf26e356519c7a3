/**
 * What the REST endpoint reads from a project's catalog: one relation or one function by name (per request, in
 * the request's own transaction, so a table created a moment ago in the SQL editor is there), and the whole
 * public schema for the OpenAPI document — four catalog queries whatever the number of tables and functions,
 * each answering one JSON text. One schema is looked at: the one the request is served from (`public` unless said).
 */
import type { ProjectTx } from '../../projectdb/types'

/** A type as SQL can write it in a cast or a column definition: pg_catalog's by format_type, others schema-qualified. */
function typeNameSql(t: string, tn: string, et: string, etn: string): string {
  return `case when ${t}.typname in ('bpchar', 'bit') and ${tn}.nspname = 'pg_catalog' then ${t}.typname
    when ${tn}.nspname = 'pg_catalog' then format_type(${t}.oid, null)
    when ${et}.oid is not null then quote_ident(${etn}.nspname) || '.' || quote_ident(${et}.typname) || '[]'
    else quote_ident(${tn}.nspname) || '.' || quote_ident(${t}.typname) end`
}

/** Joins of a type (alias t, on `oid`) to its namespace, its array element, and its base type (a domain's). */
function typeJoins(oid: string, t = 't'): string {
  return `join pg_type ${t} on ${t}.oid = ${oid} ${typeDetailJoins(t)}`
}

/** The joins of typeJoins after pg_type itself. */
function typeDetailJoins(t: string): string {
  return `join pg_namespace ${t}n on ${t}n.oid = ${t}.typnamespace
    left join pg_type ${t}e on ${t}e.oid = ${t}.typelem and ${t}.typcategory = 'A'
    left join pg_namespace ${t}en on ${t}en.oid = ${t}e.typnamespace
    left join pg_type ${t}b on ${t}b.oid = case when ${t}.typtype = 'd' then ${t}.typbasetype else ${t}.oid end
    left join pg_type ${t}be on ${t}be.oid = ${t}b.typelem and ${t}b.typcategory = 'A'`
}

/** The JSON fields of a type joined by typeJoins: how to write it, its base type's name, category and element. */
function typeFieldsSql(t = 't'): string {
  return `'type', ${typeNameSql(t, `${t}n`, `${t}e`, `${t}en`)},
    'base', ${t}b.typname, 'category', ${t}b.typcategory::text, 'elem', ${t}be.typname,
    'enum', case when ${t}b.typtype = 'e' then (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = ${t}b.oid) end`
}

export interface TypeInfo {
  /** As SQL writes it: `integer`, `text[]`, `public.mood`. */
  type: string
  /** The base type's name (a domain's base): int4, varchar, jsonb, _text… */
  base: string
  /** pg_type.typcategory of the base type (A = array). */
  category: string
  /** An array's element type name. */
  elem: string | null
  enum: string[] | null
}

async function jsonQuery<T>(tx: ProjectTx, sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await tx.query(sql, params)
  const text = rows[0]?.json
  return JSON.parse(typeof text === 'string' ? text : 'null') as T
}

// ---------------------------------------------------------------------------------------------------------------
// Per request

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table'
const RELKINDS: Record<string, RelationKind> = { r: 'table', v: 'view', m: 'materialized_view', f: 'foreign_table', p: 'partitioned_table' }

export interface RelationInfo {
  name: string
  kind: RelationKind
  columns: string[]
  primaryKey: string[]
  /** Which writes the relation takes (a view only when automatically updatable or with INSTEAD OF triggers). */
  insertable: boolean
  updatable: boolean
  deletable: boolean
}

/** pg_relation_is_updatable's answer for a relation (c), tables answering every write without asking. */
const UPDATABLE_EVENTS_SQL = `case when c.relkind in ('r', 'p') then 28 else pg_relation_is_updatable(c.oid, true) end`

/** pg_class.relkind of `<schema>.<name>`, or undefined when there is no such object. */
export async function relationKind(tx: ProjectTx, name: string, schema = 'public'): Promise<string | undefined> {
  const { rows } = await tx.query(
    `select c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $2 and c.relname = $1`,
    [name, schema],
  )
  return rows[0]?.kind as string | undefined
}

export async function findRelation(tx: ProjectTx, name: string, schema = 'public'): Promise<RelationInfo | undefined> {
  const found = await jsonQuery<{ kind: string; events: number; columns: string[]; pk: string[] } | null>(
    tx,
    `select json_build_object(
       'kind', c.relkind::text, 'events', ${UPDATABLE_EVENTS_SQL},
       'columns', (select coalesce(json_agg(a.attname order by a.attnum), '[]') from pg_attribute a
                   where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped),
       'pk', (select coalesce(json_agg(a.attname order by k.i), '[]') from pg_constraint con
              cross join lateral unnest(con.conkey) with ordinality k(attnum, i)
              join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
              where con.conrelid = c.oid and con.contype = 'p'))::text as json
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $2 and c.relname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')`,
    [name, schema],
  )
  if (!found) return undefined
  return {
    name,
    kind: RELKINDS[found.kind],
    columns: found.columns,
    primaryKey: found.pk,
    insertable: (found.events & 8) === 8,
    updatable: (found.events & 4) === 4,
    deletable: (found.events & 16) === 16,
  }
}

export interface FunctionArg extends TypeInfo {
  /** '' when unnamed. */
  name: string
  /** i (in), o (out), b (inout), v (variadic), t (table column). */
  mode: string
  hasDefault: boolean
}

export interface FunctionInfo {
  name: string
  comment: string | null
  volatility: 'i' | 's' | 'v'
  returnsSet: boolean
  /** What one call yields: rows of a composite (table, composite type, OUT/TABLE columns), a base value, nothing. */
  returns: 'composite' | 'scalar' | 'void' | 'record'
  returnType: TypeInfo
  args: FunctionArg[]
  /** The IN arguments (in, inout, variadic), in order. */
  inArgs: FunctionArg[]
}

const IN_MODES = new Set(['i', 'b', 'v'])

/**
 * The functions of schema public: every overload named `name` (a call: Postgres itself then refuses one the role
 * may not execute, 42501), or all those the role may execute (the OpenAPI document).
 */
export async function findFunctions(tx: ProjectTx, name?: string, schema = 'public'): Promise<FunctionInfo[]> {
  const rows = await jsonQuery<
    Array<{
      name: string
      comment: string | null
      volatility: 'i' | 's' | 'v'
      retset: boolean
      ret_composite: boolean
      ret_void: boolean
      ret_record: boolean
      ndefaults: number
      ret: TypeInfo
      args: Array<TypeInfo & { name: string | null; mode: string | null }>
    }> | null
  >(
    tx,
    `select json_agg(json_build_object(
       'name', p.proname, 'comment', d.description, 'volatility', p.provolatile::text, 'retset', p.proretset,
       'ret_composite', r.typrelid <> 0, 'ret_void', p.prorettype = 'void'::regtype, 'ret_record', p.prorettype = 'record'::regtype,
       'ndefaults', p.pronargdefaults,
       'ret', json_build_object(${typeFieldsSql('r')}),
       'args', coalesce((select json_agg(json_build_object('name', a.name, 'mode', a.mode::text, ${typeFieldsSql('t')}) order by a.ord)
                from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames, p.proargmodes) with ordinality a(typ, name, mode, ord)
                ${typeJoins('a.typ')}), '[]')
     ) order by p.proname, p.oid)::text as json
     from pg_proc p
     join pg_namespace pn on pn.oid = p.pronamespace
     ${typeJoins('p.prorettype', 'r')}
     left join pg_description d on d.objoid = p.oid and d.classoid = 'pg_proc'::regclass and d.objsubid = 0
     where pn.nspname = $2 and p.prokind = 'f' and ($1::text is null or p.proname = $1)
       and ($1::text is not null or has_function_privilege(p.oid, 'execute'))`,
    [name ?? null, schema],
  )
  return (rows ?? []).map((row) => {
    const all = row.args.map((a) => ({
      ...a,
      name: a.name ?? '',
      mode: a.mode ?? 'i',
      hasDefault: false,
    }))
    const inArgs = all.filter((a) => IN_MODES.has(a.mode))
    // pronargdefaults counts the last IN arguments.
    inArgs.forEach((a, i) => (a.hasDefault = i >= inArgs.length - row.ndefaults))
    const hasOutColumns = all.some((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't')
    const returns = row.ret_void
      ? 'void'
      : row.ret_composite || (row.ret_record && hasOutColumns)
        ? 'composite'
        : row.ret_record
          ? 'record'
          : 'scalar'
    return {
      name: row.name,
      comment: row.comment,
      volatility: row.volatility,
      returnsSet: row.retset,
      returns,
      returnType: row.ret,
      args: all,
      inArgs,
    }
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The whole schema (OpenAPI)

export interface ColumnInfo extends TypeInfo {
  name: string
  nullable: boolean
  default: string | null
  comment: string | null
  maxLength: number | null
  identity: boolean
  generated: boolean
  primaryKey: boolean
  foreignKeys: Array<{ table: string; column: string }>
}

export interface SchemaRelation {
  name: string
  kind: RelationKind
  comment: string | null
  insertable: boolean
  updatable: boolean
  deletable: boolean
  columns: ColumnInfo[]
}

export interface SchemaCatalog {
  schemaComment: string | null
  relations: SchemaRelation[]
  functions: FunctionInfo[]
}

/**
 * The relations the transaction's role may use (any privilege; the owner all of them), their columns with types,
 * defaults, comments and key notes, and the functions it may execute. Partitions are left out, as PostgREST does.
 */
export async function introspect(tx: ProjectTx, schema = 'public'): Promise<SchemaCatalog> {
  const relations = await jsonQuery<Array<Omit<SchemaRelation, 'columns' | 'kind'> & { oid: number; kind: string }> | null>(
    tx,
    `select json_agg(json_build_object(
       'oid', c.oid, 'name', c.relname, 'kind', c.relkind::text, 'comment', d.description,
       'insertable', (u.events & 8) = 8 and has_table_privilege(c.oid, 'insert'),
       'updatable', (u.events & 4) = 4 and has_table_privilege(c.oid, 'update'),
       'deletable', (u.events & 16) = 16 and has_table_privilege(c.oid, 'delete')
     ) order by c.relname)::text as json
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     -- Tables take every write (28 = insert, update and delete); only the others need asking.
     cross join lateral (select ${UPDATABLE_EVENTS_SQL} as events) u
     left join pg_description d on d.objoid = c.oid and d.classoid = 'pg_class'::regclass and d.objsubid = 0
     where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p') and not c.relispartition
       and has_table_privilege(c.oid, 'select, insert, update, delete')`,
    [schema],
  )
  // Columns carry their type's oid; the few distinct types are described once each (a query of their own).
  const columns = await jsonQuery<
    Array<Omit<ColumnInfo, 'primaryKey' | 'foreignKeys' | 'maxLength' | keyof TypeInfo> & { rel: number; num: number; typ: number; typmod: number }> | null
  >(
    tx,
    `select json_agg(json_build_object(
       'rel', a.attrelid, 'num', a.attnum, 'name', a.attname, 'nullable', not a.attnotnull,
       'default', pg_get_expr(ad.adbin, ad.adrelid), 'comment', d.description, 'typ', a.atttypid, 'typmod', a.atttypmod,
       'identity', a.attidentity <> '', 'generated', a.attgenerated <> ''
     ) order by a.attrelid, a.attnum)::text as json
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
     left join pg_description d on d.objoid = a.attrelid and d.classoid = 'pg_class'::regclass and d.objsubid = a.attnum
     where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p') and not c.relispartition
       and a.attnum > 0 and not a.attisdropped`,
    [schema],
  )
  const typeOids = [...new Set((columns ?? []).map((c) => c.typ))]
  const types = await jsonQuery<Array<TypeInfo & { oid: number }> | null>(
    tx,
    `select json_agg(json_build_object('oid', t.oid, ${typeFieldsSql('t')}))::text as json
     from pg_type t ${typeDetailJoins('t')}
     where t.oid = any($1::oid[])`,
    [`{${typeOids.join(',')}}`],
  )
  const typeByOid = new Map((types ?? []).map(({ oid, ...t }) => [oid, t]))
  const keys = await jsonQuery<Array<{ rel: number; type: 'p' | 'f'; cols: number[]; target: string | null; target_cols: string[] | null }> | null>(
    tx,
    `select json_agg(json_build_object(
       'rel', con.conrelid, 'type', con.contype::text, 'cols', con.conkey,
       'target', case when con.contype = 'f' then tc.relname end,
       'target_cols', case when con.contype = 'f' then
         (select json_agg(ta.attname order by k.i) from unnest(con.confkey) with ordinality k(attnum, i)
          join pg_attribute ta on ta.attrelid = con.confrelid and ta.attnum = k.attnum) end
     ))::text as json
     from pg_constraint con
     join pg_class c on c.oid = con.conrelid
     join pg_namespace n on n.oid = c.relnamespace
     left join pg_class tc on tc.oid = con.confrelid
     where n.nspname = $1 and con.contype in ('p', 'f')`,
    [schema],
  )
  const schemaComment = await jsonQuery<string | null>(
    tx,
    `select to_json(d.description)::text as json from pg_namespace n
     join pg_description d on d.objoid = n.oid and d.classoid = 'pg_namespace'::regclass where n.nspname = $1`,
    [schema],
  )
  const functions = await findFunctions(tx, undefined, schema)

  const byRel = new Map<number, ColumnInfo[]>()
  const byRelNum = new Map<string, ColumnInfo>()
  for (const col of columns ?? []) {
    const { rel, num, typ, typmod, ...rest } = col
    const type = typeByOid.get(typ) ?? { type: 'unknown', base: 'unknown', category: 'X', elem: null, enum: null }
    const maxLength = (type.base === 'varchar' || type.base === 'bpchar') && typmod > 4 ? typmod - 4 : null
    const info: ColumnInfo = { ...rest, ...type, maxLength, primaryKey: false, foreignKeys: [] }
    const list = byRel.get(rel) ?? []
    list.push(info)
    byRel.set(rel, list)
    byRelNum.set(`${rel}:${num}`, info)
  }
  for (const key of keys ?? []) {
    key.cols.forEach((num, i) => {
      const col = byRelNum.get(`${key.rel}:${num}`)
      if (!col) return
      if (key.type === 'p') col.primaryKey = true
      else if (key.target && key.target_cols?.[i]) col.foreignKeys.push({ table: key.target, column: key.target_cols[i] })
    })
  }
  return {
    schemaComment,
    relations: (relations ?? []).map(({ oid, kind, ...r }) => ({ ...r, kind: RELKINDS[kind], columns: byRel.get(oid) ?? [] })),
    functions,
  }
}
