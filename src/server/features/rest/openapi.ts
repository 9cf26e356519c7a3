/**
 * The OpenAPI (Swagger 2.0) document of a project's REST API, shaped as PostgREST generates it from the schema
 * cache: a definition per relation (types, formats, defaults, enums, lengths, the primary/foreign key notes in
 * descriptions), a path per relation with post/patch/delete only where the role may write, a path per function
 * with GET only for STABLE/IMMUTABLE ones and a POST body schema for all. Two additions the platform's document
 * lacks: `x-kind` on each definition (table, view, materialized_view, …), so a client can tell views from tables,
 * and the named arguments of every function in its POST body (VOLATILE ones included).
 */
import type { ColumnInfo, FunctionArg, FunctionInfo, SchemaCatalog, SchemaRelation, TypeInfo } from './catalog'

/** The PostgREST release whose behaviour this endpoint follows. */
export const POSTGREST_VERSION = '12.2.0'

type Json = Record<string, unknown>

export interface OpenApiDocument {
  swagger: '2.0'
  info: { title: string; description: string; version: string }
  host: string
  basePath: string
  schemes: string[]
  consumes: string[]
  produces: string[]
  paths: Record<string, Record<string, unknown>>
  definitions: Record<string, { type: 'object'; description?: string; required?: string[]; properties: Record<string, Json>; 'x-kind': string }>
  parameters: Record<string, Json>
}

// PostgREST also lists text/csv; this endpoint does not answer CSV, so the document does not offer it.
const MEDIA = ['application/json', 'application/vnd.pgrst.object+json']
/** Query parameters of a read that a column's filter would collide with (Swagger wants unique name+in). */
const RESERVED_QUERY = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns', 'or', 'and'])

/** A JSON pointer token inside a URI fragment: `~` and `/` escaped, then percent-encoded. */
const ref = (section: string, name: string) =>
  `#/${section}/${encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'))}`

function swaggerType(base: string, category: string): { type?: string; format?: string } {
  if (category === 'A') return { type: 'array' }
  switch (base) {
    case 'bool':
      return { type: 'boolean' }
    case 'int2':
    case 'int4':
      return { type: 'integer', format: 'int32' }
    case 'int8':
      return { type: 'integer', format: 'int64' }
    case 'numeric':
    case 'float4':
    case 'float8':
      return { type: 'number' }
    case 'json':
    case 'jsonb':
      return {}
    default:
      return { type: 'string' }
  }
}

/** type/format (and items of an array) of a column or an argument. */
function typeSchema(t: TypeInfo): Json {
  const { type, format } = swaggerType(t.base, t.category)
  const out: Json = {}
  if (type) out.type = type
  out.format = format ?? t.type
  if (type === 'array') {
    const elem = swaggerType(t.elem ?? 'text', '')
    out.items = elem.type ? { type: elem.type } : {}
  }
  return out
}

/** A column default as PostgREST prints it: a string literal without quotes and cast, a number or boolean as JSON. */
function defaultValue(col: ColumnInfo): unknown {
  const expr = col.default
  if (expr === null) return undefined
  const literal = /^'((?:[^']|'')*)'(?:::[\w\s."[\]]+)?$/s.exec(expr)
  if (literal) return literal[1].replace(/''/g, "'")
  const { type } = swaggerType(col.base, col.category)
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(expr)) return Number(expr)
  if (type === 'boolean' && (expr === 'true' || expr === 'false')) return expr === 'true'
  return expr
}

function columnDescription(col: ColumnInfo): string | undefined {
  const notes = [
    ...(col.primaryKey ? ['This is a Primary Key.<pk/>'] : []),
    ...col.foreignKeys.map((fk) => `This is a Foreign Key to \`${fk.table}.${fk.column}\`.<fk table='${fk.table}' column='${fk.column}'/>`),
  ]
  if (notes.length === 0) return col.comment ?? undefined
  const note = `Note:\n${notes.join('\n')}`
  return col.comment ? `${col.comment}\n\n${note}` : note
}

function property(col: ColumnInfo): Json {
  const out = typeSchema(col)
  const description = columnDescription(col)
  if (description !== undefined) out.description = description
  const def = defaultValue(col)
  if (def !== undefined) out.default = def
  if (col.enum) out.enum = col.enum
  if (col.maxLength !== null) out.maxLength = col.maxLength
  return out
}

function definition(rel: SchemaRelation): OpenApiDocument['definitions'][string] {
  const required = rel.columns.filter((c) => !c.nullable).map((c) => c.name)
  return {
    type: 'object',
    ...(rel.comment ? { description: rel.comment } : {}),
    // JSON Schema (draft 4, Swagger 2.0's) wants a non-empty `required` or none.
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(rel.columns.map((c) => [c.name, property(c)])),
    'x-kind': rel.kind,
  }
}

function summaryOf(comment: string | null): Json {
  if (!comment) return {}
  const [first, ...rest] = comment.split('\n')
  const description = rest.join('\n').trim()
  return { summary: first, ...(description ? { description } : {}) }
}

function relationPath(rel: SchemaRelation): Record<string, unknown> {
  const tags = [rel.name]
  const meta = summaryOf(rel.comment)
  const filters = rel.columns
    .filter((c) => !RESERVED_QUERY.has(c.name))
    .map((c) => ({ $ref: ref('parameters', `rowFilter.${rel.name}.${c.name}`) }))
  const item: Record<string, unknown> = {
    get: {
      tags,
      ...meta,
      parameters: [
        ...filters,
        ...['select', 'order', 'range', 'rangeUnit', 'offset', 'limit', 'preferCount'].map((p) => ({ $ref: ref('parameters', p) })),
      ],
      responses: {
        200: { description: 'OK', schema: { type: 'array', items: { $ref: ref('definitions', rel.name) } } },
        206: { description: 'Partial Content' },
      },
    },
  }
  const body = { $ref: ref('parameters', `body.${rel.name}`) }
  if (rel.insertable) {
    item.post = {
      tags,
      ...meta,
      parameters: [body, { $ref: ref('parameters', 'select') }, { $ref: ref('parameters', 'preferPost') }],
      responses: { 201: { description: 'Created' } },
    }
  }
  if (rel.updatable) {
    item.patch = {
      tags,
      ...meta,
      parameters: [...filters, body, { $ref: ref('parameters', 'preferReturn') }],
      responses: { 204: { description: 'No Content' } },
    }
  }
  if (rel.deletable) {
    item.delete = {
      tags,
      ...meta,
      parameters: [...filters, { $ref: ref('parameters', 'preferReturn') }],
      responses: { 204: { description: 'No Content' } },
    }
  }
  return item
}

/** Overloads share one path: the union of their named arguments, required only where every overload needs it. */
function functionPath(overloads: FunctionInfo[]): Record<string, unknown> {
  const name = overloads[0].name
  const tags = [`(rpc) ${name}`]
  const comment = overloads.find((f) => f.comment)?.comment ?? null
  const args = new Map<string, FunctionArg>()
  const requiredBy = new Map<string, number>()
  let unnamed = 0
  for (const fn of overloads) {
    for (const arg of fn.inArgs) {
      if (arg.name === '') {
        unnamed++
        continue
      }
      if (!args.has(arg.name)) args.set(arg.name, arg)
      if (!arg.hasDefault) requiredBy.set(arg.name, (requiredBy.get(arg.name) ?? 0) + 1)
    }
  }
  const required = [...args.keys()].filter((a) => requiredBy.get(a) === overloads.length)
  const meta = summaryOf(comment)
  if (unnamed) {
    const note = 'Unnamed arguments are not exposed: the REST API passes arguments by name.'
    meta.description = meta.description ? `${meta.description as string}\n\n${note}` : note
  }
  const properties = Object.fromEntries([...args].map(([n, a]) => [n, typeSchema(a)]))
  const item: Record<string, unknown> = {
    post: {
      tags,
      ...meta,
      parameters: [
        {
          name: 'args',
          in: 'body',
          required: true,
          schema: { type: 'object', ...(required.length ? { required } : {}), properties },
        },
        { $ref: ref('parameters', 'preferParams') },
      ],
      produces: ['application/json', 'application/vnd.pgrst.object+json'],
      responses: { 200: { description: 'OK' } },
    },
  }
  if (overloads.every((f) => f.volatility !== 'v')) {
    item.get = {
      tags,
      ...meta,
      parameters: [...args].map(([n, a]) => {
        const t = typeSchema(a)
        // A query parameter is a scalar: arrays and JSON travel as text.
        const scalar = t.type && t.type !== 'array' ? (t.type as string) : 'string'
        return { name: n, in: 'query', required: required.includes(n), type: scalar, format: t.format }
      }),
      produces: ['application/json', 'application/vnd.pgrst.object+json'],
      responses: { 200: { description: 'OK' } },
    }
  }
  return item
}

const SHARED_PARAMETERS: Record<string, Json> = {
  preferParams: { name: 'Prefer', description: 'Preference', required: false, enum: ['params=single-object'], in: 'header', type: 'string' },
  preferReturn: {
    name: 'Prefer',
    description: 'Preference',
    required: false,
    enum: ['return=representation', 'return=minimal', 'return=headers-only'],
    in: 'header',
    type: 'string',
  },
  preferCount: { name: 'Prefer', description: 'Preference', required: false, enum: ['count=exact', 'count=planned', 'count=estimated'], in: 'header', type: 'string' },
  preferPost: {
    name: 'Prefer',
    description: 'Preference',
    required: false,
    enum: ['return=representation', 'return=minimal', 'return=headers-only', 'resolution=ignore-duplicates', 'resolution=merge-duplicates'],
    in: 'header',
    type: 'string',
  },
  select: { name: 'select', description: 'Filtering Columns', required: false, in: 'query', type: 'string' },
  on_conflict: { name: 'on_conflict', description: 'On Conflict', required: false, in: 'query', type: 'string' },
  order: { name: 'order', description: 'Ordering', required: false, in: 'query', type: 'string' },
  range: { name: 'Range', description: 'Limiting and Pagination', required: false, in: 'header', type: 'string' },
  rangeUnit: { name: 'Range-Unit', description: 'Limiting and Pagination', required: false, default: 'items', in: 'header', type: 'string' },
  offset: { name: 'offset', description: 'Limiting and Pagination', required: false, in: 'query', type: 'string' },
  limit: { name: 'limit', description: 'Limiting and Pagination', required: false, in: 'query', type: 'string' },
}

export interface DocumentTarget {
  /** host[:port] of the server's own origin. */
  host: string
  /** The REST API's path on it: /p/{ref}/rest/v1 */
  basePath: string
  scheme: 'http' | 'https'
}

export function buildOpenApi(catalog: SchemaCatalog, target: DocumentTarget): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {
    '/': {
      get: {
        tags: ['Introspection'],
        summary: 'OpenAPI description (this document)',
        produces: ['application/openapi+json', 'application/json'],
        responses: { 200: { description: 'OK' } },
      },
    },
  }
  const definitions: OpenApiDocument['definitions'] = {}
  const parameters: OpenApiDocument['parameters'] = { ...SHARED_PARAMETERS }
  for (const rel of catalog.relations) {
    definitions[rel.name] = definition(rel)
    paths[`/${rel.name}`] = relationPath(rel)
    parameters[`body.${rel.name}`] = {
      name: rel.name,
      description: rel.name,
      required: false,
      in: 'body',
      schema: { $ref: ref('definitions', rel.name) },
    }
    for (const col of rel.columns) {
      const t = typeSchema(col)
      parameters[`rowFilter.${rel.name}.${col.name}`] = {
        name: col.name,
        ...(columnDescription(col) ? { description: columnDescription(col) } : {}),
        required: false,
        in: 'query',
        type: 'string',
        format: t.format,
      }
    }
  }
  const byName = new Map<string, FunctionInfo[]>()
  for (const fn of catalog.functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn])
  for (const [name, overloads] of byName) paths[`/rpc/${name}`] = functionPath(overloads)

  const [title, ...rest] = (catalog.schemaComment ?? '').split('\n')
  return {
    swagger: '2.0',
    info: {
      title: title || 'PostgREST API',
      description: rest.join('\n').trim() || 'A PostgREST-compatible API generated from the schema public',
      version: POSTGREST_VERSION,
    },
    host: target.host,
    basePath: target.basePath,
    schemes: [target.scheme],
    consumes: MEDIA,
    produces: MEDIA,
    paths,
    definitions,
    parameters,
  }
}
