/**
 * The PostgREST query language, parsed into plain data (no SQL here: sql.ts builds it):
 *   select=a,alias:b,c::text,*          columns, renames, casts
 *   col=[not.]op.value                   filters: eq neq gt gte lt lte like ilike match imatch is isdistinct in
 *   or=(a.eq.1,and(b.gt.2,c.is.null))    logic trees (also and=, not.or=, not.and=)
 *   order=a.desc.nullslast,b             ordering
 *   limit, offset, columns, on_conflict  and the headers Prefer, Range, Accept
 * A name may be double-quoted ("my col", with \" and \\ escapes) wherever the syntax would otherwise cut it.
 * Anything outside this subset (embedded resources, JSON paths, operator modifiers, unknown operators) is a
 * PGRST100 error naming what is not supported, never a guess.
 */
import { parseError, RestError } from './errors'

export type SelectItem = { kind: 'star' } | { kind: 'column'; name: string; alias?: string; cast?: string }

export const FILTER_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in'] as const
export type FilterOp = (typeof FILTER_OPS)[number]

export interface Filter {
  kind: 'filter'
  column: string
  negate: boolean
  op: FilterOp
  /** `in` has a list; `is` one of null, true, false, unknown; the others a string (like: `*` already `%`). */
  value: string | string[]
}

export interface Logic {
  kind: 'logic'
  op: 'and' | 'or'
  negate: boolean
  items: Condition[]
}

export type Condition = Filter | Logic

export interface OrderTerm {
  column: string
  dir?: 'asc' | 'desc'
  nulls?: 'first' | 'last'
}

/** Query parameters that are not filters. */
export const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict'])
const LOGIC_KEY = /^(not\.)?(and|or)$/

// ---------------------------------------------------------------------------------------------------------------
// Identifiers

interface Read<T> {
  value: T
  end: number
}

/** A double-quoted name starting at `pos` (the quote): backslash escapes the next character. */
function readQuoted(s: string, pos: number, what: string): Read<string> {
  let out = ''
  for (let i = pos + 1; i < s.length; i++) {
    const ch = s[i]
    if (ch === '\\' && i + 1 < s.length) {
      out += s[++i]
    } else if (ch === '"') {
      return { value: out, end: i + 1 }
    } else {
      out += ch
    }
  }
  throw parseError(`failed to parse ${what} (${s})`, `unterminated double quote at character ${pos + 1}`)
}

/** A name: quoted, or the characters up to one of `stops` (trimmed). */
function readName(s: string, pos: number, stops: string, what: string): Read<{ name: string; quoted: boolean }> {
  while (pos < s.length && s[pos] === ' ') pos++
  if (s[pos] === '"') {
    const q = readQuoted(s, pos, what)
    return { value: { name: q.value, quoted: true }, end: q.end }
  }
  let end = pos
  while (end < s.length && !stops.includes(s[end])) end++
  return { value: { name: s.slice(pos, end).trim(), quoted: false }, end }
}

/** What an unquoted name must not contain: the syntax of features outside the subset. */
function refuseUnsupportedName(name: string, quoted: boolean, what: string, raw: string): void {
  if (quoted) return
  if (name.includes('->')) {
    throw parseError(`failed to parse ${what} (${raw})`, `JSON paths (-> and ->>) are not supported: "${name}"`, 'Quote the name if it is a column whose name contains "->"')
  }
  if (name.startsWith('...')) throw parseError(`failed to parse ${what} (${raw})`, 'Spread embedding (...) is not supported')
  if (name.includes('!')) throw parseError(`failed to parse ${what} (${raw})`, `Embedding hints (!) are not supported: "${name}"`)
}

/** Splits on commas outside double quotes and parentheses. */
export function splitTopLevel(s: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]
    if (quoted) {
      if (ch === '\\') i++
      else if (ch === '"') quoted = false
    } else if (ch === '"') quoted = true
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) {
      parts.push(s.slice(start, i))
      start = i + 1
    }
  }
  parts.push(s.slice(start))
  return parts
}

// ---------------------------------------------------------------------------------------------------------------
// select

const CAST = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/

export function parseSelect(raw: string | undefined): SelectItem[] {
  if (raw === undefined || raw.trim() === '') return [{ kind: 'star' }]
  const items: SelectItem[] = []
  let pos = 0
  const fail = (details: string, hint?: string) => parseError(`failed to parse select parameter (${raw})`, details, hint)
  while (pos <= raw.length) {
    while (raw[pos] === ' ') pos++
    if (raw[pos] === '*') {
      items.push({ kind: 'star' })
      pos++
    } else {
      const first = readName(raw, pos, ',:()', 'select parameter')
      pos = first.end
      let field = first.value
      let alias: string | undefined
      if (raw[pos] === ':' && raw[pos + 1] !== ':') {
        alias = field.name
        const second = readName(raw, pos + 1, ',:()', 'select parameter')
        field = second.value
        pos = second.end
      }
      if (field.name === '' && !field.quoted) throw fail(`expected a column name at character ${pos + 1}`)
      refuseUnsupportedName(field.name, field.quoted, 'select parameter', raw)
      if (raw[pos] === '(') {
        throw fail(
          `embedded resources and aggregates are not supported: "${field.name}(…)"`,
          'Select the columns of this relation only, and query the other relation separately',
        )
      }
      let cast: string | undefined
      if (raw.startsWith('::', pos)) {
        let end = pos + 2
        while (end < raw.length && raw[end] !== ',') end++
        cast = raw.slice(pos + 2, end).trim()
        if (!CAST.test(cast)) throw fail(`"${cast}" is not a type name this endpoint casts to`, 'Use a simple type name such as text, int or numeric')
        pos = end
      }
      items.push({ kind: 'column', name: field.name, ...(alias !== undefined ? { alias } : {}), ...(cast ? { cast } : {}) })
    }
    while (raw[pos] === ' ') pos++
    if (pos >= raw.length) break
    if (raw[pos] !== ',') throw fail(`unexpected "${raw[pos]}" at character ${pos + 1}`)
    pos++
  }
  return items
}

/** `columns="a","b"` (supabase-js quotes each name) or `columns=a,b`. */
export function parseColumns(raw: string): string[] {
  return splitTopLevel(raw).map((part) => {
    const r = readName(part, 0, '', 'columns parameter')
    if (r.value.name === '' || part.slice(r.end).trim() !== '') {
      throw parseError(`failed to parse columns parameter (${raw})`, `"${part}" is not a column name`)
    }
    return r.value.name
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Filters

const IS_VALUES = new Set(['null', 'true', 'false', 'unknown'])

/** A filter's value text (`[not.]op.value`) on `column`; in a logic tree a scalar value may be double-quoted. */
export function parseFilter(column: string, raw: string, inLogic = false): Filter {
  const fail = (details: string, hint?: string) => parseError(`failed to parse filter (${raw})`, details, hint)
  let rest = raw
  let negate = false
  if (rest.startsWith('not.')) {
    negate = true
    rest = rest.slice(4)
  }
  const dot = rest.indexOf('.')
  const opText = dot < 0 ? rest : rest.slice(0, dot)
  if (/^\w+\((any|all)\)$/.test(opText)) throw fail(`the modifiers (any) and (all) are not supported: "${opText}"`)
  if (!(FILTER_OPS as readonly string[]).includes(opText)) {
    throw fail(`unknown operator "${opText}"`, `Use one of: ${FILTER_OPS.join(', ')}, each optionally after "not."`)
  }
  if (dot < 0) throw fail(`expected a value after "${opText}."`)
  const op = opText as FilterOp
  let value = rest.slice(dot + 1)
  if (op === 'in') return { kind: 'filter', column, negate, op, value: parseList(value, raw) }
  if (inLogic && value.startsWith('"')) {
    const q = readQuoted(value, 0, 'filter')
    if (q.end !== value.length) throw fail('unexpected characters after a quoted value')
    value = q.value
  }
  if (op === 'is') {
    const v = value.toLowerCase()
    if (!IS_VALUES.has(v)) throw fail(`"is" takes null, true, false or unknown, not "${value}"`)
    return { kind: 'filter', column, negate, op, value: v }
  }
  if (op === 'like' || op === 'ilike') value = value.replace(/\*/g, '%')
  return { kind: 'filter', column, negate, op, value }
}

/** `(a,b,"c,d")`: the values of `in`. */
function parseList(value: string, raw: string): string[] {
  if (!value.startsWith('(') || !value.endsWith(')')) {
    throw parseError(`failed to parse filter (${raw})`, 'the values of "in" go in parentheses: in.(1,2,3)')
  }
  const inner = value.slice(1, -1)
  if (inner === '') return []
  return splitTopLevel(inner).map((item) => {
    if (item.startsWith('"')) {
      const q = readQuoted(item, 0, 'filter')
      if (q.end !== item.length) throw parseError(`failed to parse filter (${raw})`, 'unexpected characters after a quoted value')
      return q.value
    }
    return item
  })
}

/** `(cond,cond,…)` of an or/and parameter or of a nested and(…)/or(…). */
function parseLogicItems(raw: string, whole: string): Condition[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw parseError(`failed to parse logic tree (${whole})`, 'the conditions of or/and go in parentheses: or=(a.eq.1,b.eq.2)')
  }
  const inner = raw.slice(1, -1)
  if (inner.trim() === '') throw parseError(`failed to parse logic tree (${whole})`, 'or/and needs at least one condition')
  return splitTopLevel(inner).map((item) => {
    const nested = /^(not\.)?(and|or)\(/.exec(item)
    if (nested) {
      return {
        kind: 'logic',
        op: nested[2] as 'and' | 'or',
        negate: nested[1] !== undefined,
        items: parseLogicItems(item.slice(nested[0].length - 1), whole),
      }
    }
    const name = readName(item, 0, '.', 'logic tree')
    if (item[name.end] !== '.' || name.value.name === '') {
      throw parseError(`failed to parse logic tree (${whole})`, `"${item}" is not column.operator.value`)
    }
    refuseUnsupportedName(name.value.name, name.value.quoted, 'logic tree', whole)
    return parseFilter(name.value.name, item.slice(name.end + 1), true)
  })
}

/** A query key that is a column name (quoted keys are unquoted). */
function filterColumn(key: string): string {
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const q = readQuoted(key, 0, 'filter')
    if (q.end === key.length) return q.value
  }
  refuseUnsupportedName(key, false, 'filter', key)
  if (/^[^"]*\.(and|or)$/.test(key)) throw parseError(`failed to parse filter (${key})`, 'logic trees on embedded resources are not supported')
  return key
}

/**
 * The conditions of a query string: every parameter that is not reserved (select, order, …) or an argument
 * name (`skip`, for functions) is a filter or a logic tree; repeated keys add conditions.
 */
export function parseConditions(params: URLSearchParams, skip: (key: string) => boolean = () => false): Condition[] {
  const out: Condition[] = []
  for (const [key, value] of params) {
    if (RESERVED_PARAMS.has(key) || skip(key)) continue
    const logic = LOGIC_KEY.exec(key)
    if (logic) {
      out.push({ kind: 'logic', op: logic[2] as 'and' | 'or', negate: logic[1] !== undefined, items: parseLogicItems(value, `${key}=${value}`) })
    } else {
      out.push(parseFilter(filterColumn(key), value))
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// order, limit, offset

const ORDER_MODIFIERS: Record<string, Partial<OrderTerm>> = {
  asc: { dir: 'asc' },
  desc: { dir: 'desc' },
  nullsfirst: { nulls: 'first' },
  nullslast: { nulls: 'last' },
}

export function parseOrder(raw: string | undefined): OrderTerm[] {
  if (raw === undefined || raw === '') return []
  return splitTopLevel(raw).map((part) => {
    const fail = (details: string) => parseError(`failed to parse order (${raw})`, details)
    let column: string
    let modifiers: string[]
    if (part.startsWith('"')) {
      const q = readQuoted(part, 0, 'order')
      column = q.value
      const rest = part.slice(q.end)
      if (rest !== '' && !rest.startsWith('.')) throw fail(`unexpected "${rest}" after "${column}"`)
      modifiers = rest === '' ? [] : rest.slice(1).split('.')
    } else {
      // Modifiers are taken from the right, so an unquoted name may contain dots.
      const segments = part.split('.')
      modifiers = []
      while (segments.length > 1 && segments[segments.length - 1] in ORDER_MODIFIERS && modifiers.length < 2) {
        modifiers.unshift(segments.pop() as string)
      }
      column = segments.join('.').trim()
      if (column === '') throw fail('expected a column name')
      if (column.includes('(')) throw fail(`ordering by embedded resources is not supported: "${column}"`)
      refuseUnsupportedName(column, false, 'order', raw)
    }
    const term: OrderTerm = { column }
    for (const m of modifiers) {
      const mod = ORDER_MODIFIERS[m]
      if (!mod) throw fail(`unknown order modifier "${m}" (asc, desc, nullsfirst, nullslast)`)
      if ((mod.dir && term.dir) || (mod.nulls && term.nulls)) throw fail(`"${part}" gives a direction or a nulls order twice`)
      Object.assign(term, mod)
    }
    return term
  })
}

export function parseNonNegative(name: 'limit' | 'offset', raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  if (!/^\d{1,15}$/.test(raw)) throw parseError(`failed to parse ${name} parameter (${raw})`, `${name} must be a whole number, 0 or more`)
  return Number(raw)
}

// ---------------------------------------------------------------------------------------------------------------
// Headers

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only'
  count?: 'exact' | 'planned' | 'estimated'
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missing?: 'default' | 'null'
}

const PREFERENCE_VALUES: Record<keyof Preferences, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
}

/** `Prefer: return=representation, count=exact` (several headers arrive joined by commas); unknown ones are ignored, as PostgREST's lenient handling does. */
export function parsePrefer(header: string | undefined): Preferences {
  const prefs: Record<string, string> = {}
  for (const token of (header ?? '').split(',')) {
    const [k, v] = token.split('=').map((x) => x.trim())
    if (k && v && k in PREFERENCE_VALUES && PREFERENCE_VALUES[k as keyof Preferences].includes(v)) prefs[k] = v
  }
  return prefs as Preferences
}

/** `Range: 0-9` (or `items=0-9`): first and last row, the last open when omitted. A malformed header is ignored. */
export function parseRangeHeader(header: string | undefined): { from: number; to?: number } | undefined {
  if (!header) return undefined
  const m = /^\s*(?:items=)?(\d{1,15})-(\d{0,15})\s*$/.exec(header)
  if (!m) return undefined
  const from = Number(m[1])
  const to = m[2] === '' ? undefined : Number(m[2])
  if (to !== undefined && to < from) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', { details: `The range ${header.trim()} ends before it starts` })
  }
  return { from, to }
}

/**
 * The rows a read returns: the intersection of the Range header and limit/offset (PostgREST's rule).
 * `limit` undefined = no limit.
 */
export function effectiveRange(range: { from: number; to?: number } | undefined, limit?: number, offset?: number) {
  const lower = Math.max(range?.from ?? 0, offset ?? 0)
  const uppers = [range?.to, limit !== undefined ? (offset ?? 0) + limit - 1 : undefined].filter((x): x is number => x !== undefined)
  const upper = uppers.length ? Math.min(...uppers) : undefined
  return { offset: lower, limit: upper === undefined ? undefined : Math.max(0, upper - lower + 1) }
}

export type ResultFormat = 'array' | 'object'

/** The answer's media type from Accept: a JSON array (default), or one object (vnd.pgrst.object+json). */
export function parseAccept(header: string | undefined, extra: readonly string[] = []): ResultFormat | 'openapi' {
  if (!header || header.trim() === '') return 'array'
  for (const part of header.split(',')) {
    const type = part.split(';')[0].trim().toLowerCase()
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return 'object'
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'array'
    if (extra.includes(type)) return 'openapi'
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${header}`, {
    hint: 'This endpoint answers application/json and application/vnd.pgrst.object+json',
  })
}
