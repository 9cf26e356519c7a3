/**
 * A postgres_changes filter as realtime-js sends it (`column=op.value`; ops eq, neq, lt, lte, gt, gte, in with
 * `in.(a,b,c)`), parsed and matched against a changed row's JSON in the server, never turned into SQL: a value is
 * only ever compared, and the column must be one of the table's (checked at join).
 */
export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in'
const OPS: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']

export interface Filter {
  column: string
  op: FilterOp
  values: string[]
}

export class FilterError extends Error {}

export function parseFilter(text: string): Filter {
  const m = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(text)
  if (!m) throw new FilterError(`Invalid filter ${JSON.stringify(text.slice(0, 200))}: write column=operator.value (eq, neq, lt, lte, gt, gte, in)`)
  const [, column, op, raw] = m
  if (!(OPS as readonly string[]).includes(op)) {
    throw new FilterError(`Invalid filter operator ${JSON.stringify(op)}: one of ${OPS.join(', ')}`)
  }
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(raw)
    if (!list) throw new FilterError('Invalid filter: in takes a list, in.(a,b,c)')
    const values = list[1].split(',').map((v) => v.trim().replace(/^"(.*)"$/s, '$1'))
    if (values.length > 100) throw new FilterError('Invalid filter: in takes at most 100 values')
    return { column, op: 'in', values }
  }
  return { column, op: op as FilterOp, values: [raw] }
}

const NUMERIC = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid'])

function compare(value: unknown, target: string, type: string): number | undefined {
  if (value === null || value === undefined) return undefined
  if (NUMERIC.has(type)) {
    const a = Number(value)
    const b = Number(target)
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined
    return a === b ? 0 : a < b ? -1 : 1
  }
  const a = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return a === target ? 0 : a < target ? -1 : 1
}

/** Whether a row (its JSON) passes the filter; `type` is the column's type name (int4, text …). */
export function matches(filter: Filter, row: Record<string, unknown> | null | undefined, type: string): boolean {
  if (!row || !(filter.column in row)) return false
  const v = row[filter.column]
  if (filter.op === 'in') return filter.values.some((t) => compare(v, t, type) === 0)
  const c = compare(v, filter.values[0], type)
  if (c === undefined) return filter.op === 'neq' && v !== null && v !== undefined
  switch (filter.op) {
    case 'eq':
      return c === 0
    case 'neq':
      return c !== 0
    case 'lt':
      return c < 0
    case 'lte':
      return c <= 0
    case 'gt':
      return c > 0
    case 'gte':
      return c >= 0
  }
  return false
}
