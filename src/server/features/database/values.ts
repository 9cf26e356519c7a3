/**
 * Row values as JSON, the way Postgres prints them. The rows of a query are read as the text of `row_to_json(row)`,
 * made by Postgres (timestamps with their microseconds and offset, bytea as `\x…`, json as JSON), and parsed here
 * without losing a digit: a number that a JavaScript number holds exactly stays a number, any other (a bigint past
 * 2^53, a numeric with 30 digits) becomes the string Postgres printed; numeric and money columns are always that
 * string, as the Postgres drivers give them, so 1.10 stays '1.10'.
 * `plainValue` is the fallback for the few statements whose rows cannot be read that way (see run.ts): it turns a
 * driver's values (bigint, Date, bytes) into JSON without throwing.
 */
import { isSafeNumber, parse } from 'lossless-json'

/** Type oids whose values are decimal text: numeric, numeric[], money, money[]. */
const DECIMAL_TYPES = new Set([1700, 1231, 790, 791])

class Decimal {
  constructor(readonly text: string) {}
}

/** Numbers kept as their text until the column's type is known; a repeated key keeps its last value, as drivers do. */
const PARSE_OPTIONS = {
  parseNumber: (text: string) => new Decimal(text),
  onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue,
}

function settle(value: unknown, decimalsAsText: boolean): unknown {
  if (value instanceof Decimal) {
    return !decimalsAsText && isSafeNumber(value.text) ? Number(value.text) : value.text
  }
  if (Array.isArray(value)) return value.map((v) => settle(v, decimalsAsText))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = settle(v, decimalsAsText)
    return out
  }
  return value
}

/** One row from the JSON text Postgres made of it (`row_to_json(r)::text`), given its decimal columns. */
export function rowFromJson(text: string, decimalColumns: ReadonlySet<string>): Record<string, unknown> {
  const raw = parse(text, null, PARSE_OPTIONS) as Record<string, unknown>
  const row: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(raw)) row[name] = settle(value, decimalColumns.has(name))
  return row
}

/** The names of the columns whose values are decimal text (numeric, money and their arrays). */
export function decimalColumnNames(fields: readonly { name: string; dataTypeID: number }[]): Set<string> {
  return new Set(fields.filter((f) => DECIMAL_TYPES.has(f.dataTypeID)).map((f) => f.name))
}

/** A driver's value as JSON: bigint beyond 2^53 as its digits, dates as ISO text, bytes as Postgres's `\x` hex. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString()
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString()
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  if (Array.isArray(value)) return value.map(plainValue)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = plainValue(v)
    return out
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return value
}

/** int8 and int8[]: the `pg` driver gives their values as text, PGlite as bigint. */
const INT8_TYPES = new Set([20, 1016])

/** An int8 the driver gave as text, as a number when a JavaScript number holds it exactly. */
function int8Value(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(int8Value)
  return typeof value === 'string' && /^-?\d+$/.test(value) ? plainValue(BigInt(value)) : plainValue(value)
}

/** A driver's row as JSON, whichever driver gave it (the fields name each column's type). */
export function plainRow(row: Record<string, unknown>, fields: readonly { name: string; dataTypeID: number }[]): Record<string, unknown> {
  const int8 = new Set(fields.filter((f) => INT8_TYPES.has(f.dataTypeID)).map((f) => f.name))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) out[k] = int8.has(k) ? int8Value(v) : plainValue(v)
  return out
}
