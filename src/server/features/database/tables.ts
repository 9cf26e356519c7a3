/**
 * The tables and views of a project's `public` schema, read from the catalogs in three queries whatever their number
 * (relations, columns, primary and foreign keys) and the row counts in one more per 200 tables; and a page of one
 * table's rows.
 *
 * Row counts: PGlite keeps no statistics (pg_stat's n_live_tup stays 0, reltuples -1), so each table's rows are
 * counted up to COUNT_BOUND (one statement counts 200 tables); past the bound the answer is Postgres's estimate
 * (reltuples, once the table has been analysed) or the bound itself. Views are not counted (their count can cost
 * any amount of work): 0.
 */
import type { DatabaseTable, QueryColumn, TableColumn } from '../../../contracts/database'
import { quoteIdent } from '../../core/sql'
import type { ProjectTx } from '../../projectdb/types'
import { decimalColumnNames, rowFromJson } from './values'

export const COUNT_BOUND = 100_000
const SCHEMA = 'public'

/** An identifier quoted for SQL (`"a ""b"""`): any name, spaces, quotes and unicode included. */

const RELATIONS_SQL = `
  select c.oid::int as oid, c.relname as name, c.relkind as relkind, c.relrowsecurity as rls,
         c.reltuples::float8 as reltuples, ds.description as comment
  from pg_class c
  left join pg_description ds on ds.objoid = c.oid and ds.classoid = 'pg_class'::regclass and ds.objsubid = 0
  where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
  order by c.relname`

// Comments come from a join on pg_description: col_description() and obj_description() are SQL functions run once
// a row, which doubled the time of this query for 7,000 columns on PGlite.
const COLUMNS_SQL = `
  select a.attrelid::int as relid, a.attname as name, format_type(a.atttypid, a.atttypmod) as data_type,
         not a.attnotnull as is_nullable, pg_get_expr(d.adbin, d.adrelid) as default_value,
         a.attidentity <> '' as is_identity, ds.description as comment,
         coalesce((select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e
                   where e.enumtypid = case when t.typcategory = 'A' then t.typelem else t.oid end), '{}') as enums
  from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_type t on t.oid = a.atttypid
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  left join pg_description ds on ds.objoid = a.attrelid and ds.classoid = 'pg_class'::regclass and ds.objsubid = a.attnum
  where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
    and a.attnum > 0 and not a.attisdropped
  order by a.attrelid, a.attnum`

/** Primary keys and foreign keys, the columns of each in key order. */
const KEYS_SQL = `
  select con.conrelid::int as relid, con.contype as type, con.conname as name,
         array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i) as columns,
         case when con.contype = 'f' then
           case when tn.nspname = $1 then tc.relname::text else tn.nspname || '.' || tc.relname end end as target_table,
         array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
               join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i) as target_columns
  from pg_constraint con
  join pg_class c on c.oid = con.conrelid
  left join pg_class tc on tc.oid = con.confrelid
  left join pg_namespace tn on tn.oid = tc.relnamespace
  where c.relnamespace = $1::regnamespace and con.contype in ('p', 'f')
  order by con.conrelid, con.conname`

interface RelationRow {
  oid: number
  name: string
  relkind: string
  rls: boolean
  reltuples: number
  comment: string | null
}

interface ColumnRow {
  relid: number
  name: string
  data_type: string
  is_nullable: boolean
  default_value: string | null
  is_identity: boolean
  comment: string | null
  enums: string[]
}

interface KeyRow {
  relid: number
  type: 'p' | 'f'
  name: string
  columns: string[]
  target_table: string | null
  target_columns: string[]
}

const isTable = (relkind: string) => relkind === 'r' || relkind === 'p' || relkind === 'm'

/** Tables counted by one statement: PGlite fails a statement of 1,000 such branches ("unnamed prepared statement does not exist"). */
const COUNT_BATCH = 200

/**
 * Every table's rows counted up to COUNT_BOUND + 1, COUNT_BATCH tables a statement: one `union all` branch per
 * table, named by its quoted catalog name (nothing a person typed reaches this SQL).
 */
async function boundedCounts(tx: ProjectTx, tables: RelationRow[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  for (let i = 0; i < tables.length; i += COUNT_BATCH) {
    const branches = tables.slice(i, i + COUNT_BATCH).map(
      (t) =>
        `select ${Number(t.oid)} as oid, count(*)::int as n ` +
        `from (select 1 from ${quoteIdent(SCHEMA)}.${quoteIdent(t.name)} limit ${COUNT_BOUND + 1}) s`,
    )
    const { rows } = await tx.query(branches.join('\nunion all\n'))
    for (const row of rows) counts.set(Number(row.oid), Number(row.n))
  }
  return counts
}

function estimate(counted: number | undefined, reltuples: number): number {
  if (counted === undefined) return 0
  return counted > COUNT_BOUND ? Math.max(counted, Math.round(reltuples)) : counted
}

export async function listTables(tx: ProjectTx): Promise<DatabaseTable[]> {
  const relations = (await tx.query<RelationRow>(RELATIONS_SQL, [SCHEMA])).rows
  const columns = (await tx.query<ColumnRow>(COLUMNS_SQL, [SCHEMA])).rows
  const keys = (await tx.query<KeyRow>(KEYS_SQL, [SCHEMA])).rows
  const counts = await boundedCounts(tx, relations.filter((r) => isTable(r.relkind)))

  const primaryKeys = new Map<number, string[]>()
  const relationships = new Map<number, DatabaseTable['relationships']>()
  for (const key of keys) {
    const relid = Number(key.relid)
    if (key.type === 'p') primaryKeys.set(relid, key.columns)
    else {
      const list = relationships.get(relid) ?? []
      list.push({
        constraint_name: key.name,
        source_columns: key.columns,
        target_table: key.target_table ?? '',
        target_columns: key.target_columns,
      })
      relationships.set(relid, list)
    }
  }
  const columnsOf = new Map<number, TableColumn[]>()
  for (const col of columns) {
    const relid = Number(col.relid)
    const list = columnsOf.get(relid) ?? []
    list.push({
      name: col.name,
      data_type: col.data_type,
      is_nullable: col.is_nullable,
      default_value: col.default_value,
      is_identity: col.is_identity,
      is_primary_key: primaryKeys.get(relid)?.includes(col.name) ?? false,
      comment: col.comment,
      enums: col.enums ?? [],
    })
    columnsOf.set(relid, list)
  }
  return relations.map((rel) => {
    const oid = Number(rel.oid)
    return {
      name: rel.name,
      schema: SCHEMA,
      kind: rel.relkind === 'v' || rel.relkind === 'm' ? 'view' : 'table',
      comment: rel.comment,
      rls_enabled: rel.rls,
      estimated_rows: estimate(counts.get(oid), Number(rel.reltuples)),
      columns: columnsOf.get(oid) ?? [],
      primary_keys: primaryKeys.get(oid) ?? [],
      relationships: relationships.get(oid) ?? [],
    }
  })
}

export interface TablePage {
  columns: QueryColumn[]
  rows: Record<string, unknown>[]
  total: number
}

/**
 * A page of a table's (or view's) rows, ordered by its primary key, else by physical position for a table; or
 * undefined when `public` has no relation of that name. The name is looked up in the catalog first; the SQL then
 * uses the catalog's name, quoted.
 */
export async function tablePage(tx: ProjectTx, name: string, offset: number, limit: number): Promise<TablePage | undefined> {
  const found = await tx.query<{ oid: number; name: string; relkind: string; pk: string[] }>(
    `select c.oid::int as oid, c.relname as name, c.relkind as relkind,
            array(select a.attname::text from pg_constraint con
                  cross join unnest(con.conkey) with ordinality k(num, i)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num
                  where con.conrelid = c.oid and con.contype = 'p' order by k.i) as pk
     from pg_class c
     where c.relnamespace = $1::regnamespace and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [SCHEMA, name],
  )
  const rel = found.rows.at(0)
  if (!rel) return undefined
  const cols = await tx.query<{ name: string; type: string; oid: number }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.atttypid::int as oid
     from pg_attribute a where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    [rel.oid],
  )
  const columnRows = cols.rows
  const target = `${quoteIdent(SCHEMA)}.${quoteIdent(rel.name)}`
  const order =
    rel.pk.length > 0
      ? `order by ${rel.pk.map((c) => `"kp$t".${quoteIdent(c)}`).join(', ')}`
      : rel.relkind === 'r' || rel.relkind === 'p'
        ? 'order by "kp$t".ctid'
        : ''
  // The alias is one no column is likely to bear: a column named like it would shadow the whole-row reference.
  const page = await tx.query(
    `select row_to_json("kp$t")::text as r from ${target} "kp$t" ${order} limit $1 offset $2`,
    [limit, offset],
  )
  const total = await tx.query(`select count(*)::text as n from ${target}`)
  const decimals = decimalColumnNames(columnRows.map((c) => ({ name: c.name, dataTypeID: Number(c.oid) })))
  return {
    columns: columnRows.map((c) => ({ name: c.name, type: c.type })),
    rows: page.rows.map((row) => rowFromJson(String(row.r), decimals)),
    total: Number(total.rows[0].n),
  }
}
