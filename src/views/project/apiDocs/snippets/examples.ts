/**
 * Example values for the snippets, chosen by a column's (or argument's) JSON type and Postgres format, and the
 * columns each kind of snippet shows. Two variants of each value, so that a list (`in`) or two inserted rows
 * differ in every column (a unique column takes both).
 */
import type { DocField } from '../../../../../machines/restDocs'
import type { Json } from './quote'

export type Variant = 1 | 2

/** The example file of the storage snippets, in a folder of the bucket. */
export const STORAGE_EXAMPLE_PATH = 'folder/avatar1.png'
/** The example e-mail, phone number, password and one-time code of the auth snippets. */
export const AUTH_EXAMPLES = {
  email: 'someone@email.com',
  newEmail: 'new@email.com',
  password: 'example-password',
  phone: '+13334445555',
  otp: '123456',
  /** Where a snippet needs a signed-in user's access token (the answer of a login). */
  userToken: 'USER_TOKEN',
} as const

/** What the docs know of a column or an argument. */
export interface Typed {
  name: string
  type: string
  format: string
  /** An enum column's labels: its examples are labels. */
  enum?: string[]
}

const TEXT_FORMATS = new Set(['text', 'character varying', 'varchar', 'citext', 'name', 'bpchar'])
const INTEGER_FORMATS = new Set(['int32', 'int64', 'integer', 'bigint', 'smallint', 'int', 'int2', 'int4', 'int8'])
const NUMBER_FORMATS = new Set(['numeric', 'real', 'double precision', 'float4', 'float8', 'decimal'])

export const isTextLike = (f: Typed) => f.type === 'string' && TEXT_FORMATS.has(f.format)
export const isNumeric = (f: Typed) => f.type === 'integer' || f.type === 'number'
const isDateLike = (f: Typed) => f.type === 'string' && (f.format === 'date' || f.format.startsWith('timestamp'))
/** A column a simple filter (eq, in, is) applies to: not an array, not JSON. */
export const isScalar = (f: Typed) => ['integer', 'number', 'boolean', 'string'].includes(f.type)

/** A value of a Postgres type given by its format (an array's element type, or a column whose JSON type is a string). */
function byFormat(format: string, variant: Variant): Json {
  if (INTEGER_FORMATS.has(format)) return variant
  if (NUMBER_FORMATS.has(format)) return variant + 0.5
  if (format === 'boolean' || format === 'bool') return variant === 1
  if (format === 'json' || format === 'jsonb') return {}
  switch (format) {
    case 'uuid':
      return `00000000-0000-0000-0000-00000000000${variant}`
    case 'timestamp with time zone':
      return `2024-01-0${variant}T00:00:00+00:00`
    case 'timestamp without time zone':
      return `2024-01-0${variant}T00:00:00`
    case 'date':
      return `2024-01-0${variant}`
    case 'time with time zone':
    case 'time without time zone':
      return `12:00:0${variant}`
    case 'interval':
      return variant === 1 ? '1 day' : '2 days'
    case 'inet':
    case 'cidr':
      return `192.168.0.${variant}`
    case 'macaddr':
      return `08:00:2b:01:02:0${variant}`
    case 'character':
    case 'char':
      return variant === 1 ? 'a' : 'b'
    case 'bytea':
      return `\\x0${variant}`
    case 'money':
      return `${variant}.00`
    case 'xml':
      return `<example n="${variant}"/>`
    default:
      // Text, and types the document tells nothing more of (enums, domains …): a word.
      return variant === 1 ? 'example' : 'example 2'
  }
}

/** An example value for a column or an argument. */
export function exampleValue(field: Typed, variant: Variant = 1): Json {
  if (field.enum && field.enum.length > 0) return field.enum[Math.min(variant, field.enum.length) - 1]
  switch (field.type) {
    case 'integer':
      return variant
    case 'number':
      return variant + 0.5
    case 'boolean':
      return variant === 1
    case 'json':
      return {}
    case 'array': {
      const element = field.format.endsWith('[]') ? field.format.slice(0, -2) : 'text'
      return [byFormat(element, variant)]
    }
    default:
      return byFormat(field.format, variant)
  }
}

/** The lower and upper bound of a range filter on a numeric or date column (wide enough to match rows). */
export function rangeBounds(field: Typed): [Json, Json] {
  if (isNumeric(field)) return [0, 100]
  if (field.format === 'date') return ['2000-01-01', '2099-12-31']
  if (field.format === 'timestamp without time zone') return ['2000-01-01T00:00:00', '2099-12-31T23:59:59']
  return ['2000-01-01T00:00:00+00:00', '2099-12-31T23:59:59+00:00']
}

const FILLED_TIMESTAMPS = new Set(['created_at', 'updated_at', 'inserted_at'])

/**
 * A column the database fills in itself, left out of insert and update examples: one with a default in the REST
 * schema, and — since the schema says nothing of identity columns — the platform's conventions (its table template):
 * a column named `id`, and `created_at` / `updated_at` / `inserted_at` timestamps.
 */
export function looksGenerated(field: DocField): boolean {
  return field.hasDefault === true || field.name === 'id' || (FILLED_TIMESTAMPS.has(field.name) && field.format.startsWith('timestamp'))
}

/** The columns an insert example sets: every required one the database does not fill, topped up to two. */
export function insertFields(fields: DocField[]): DocField[] {
  const writable = fields.filter((f) => !looksGenerated(f))
  const chosen = writable.filter((f) => f.required)
  for (const f of writable) {
    if (chosen.length >= 2) break
    if (!chosen.includes(f)) chosen.push(f)
  }
  return writable.filter((f) => chosen.includes(f))
}

/** The column an equality or list filter (and the update / delete examples) match on: the first scalar column. */
export const keyField = (fields: DocField[]) => fields.find(isScalar)

/** The column an update example sets: a text column other than the key when there is one. */
export function updateField(fields: DocField[], key: DocField | undefined): DocField | undefined {
  const candidates = fields.filter((f) => f !== key && !looksGenerated(f))
  return candidates.find(isTextLike) ?? candidates[0] ?? key
}

/** The columns of the filter examples; undefined where the table has no column of that kind. */
export function filterFields(fields: DocField[]) {
  const numeric = fields.filter(isNumeric)
  return {
    equal: fields.find(isTextLike) ?? fields.find(isScalar),
    range: numeric.find((f) => f.name !== 'id') ?? fields.find(isDateLike) ?? numeric[0],
    pattern: fields.find(isTextLike),
    list: keyField(fields),
    nullable: fields.find((f) => !f.required && isScalar(f)),
  }
}
