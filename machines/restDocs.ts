/**
 * The API docs' view of a project's REST schema (the OpenAPI 2 document of GET /platform/projects/{ref}/api/rest),
 * by the rules of spec 3:
 *  - every definition is a table or view (name, fields); a field has name, format, type, description, required;
 *  - a JSON or JSONB column without a declared type shows as json;
 *  - a description is cut before PostgREST's generated primary-key / foreign-key note ('No description available'
 *    is the view's business when nothing is left);
 *  - every path containing /rpc is a stored procedure (path, name), sorted by name, with its parameters — from
 *    get.parameters when the function has a GET (STABLE or IMMUTABLE), else from the POST body's schema (VOLATILE) —
 *    and its summary (post.summary).
 * Views are told apart by the document's `x-kind`; a relation is writable where its path offers POST / PATCH / DELETE.
 * Pure functions: the machine derives these once per schema it reads (each table's fields on first reading);
 * views and snippets only render them.
 */
import type { RestSchemaResponse } from '../src/contracts/rest'

export interface DocField {
  name: string
  /** The Postgres type as PostgREST reports it ('bigint', 'text', 'jsonb', 'public.difficulty' …). */
  format: string
  /** The JSON type ('integer', 'string', 'boolean', 'number', 'array', 'json' …); '' when the document gives none. */
  type: string
  /** The column's own comment, without PostgREST's key notes; null when there is none. */
  description: string | null
  required: boolean
  /** The labels of an enum column, in order (absent when the column is no enum). */
  enum?: string[]
  /** Whether the column has a default (the database fills it when an insert leaves it out). */
  hasDefault?: boolean
}

export interface DocTable {
  name: string
  kind: 'table' | 'view'
  /** The document's x-kind as given ('table', 'view', 'materialized_view', 'foreign_table', …). */
  rawKind: string
  description: string | null
  fields: DocField[]
  /** What the REST path offers: POST / PATCH / DELETE. A view gets write snippets only where these are true. */
  insertable: boolean
  updatable: boolean
  deletable: boolean
}

export interface DocParameter {
  name: string
  format: string
  type: string
  required: boolean
}

export interface DocFunction {
  name: string
  /** '/rpc/<name>' as in the document. */
  path: string
  summary: string | null
  description: string | null
  parameters: DocParameter[]
  /** True when the function has a GET (STABLE / IMMUTABLE): it may be called with GET and query parameters. */
  hasGet: boolean
}

export interface RestDocs {
  tables: DocTable[]
  functions: DocFunction[]
}

const KEY_NOTE = /(?:\n\s*)*Note:\nThis is a (?:Primary|Foreign) Key[\s\S]*$/

/** A column or table comment without PostgREST's generated key notes; null when nothing is left. */
export function cleanDescription(description: string | undefined): string | null {
  if (description === undefined) return null
  const cut = description.replace(KEY_NOTE, '').trim()
  return cut === '' ? null : cut
}

const JSON_FORMATS = new Set(['json', 'jsonb'])

/** The type a field shows: its declared JSON type; json for a JSON/JSONB column without one; '' otherwise. */
export function fieldType(property: { type?: string; format?: string }): string {
  if (property.type) return property.type
  if (property.format && JSON_FORMATS.has(property.format)) return 'json'
  return ''
}

type Operation = { parameters?: unknown; summary?: unknown; description?: unknown }

const asOperation = (value: unknown): Operation | undefined =>
  value !== null && typeof value === 'object' ? (value as Operation) : undefined

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

function parametersOf(item: Record<string, unknown>): DocParameter[] {
  const get = asOperation(item.get)
  if (get && Array.isArray(get.parameters)) {
    return get.parameters
      .filter((p): p is Record<string, unknown> => p !== null && typeof p === 'object' && typeof (p as { name?: unknown }).name === 'string')
      .filter((p) => p.in === undefined || p.in === 'query')
      .map((p) => ({
        name: p.name as string,
        format: str(p.format) ?? '',
        type: fieldType({ type: str(p.type) ?? undefined, format: str(p.format) ?? undefined }),
        required: p.required === true,
      }))
  }
  const post = asOperation(item.post)
  const bodyParam = Array.isArray(post?.parameters)
    ? (post.parameters as unknown[]).find((p) => p !== null && typeof p === 'object' && (p as { in?: unknown }).in === 'body')
    : undefined
  const schema = (bodyParam as { schema?: { properties?: Record<string, { type?: string; format?: string }>; required?: string[] } } | undefined)?.schema
  const required = new Set(schema?.required ?? [])
  return Object.entries(schema?.properties ?? {}).map(([name, p]) => ({
    name,
    format: p.format ?? '',
    type: fieldType(p),
    required: required.has(name),
  }))
}

type Definition = RestSchemaResponse['definitions'][string]

function fieldsOf(def: Definition): DocField[] {
  const required = new Set(def.required ?? [])
  return Object.entries(def.properties).map(([field, p]) => ({
    name: field,
    format: p.format ?? '',
    type: fieldType(p),
    description: cleanDescription(p.description),
    required: required.has(field),
    ...(Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string') ? { enum: p.enum as string[] } : {}),
    hasDefault: p.default !== undefined,
  }))
}

/**
 * The docs of a schema. A table's fields are derived when first read (its page, its snippets), not for all tables at
 * once: the list of 1,000 tables needs only their names, kinds and descriptions.
 */
export function docsFromRestSchema(schema: RestSchemaResponse): RestDocs {
  const tables: DocTable[] = Object.entries(schema.definitions).map(([name, def]) => {
    const item = schema.paths[`/${name}`] ?? {}
    const rawKind = def['x-kind'] ?? 'table'
    return {
      name,
      kind: rawKind === 'view' || rawKind === 'materialized_view' ? 'view' : 'table',
      rawKind,
      description: cleanDescription(def.description),
      get fields() {
        const fields = fieldsOf(def)
        Object.defineProperty(this, 'fields', { value: fields, enumerable: true })
        return fields
      },
      insertable: 'post' in item,
      updatable: 'patch' in item,
      deletable: 'delete' in item,
    }
  })
  const functions: DocFunction[] = Object.entries(schema.paths)
    .filter(([path]) => path.includes('/rpc'))
    .map(([path, item]) => {
      const post = asOperation(item.post)
      const get = asOperation(item.get)
      return {
        name: path.replace(/^.*\/rpc\//, ''),
        path,
        summary: str(post?.summary) ?? str(get?.summary),
        description: str(post?.description) ?? str(get?.description),
        parameters: parametersOf(item),
        hasGet: get !== undefined,
      }
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { tables, functions }
}
