/**
 * The platform's log query form (`logs.all?sql=`), run over rows held in memory. On the platform the SQL goes to the
 * log warehouse (BigQuery's dialect); the queries the dashboard and users send for function logs are single SELECTs
 * over one source, its struct arrays opened with `cross join unnest(metadata) as m`, a WHERE of comparisons,
 * `regexp_contains`, LIKE, IN and IS NULL joined by AND/OR/NOT, ORDER BY and LIMIT. That subset is parsed by the real
 * PostgreSQL grammar (libpg-query, whose syntax these queries share) and evaluated here; anything else (GROUP BY,
 * aggregates, subqueries, other sources) is refused with a clear message rather than answered wrongly.
 * Output columns are named as BigQuery names them: the alias, else the last field of a column path
 * (`m.function_id` → `function_id`), else `f0_`, `f1_`…
 */
import { parse } from 'libpg-query'

export type LogValue = string | number | boolean | null | LogRecord | LogRecord[]
export interface LogRecord {
  [field: string]: LogValue
}

/** A query the subset does not take, or a name it does not know: the answer is a 400 with this message. */
export class LogQueryError extends Error {}

/** The most rows one query answers (the platform caps a logs query the same way). */
export const MAX_LOG_ROWS = 1_000

// The parser's tree, only as far as it is read here.
type Node = Record<string, any>

interface Scope {
  row: LogRecord
  /** `unnest(...) as alias` bindings, in order. */
  binds: Map<string, LogValue>
}

interface Source {
  /** The names the source's own columns may be qualified with (its name, its alias). */
  names: Set<string>
  unnests: { alias: string; path: string[] }[]
  relname: string
}

const sval = (n: Node | undefined): string | undefined => n?.String?.sval

function fieldsOf(ref: Node): string[] {
  return (ref.fields as Node[]).map((f) => (f.A_Star ? '*' : (sval(f) ?? '?')))
}

function fromClause(items: Node[] | undefined): Source {
  if (!items || items.length === 0) throw new LogQueryError('A logs query needs FROM and one source, e.g. from function_logs')
  const flat: Node[] = []
  const walk = (n: Node) => {
    if (n.JoinExpr) {
      const j = n.JoinExpr
      if (j.jointype !== 'JOIN_INNER' || j.quals || j.usingClause) throw new LogQueryError('Only CROSS JOIN UNNEST(...) is supported in a logs query')
      walk(j.larg)
      walk(j.rarg)
    } else flat.push(n)
  }
  items.forEach(walk)
  const tables = flat.filter((n) => n.RangeVar)
  if (tables.length !== 1) throw new LogQueryError('A logs query reads exactly one source')
  const table = tables[0].RangeVar
  const names = new Set<string>([table.relname])
  if (table.alias?.aliasname) names.add(table.alias.aliasname)
  const unnests = flat
    .filter((n) => !n.RangeVar)
    .map((n) => {
      const fn = n.RangeFunction?.functions?.[0]?.List?.items?.[0]?.FuncCall
      const arg = fn?.args?.[0]?.ColumnRef
      const name = fn ? fieldsOf({ fields: fn.funcname }).join('.') : undefined
      if (name !== 'unnest' || !arg || fn.args.length !== 1) throw new LogQueryError('Only UNNEST(<column>) may be joined to the source')
      const alias = n.RangeFunction.alias?.aliasname
      if (!alias) throw new LogQueryError('UNNEST(...) needs an alias: cross join unnest(metadata) as m')
      return { alias: alias as string, path: fieldsOf(arg) }
    })
  return { names, unnests, relname: table.relname }
}

function field(value: LogValue, name: string, path: string): LogValue {
  if (value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) throw new LogQueryError(`Cannot access field ${name} on a value that is not a STRUCT (${path})`)
  if (!(name in value)) throw new LogQueryError(`Field name ${name} does not exist in STRUCT (${path})`)
  return value[name]
}

function resolve(source: Source, scope: Scope, fields: string[]): LogValue {
  const [head, ...rest] = fields
  let value: LogValue
  if (scope.binds.has(head)) value = scope.binds.get(head)!
  else if (rest.length > 0 && source.names.has(head)) return resolve(source, scope, rest)
  else if (head in scope.row) value = scope.row[head]
  else throw new LogQueryError(`Unrecognized name: ${head}`)
  for (const name of rest) value = field(value, name, fields.join('.'))
  return value
}

function constant(c: Node): LogValue {
  if (c.isnull) return null
  if (c.ival) return c.ival.ival ?? 0
  if ('ival' in c) return 0
  if (c.fval) return Number(c.fval.fval)
  if (c.sval) return c.sval.sval ?? ''
  if ('sval' in c) return ''
  if (c.boolval) return c.boolval.boolval === true
  if ('boolval' in c) return false
  throw new LogQueryError('Unsupported constant in a logs query')
}

/** A string compared with a number is a timestamp literal when it reads as a date (timestamps are microseconds). */
function comparable(a: LogValue, b: LogValue): [LogValue, LogValue] {
  const asMicros = (s: string) => {
    if (s.trim() !== '' && !Number.isNaN(Number(s))) return Number(s)
    const ms = Date.parse(s)
    return Number.isNaN(ms) ? s : ms * 1_000
  }
  if (typeof a === 'number' && typeof b === 'string') return [a, asMicros(b)]
  if (typeof a === 'string' && typeof b === 'number') return [asMicros(a), b]
  return [a, b]
}

function compare(op: string, left: LogValue, right: LogValue): boolean | null {
  if (left === null || right === null) return null
  const [a, b] = comparable(left, right)
  if (typeof a === 'object' || typeof b === 'object') throw new LogQueryError(`Cannot compare a STRUCT or ARRAY with ${op}`)
  switch (op) {
    case '=':
      return a === b
    case '!=':
    case '<>':
      return a !== b
    case '<':
      return a < b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '>=':
      return a >= b
    default:
      throw new LogQueryError(`Unsupported operator ${op} in a logs query`)
  }
}

const likeToRegExp = (pattern: string, flags = '') =>
  new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.')}$`, `s${flags}`)

/**
 * A quantified group that holds a quantifier (`(a+)+`, `(x*){2,}`): JavaScript's backtracking engine can take
 * exponential time on it, where the platform's RE2 takes linear time. Refused rather than run on the server's thread.
 */
const NESTED_QUANTIFIER = /\([^)]*[+*}][^)]*\)[+*{]/

function regexpOf(pattern: LogValue): RegExp {
  if (typeof pattern !== 'string') throw new LogQueryError('regexp_contains takes a string pattern')
  if (pattern.length > 1_000 || NESTED_QUANTIFIER.test(pattern)) {
    throw new LogQueryError('regexp_contains: a pattern over 1,000 characters or with a repeated group that repeats inside is not run here')
  }
  try {
    // RE2's inline case-insensitive flag, which the dashboard's search sends, is a flag in JavaScript.
    return pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'i') : new RegExp(pattern)
  } catch {
    throw new LogQueryError(`Cannot parse regular expression: ${pattern}`)
  }
}

const truthy = (v: LogValue) => v === true

function evaluate(source: Source, scope: Scope, n: Node): LogValue {
  if (n.ColumnRef) return resolve(source, scope, fieldsOf(n.ColumnRef))
  if (n.A_Const) return constant(n.A_Const)
  if (n.TypeCast) return evaluate(source, scope, n.TypeCast.arg)
  if (n.BoolExpr) {
    const args = n.BoolExpr.args as Node[]
    if (n.BoolExpr.boolop === 'NOT_EXPR') {
      const v = evaluate(source, scope, args[0])
      return v === null ? null : !truthy(v)
    }
    const values = args.map((a) => evaluate(source, scope, a))
    if (n.BoolExpr.boolop === 'AND_EXPR') return values.some((v) => v === false) ? false : values.some((v) => v === null) ? null : true
    return values.some((v) => v === true) ? true : values.some((v) => v === null) ? null : false
  }
  if (n.NullTest) {
    const v = evaluate(source, scope, n.NullTest.arg)
    return n.NullTest.nulltesttype === 'IS_NULL' ? v === null : v !== null
  }
  if (n.A_Expr) {
    const e = n.A_Expr
    const op = sval(e.name?.[0]) ?? ''
    const left = evaluate(source, scope, e.lexpr)
    if (e.kind === 'AEXPR_OP') return compare(op, left, evaluate(source, scope, e.rexpr))
    if (e.kind === 'AEXPR_LIKE' || e.kind === 'AEXPR_ILIKE') {
      const pattern = evaluate(source, scope, e.rexpr)
      if (left === null || pattern === null) return null
      const matched = likeToRegExp(String(pattern), e.kind === 'AEXPR_ILIKE' ? 'i' : '').test(String(left))
      return op.startsWith('!') ? !matched : matched
    }
    if (e.kind === 'AEXPR_IN') {
      const list = (e.rexpr.List?.items ?? []) as Node[]
      const found = list.some((item) => compare('=', left, evaluate(source, scope, item)) === true)
      return op === '<>' ? !found : found
    }
    throw new LogQueryError('Unsupported expression in a logs query')
  }
  if (n.FuncCall) {
    const name = fieldsOf({ fields: n.FuncCall.funcname }).join('.').toLowerCase()
    const args = ((n.FuncCall.args ?? []) as Node[]).map((a) => evaluate(source, scope, a))
    if (n.FuncCall.agg_star || n.FuncCall.over) throw new LogQueryError(`${name}(*) and window functions are not supported in a logs query here`)
    switch (name) {
      case 'regexp_contains':
        return args[0] === null ? null : regexpOf(args[1]).test(String(args[0]))
      case 'lower':
        return args[0] === null ? null : String(args[0]).toLowerCase()
      case 'upper':
        return args[0] === null ? null : String(args[0]).toUpperCase()
      default:
        throw new LogQueryError(`Function not supported in a logs query here: ${name}`)
    }
  }
  throw new LogQueryError('Unsupported expression in a logs query')
}

function outputName(target: Node, index: number): string {
  if (target.name) return target.name
  const ref = target.val?.ColumnRef
  if (ref) return fieldsOf(ref).at(-1)!
  return `f${index}_`
}

/**
 * Runs `sql` over the rows of the source it names (`sources(name)` gives them, or undefined for a source this
 * platform does not keep). Rows come back as plain objects with the output columns, at most MAX_LOG_ROWS of them.
 */
export async function runLogQuery(sql: string, sources: (name: string) => LogRecord[] | undefined): Promise<Record<string, LogValue>[]> {
  let tree: Node
  try {
    tree = await parse(sql)
  } catch (err) {
    const message = (err as { sqlDetails?: { message?: string } }).sqlDetails?.message ?? (err as Error).message
    throw new LogQueryError(`Syntax error: ${message}`)
  }
  const stmts = (tree.stmts ?? []) as Node[]
  if (stmts.length !== 1 || !stmts[0].stmt?.SelectStmt) throw new LogQueryError('A logs query is one SELECT statement')
  const select = stmts[0].stmt.SelectStmt
  if (select.op !== 'SETOP_NONE') throw new LogQueryError('UNION and other set operations are not supported in a logs query here')
  if (select.withClause || select.groupClause || select.havingClause || select.distinctClause || select.windowClause || select.limitOffset) {
    throw new LogQueryError('WITH, GROUP BY, HAVING, DISTINCT, WINDOW and OFFSET are not supported in a logs query here')
  }
  const source = fromClause(select.fromClause)
  const rows = sources(source.relname)
  if (!rows) throw new LogQueryError(`Unknown source ${source.relname}: this platform keeps function_logs and function_edge_logs`)

  // Every row with each unnested element bound (a cross join: an empty or null array drops the row).
  let scopes: Scope[] = rows.map((row) => ({ row, binds: new Map() }))
  for (const { alias, path } of source.unnests) {
    const next: Scope[] = []
    for (const scope of scopes) {
      const value = resolve(source, scope, path)
      const items = Array.isArray(value) ? value : value === null ? [] : [value]
      for (const item of items) next.push({ row: scope.row, binds: new Map(scope.binds).set(alias, item) })
    }
    scopes = next
  }

  if (select.whereClause) scopes = scopes.filter((scope) => truthy(evaluate(source, scope, select.whereClause)))

  const sorts = ((select.sortClause ?? []) as Node[]).map((s) => s.SortBy)
  if (sorts.length > 0) {
    const keyed = scopes.map((scope) => ({ scope, keys: sorts.map((s) => evaluate(source, scope, s.node)) }))
    keyed.sort((x, y) => {
      for (let i = 0; i < sorts.length; i++) {
        const [a, b] = [x.keys[i], y.keys[i]]
        if (a === b) continue
        // NULLs first ascending, last descending (BigQuery's default).
        const order = a === null ? -1 : b === null ? 1 : a < b ? -1 : 1
        return sorts[i].sortby_dir === 'SORTBY_DESC' ? -order : order
      }
      return 0
    })
    scopes = keyed.map((k) => k.scope)
  }

  let limit = MAX_LOG_ROWS
  if (select.limitCount) {
    const n = select.limitCount.A_Const ? constant(select.limitCount.A_Const) : undefined
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new LogQueryError('LIMIT takes a whole number')
    limit = Math.min(n, MAX_LOG_ROWS)
  }
  scopes = scopes.slice(0, limit)

  const targets = ((select.targetList ?? []) as Node[]).map((t) => t.ResTarget)
  return scopes.map((scope) => {
    const out: Record<string, LogValue> = {}
    targets.forEach((target, i) => {
      const ref = target.val?.ColumnRef
      if (ref && fieldsOf(ref).at(-1) === '*') {
        const fields = fieldsOf(ref)
        const whole = fields.length === 1 ? scope.row : resolve(source, scope, fields.slice(0, -1))
        if (whole && typeof whole === 'object' && !Array.isArray(whole)) Object.assign(out, whole)
        return
      }
      out[outputName(target, i)] = evaluate(source, scope, target.val)
    })
    return out
  })
}
