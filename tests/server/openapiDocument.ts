/**
 * The Management API's own OpenAPI 3.0 document (../shared/reference) as JSON-schema validators, without the test
 * runner: the contract tests (openapi.ts) and the read-coverage script (bench/v1-reads.ts) share it.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { repoRoot } from '../../src/server/config'

// Beside the repository; a worktree one level deeper (rooms/<name>) finds it one level further up.
const OPENAPI = ['../shared', '../../shared']
  .map((dir) => path.resolve(repoRoot, dir, 'reference/management-api.openapi.json'))
  .find((file) => existsSync(file)) ?? path.resolve(repoRoot, '../shared/reference/management-api.openapi.json')
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

export interface OpenApiOperation {
  operationId?: string
  parameters?: { name: string; in: string; required?: boolean }[]
  responses: Record<string, { content?: { 'application/json'?: { schema: unknown } } }>
}
export interface OpenApiDocument {
  components: { schemas: Record<string, unknown> }
  paths: Record<string, Record<string, OpenApiOperation>>
}

/**
 * OpenAPI 3.0 → JSON Schema: `nullable: true` becomes a union with null; the boolean `exclusiveMinimum` (and
 * `exclusiveMaximum`) of draft 4 becomes the number it qualifies.
 */
function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) if (k !== 'nullable') out[k] = convert(v)
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[exclusive] !== 'boolean') continue
    if (out[exclusive] === true) out[exclusive] = out[bound]
    else delete out[exclusive]
    if (out[exclusive] !== undefined) delete out[bound]
  }
  if ((node as { nullable?: boolean }).nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else return { anyOf: [out, { type: 'null' }] }
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null]
  }
  return out
}

/** Local `#/components/...` references made to point into the document registered as 'openapi'. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase)
  if (!node || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v)]),
  )
}

let cached: { doc: OpenApiDocument; ajv: Ajv } | null = null
export function openApi() {
  if (cached) return cached
  const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as OpenApiDocument
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'openapi', components: convert(doc.components) })
  cached = { doc, ajv }
  return cached
}

/** The validator of one component schema, e.g. 'V1ProjectWithDatabaseResponse'. */
export function validatorFor(schemaName: string): ValidateFunction {
  const validate = openApi().ajv.getSchema(`openapi#/components/schemas/${schemaName}`)
  if (!validate) throw new Error(`no schema ${schemaName}`)
  return validate
}

/** The validator of a path's response body, as the document states it (e.g. an array of ApiKeyResponse). */
export function responseValidator(apiPath: string, method = 'get', status = '200'): ValidateFunction {
  const { doc, ajv } = openApi()
  const schema = doc.paths[apiPath]?.[method]?.responses[status]?.content?.['application/json']?.schema
  if (!schema) throw new Error(`no ${status} JSON response for ${method.toUpperCase()} ${apiPath}`)
  return ajv.compile(rebase(convert(schema)) as object)
}
