/**
 * SQL of the REST endpoint, built from parsed queries (query.ts). Every identifier goes through `ident` (double
 * quotes, inner quotes doubled), every value is a bind parameter, relations are always `"<schema>".<name>`; the
 * only text spliced in unquoted is what the parser restricted (cast type names, limit/offset numbers) or what the
 * catalog printed (function argument types). The JSON of an answer is built in Postgres, as PostgREST does, so
 * values print as Postgres prints them.
 */
import { quoteIdent as ident } from '../../core/sql'
import type { Condition, OrderTerm, SelectItem } from './query'

export const relationSql = (name: string, schema = 'public') => `${ident(schema)}.${ident(name)}`

/** The bind parameters of one statement, in order. */
export class Params {
  readonly values: (string | null)[] = []
  add(value: string | null): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

export interface Statement {
  sql: string
  params: (string | null)[]
}

const COMPARISONS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const
const PATTERNS = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' } as const

function conditionSql(cond: Condition, params: Params): string {
  if (cond.kind === 'logic') {
    const inner = cond.items.map((c) => conditionSql(c, params)).join(cond.op === 'and' ? ' and ' : ' or ')
    return cond.negate ? `not (${inner})` : `(${inner})`
  }
  const col = ident(cond.column)
  let expr: string
  switch (cond.op) {
    case 'eq':
    case 'neq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      expr = `${col} ${COMPARISONS[cond.op]} ${params.add(cond.value as string)}`
      break
    case 'like':
    case 'ilike':
    case 'match':
    case 'imatch':
      // Patterns apply to the text of any column, as PostgREST's do (an integer column is matched as text).
      expr = `${col}::text ${PATTERNS[cond.op]} ${params.add(cond.value as string)}`
      break
    case 'isdistinct':
      expr = `${col} is distinct from ${params.add(cond.value as string)}`
      break
    case 'is':
      // One of four words checked by the parser.
      expr = `${col} is ${cond.value as 'null' | 'true' | 'false' | 'unknown'}`
      break
    case 'in': {
      const values = cond.value as string[]
      expr = values.length === 0 ? 'false' : `${col} in (${values.map((v) => params.add(v)).join(', ')})`
      break
    }
  }
  return cond.negate ? `not (${expr})` : expr
}

export function whereSql(conditions: Condition[], params: Params): string {
  return conditions.length === 0 ? 'true' : conditions.map((c) => conditionSql(c, params)).join(' and ')
}

export function selectListSql(items: SelectItem[]): string {
  return items
    .map((item) => {
      if (item.kind === 'star') return '*'
      const expr = item.cast ? `${ident(item.name)}::${item.cast}` : ident(item.name)
      return item.alias !== undefined || item.cast ? `${expr} as ${ident(item.alias ?? item.name)}` : expr
    })
    .join(', ')
}

function orderSql(order: OrderTerm[]): string {
  if (order.length === 0) return ''
  return ` order by ${order.map((o) => `${ident(o.column)} ${o.dir ?? 'asc'}${o.nulls ? ` nulls ${o.nulls}` : ''}`).join(', ')}`
}

function pageSql(limit?: number, offset?: number): string {
  return `${limit !== undefined ? ` limit ${Math.trunc(limit)}` : ''}${offset ? ` offset ${Math.trunc(offset)}` : ''}`
}

/**
 * The outer query every answer goes through: the rows' count and their JSON (an array, or with `single` the one
 * object — null unless exactly one row), from `inner` (a select, or rows of a data-modifying CTE).
 */
function aggregateSql(inner: string, single: boolean, withBody: boolean, extra = '', element = '_pgrst_r.*'): string {
  const body = !withBody
    ? 'null::text'
    : single
      ? `case when count(*) = 1 then (json_agg(${element}) -> 0)::text end`
      : `coalesce(json_agg(${element}), '[]')::text`
  return `select count(*)::text as page_count, ${body} as body${extra} from (${inner}) _pgrst_r`
}

export interface ReadPlan {
  select: SelectItem[]
  where: Condition[]
  order: OrderTerm[]
  limit?: number
  offset?: number
  single: boolean
  /** Also count every row the filters match (Prefer: count=exact). */
  count: boolean
  /** HEAD: the count is enough. */
  withBody: boolean
  /** The rows are one column `pgrst_scalar` (a function returning a base type): its values, not objects. */
  scalar?: boolean
  /**
   * The relation read (`source` is then that relation): the statement also answers its relkind, so one round trip
   * both reads and checks it is a relation the API serves (a sequence also parses as a FROM item).
   */
  relation?: string
  /** The relation's schema (default public). */
  schema?: string
}

/** A read of `source` (a relation, or a function call's rows): page_count, body, and total when counted. */
export function readSql(source: string, plan: ReadPlan, params = new Params(), prelude = ''): Statement {
  const where = whereSql(plan.where, params)
  const inner = `select ${selectListSql(plan.select)} from ${source} where ${where}${orderSql(plan.order)}${pageSql(plan.limit, plan.offset)}`
  let extra = plan.count ? `, (select count(*) from ${source} where ${where})::text as total` : ''
  if (plan.relation !== undefined) {
    extra += `, (select c.relkind::text from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${params.add(plan.schema ?? 'public')} and c.relname = ${params.add(plan.relation)}) as relkind`
  }
  const element = plan.scalar ? '_pgrst_r.pgrst_scalar' : '_pgrst_r.*'
  return { sql: `${prelude}${aggregateSql(inner, plan.single, plan.withBody, extra, element)}`, params: params.values }
}

/** What a write returns: rows for the answer (representation), primary keys for Location (headers-only), or a count. */
export type Returning = { kind: 'rows'; select: SelectItem[]; single: boolean } | { kind: 'keys'; columns: string[] } | { kind: 'count' }

function returningSql(ret: Returning): string {
  if (ret.kind === 'rows') return 'returning *'
  if (ret.kind === 'keys' && ret.columns.length) return `returning ${ret.columns.map(ident).join(', ')}`
  // Not `returning *`: that needs SELECT on every column and passing the SELECT policies (PostgREST's
  // return=minimal inserts where anon may insert but not read).
  return 'returning 1'
}

function writeSql(modify: string, ret: Returning): string {
  const cte = `with pgrst_source as (${modify} ${returningSql(ret)}) `
  if (ret.kind === 'rows') return cte + aggregateSql(`select ${selectListSql(ret.select)} from pgrst_source`, ret.single, true)
  if (ret.kind === 'keys') {
    return `${cte}select count(*)::text as page_count, (select row_to_json(pgrst_source.*)::text from pgrst_source limit 1) as body from pgrst_source`
  }
  return `${cte}select count(*)::text as page_count, null::text as body from pgrst_source`
}

export interface InsertPlan {
  relation: string
  /** The relation's schema (default public). */
  schema?: string
  /** The columns inserted (the keys of the body, or the columns parameter); none = every column's default. */
  columns: string[]
  /** The body as a JSON array text. */
  rowsJson: string
  conflict?: { action: 'merge' | 'ignore'; target: string[] }
  returning: Returning
}

/**
 * INSERT … SELECT from json_populate_recordset over the relation's row type, so Postgres converts every JSON value
 * to its column's type (jsonb, arrays, enums, timestamps) and the whole body is one bind parameter.
 */
export function insertSql(plan: InsertPlan): Statement {
  const params = new Params()
  const body = params.add(plan.rowsJson)
  const rel = relationSql(plan.relation, plan.schema)
  const cols = plan.columns.map(ident).join(', ')
  let modify =
    plan.columns.length === 0
      ? `insert into ${rel} select from json_array_elements(${body}::json)`
      : `insert into ${rel} (${cols}) select ${cols} from json_populate_recordset(null::${rel}, ${body}::json)`
  if (plan.conflict) {
    const target = plan.conflict.target.length ? ` (${plan.conflict.target.map(ident).join(', ')})` : ''
    const updates = plan.columns.filter((c) => !plan.conflict?.target.includes(c))
    modify +=
      plan.conflict.action === 'merge' && updates.length
        ? ` on conflict${target} do update set ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
        : ` on conflict${target} do nothing`
  }
  return { sql: writeSql(modify, plan.returning), params: params.values }
}

export interface UpdatePlan {
  relation: string
  /** The relation's schema (default public). */
  schema?: string
  columns: string[]
  /** The body, one JSON object. */
  rowJson: string
  where: Condition[]
  returning: Returning
}

export function updateSql(plan: UpdatePlan): Statement {
  const params = new Params()
  const body = params.add(plan.rowJson)
  const rel = relationSql(plan.relation, plan.schema)
  const cols = plan.columns.map(ident).join(', ')
  const source = `(select ${cols} from json_populate_record(null::${rel}, ${body}::json))`
  const set = plan.columns.length === 1 ? `${cols} = ${source}` : `(${cols}) = ${source}`
  const modify = `update ${rel} set ${set} where ${whereSql(plan.where, params)}`
  return { sql: writeSql(modify, plan.returning), params: params.values }
}

export interface DeletePlan {
  relation: string
  /** The relation's schema (default public). */
  schema?: string
  where: Condition[]
  returning: Returning
}

export function deleteSql(plan: DeletePlan): Statement {
  const params = new Params()
  const modify = `delete from ${relationSql(plan.relation, plan.schema)} where ${whereSql(plan.where, params)}`
  return { sql: writeSql(modify, plan.returning), params: params.values }
}

export interface CallArg {
  name: string
  /** The type as the catalog prints it, schema-qualified unless in pg_catalog (catalog.ts). */
  type: string
}

/**
 * The rows of a function call as a FROM source: the arguments converted from one JSON object by json_to_record
 * (each to its declared type, as PostgREST does), only those given (the others keep their defaults).
 * `scalar` functions yield one column `pgrst_scalar`.
 */
export function callSourceSql(fn: string, args: CallArg[], argsJson: string | null, scalar: boolean, params: Params, wholeBody?: boolean, schema = 'public'): string {
  const call = (list: string) => `${ident(schema)}.${ident(fn)}(${list})`
  const alias = scalar ? '_pgrst_f(pgrst_scalar)' : '_pgrst_f'
  if (wholeBody) {
    return `(select _pgrst_f.* from ${call(`${params.add(argsJson)}::${args[0].type}`)} as ${alias}) _pgrst_src`
  }
  if (args.length === 0) return `(select _pgrst_f.* from ${call('')} as ${alias}) _pgrst_src`
  const typed = args.map((a) => `${ident(a.name)} ${a.type}`).join(', ')
  const named = args.map((a) => `${ident(a.name)} := _pgrst_args.${ident(a.name)}`).join(', ')
  return `(select _pgrst_f.* from json_to_record(${params.add(argsJson)}::json) as _pgrst_args(${typed}) cross join lateral ${call(named)} as ${alias}) _pgrst_src`
}
