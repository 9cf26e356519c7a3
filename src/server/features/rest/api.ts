/**
 * One REST request against a project's database, independent of HTTP plumbing (routes.ts adapts Hono to it):
 * the OpenAPI document at the root, reads and writes of a relation of an exposed schema (public unless said), and function calls under
 * rpc/. Each request is one transaction as the key's role (read-only for reads and STABLE/IMMUTABLE functions),
 * its catalog lookups inside it. Answers and errors follow PostgREST: statuses, Content-Range, Location,
 * Preference-Applied, and `{ code, message, details, hint }` bodies.
 */
import type { DbRole, ProjectTx, TransactionOptions } from '../../projectdb/types'
import { findFunctions, findRelation, introspect, relationKind, type FunctionInfo, type RelationInfo } from './catalog'
import { RestError, toRestError } from './errors'
import { buildOpenApi, type DocumentTarget } from './openapi'
import {
  effectiveRange,
  parseAccept,
  parseColumns,
  parseConditions,
  parseNonNegative,
  parseOrder,
  parsePrefer,
  parseRangeHeader,
  parseSelect,
  RESERVED_PARAMS,
  type Condition,
  type OrderTerm,
  type Preferences,
  type ResultFormat,
  type SelectItem,
} from './query'
import { callSourceSql, deleteSql, insertSql, Params, readSql, relationSql, updateSql, type CallArg, type Returning, type Statement } from './sql'

export type RestTarget = { kind: 'root' } | { kind: 'relation'; name: string } | { kind: 'rpc'; name: string }

export interface RestRequest {
  method: string
  target: RestTarget
  query: URLSearchParams
  /** Lower-case header names. */
  headers: (name: string) => string | undefined
  /** The raw body text ('' when none). */
  body: string
}

export interface RestResponse {
  status: number
  headers: Record<string, string>
  body: string | null
}

export interface RestContext {
  role: DbRole
  claims: Record<string, unknown>
  /** One transaction on the project's database (ProjectDatabases.transaction bound to the project). */
  transaction<T>(opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T>
  document: DocumentTarget
  /** The most rows a read answers (REST_MAX_ROWS, PostgREST's db-max-rows); undefined or 0: no cap. */
  maxRows?: number
  /** The schemas exposed (PostgREST's db-schemas); undefined: public. */
  schemas?: string[]
  /** The one this request is served from (handleRest sets it from the profile headers). */
  schema?: string
}

const JSON_TYPE = 'application/json; charset=utf-8'
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8'

export function errorResponse(err: RestError): RestResponse {
  return { status: err.status, headers: { 'content-type': JSON_TYPE, ...err.headers }, body: JSON.stringify(err.body()) }
}

export async function handleRest(req: RestRequest, ctx: RestContext): Promise<RestResponse> {
  try {
    const served = { ...ctx, schema: checkProfile(req, ctx.schemas ?? ['public']) }
    const res =
      req.target.kind === 'root'
        ? await root(req, served)
        : req.target.kind === 'rpc'
          ? await rpc(req, served, req.target.name)
          : await relation(req, served, req.target.name)
    // With more than one schema exposed, PostgREST says which one answered.
    return (ctx.schemas?.length ?? 1) > 1 ? { ...res, headers: { ...res.headers, 'content-profile': served.schema } } : res
  } catch (err) {
    return errorResponse(toRestError(err, ctx.role))
  }
}

/**
 * The schema a request is served from: one of the exposed schemas, named by Accept-Profile on reads and
 * Content-Profile on writes; without one, the first exposed schema, as PostgREST.
 */
function checkProfile(req: RestRequest, schemas: string[]): string {
  const read = req.method === 'GET' || req.method === 'HEAD'
  const profile = req.headers(read ? 'accept-profile' : 'content-profile')
  const asked = profile?.trim() ?? schemas[0]
  if (asked === undefined || !schemas.includes(asked)) {
    throw new RestError(406, 'PGRST106', `The schema must be one of the following: ${schemas.join(', ')}`, {
      details: profile === undefined ? 'No schema is exposed' : `The ${read ? 'Accept' : 'Content'}-Profile header asked for "${profile}"`,
    })
  }
  return asked
}

function methodNotAllowed(method: string, allowed: string): RestError {
  return new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, {
    hint: `This resource answers ${allowed}`,
    headers: { allow: allowed },
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The OpenAPI document

async function root(req: RestRequest, ctx: RestContext): Promise<RestResponse> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, 'GET, HEAD')
  parseAccept(req.headers('accept'), ['application/openapi+json'])
  const catalog = await ctx.transaction({ role: ctx.role, claims: ctx.claims, readOnly: true }, (t) => introspect(t, ctx.schema))
  const body = JSON.stringify(buildOpenApi(catalog, ctx.document))
  return { status: 200, headers: { 'content-type': 'application/openapi+json; charset=utf-8' }, body: req.method === 'HEAD' ? null : body }
}

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces

interface AggregateRow {
  page_count: string
  body: string | null
  total?: string
  relkind?: string | null
}

/** Tables, views, materialized views, foreign and partitioned tables. */
const SERVED_RELKINDS = new Set(['r', 'v', 'm', 'f', 'p'])

async function runStatement(tx: ProjectTx, statement: Statement): Promise<AggregateRow> {
  const { rows } = await tx.query<AggregateRow>(statement.sql, statement.params)
  return rows[0]
}

function notSingle(rows: number): RestError {
  return new RestError(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', {
    details: `The result contains ${rows} rows`,
  })
}

function contentRange(lower: number, rows: number, total: number | undefined): string {
  const of = total === undefined ? '*' : String(total)
  return rows > 0 ? `${lower}-${lower + rows - 1}/${of}` : `*/${of}`
}

function preferenceApplied(applied: string[]): Record<string, string> {
  return applied.length ? { 'preference-applied': applied.join(', ') } : {}
}

/**
 * The answer of a read (a relation's rows or a function's): Content-Range, and PostgREST's status rule — with a
 * known total (Prefer: count=exact), 206 when the page holds fewer rows than the total and 416 when it starts
 * past the end; without one the total is `*` and the answer 200.
 */
function readAnswer(
  row: AggregateRow,
  opts: { offset: number; format: ResultFormat; head: boolean; counted: boolean; objectAlways?: boolean },
): RestResponse {
  const rows = Number(row.page_count)
  const total = row.total !== undefined ? Number(row.total) : undefined
  if ((opts.format === 'object' || opts.objectAlways) && rows !== 1) throw notSingle(rows)
  let status = 200
  if (total !== undefined) {
    if (opts.offset > total) {
      throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', {
        details: `An offset of ${opts.offset} was requested, but there are only ${total} rows.`,
      })
    }
    if (rows < total) status = 206
  }
  return {
    status,
    headers: {
      'content-type': opts.format === 'object' || opts.objectAlways ? OBJECT_TYPE : JSON_TYPE,
      'content-range': contentRange(opts.offset, rows, total),
      ...preferenceApplied(opts.counted ? ['count=exact'] : []),
    },
    body: opts.head ? null : (row.body ?? (opts.format === 'object' ? 'null' : '[]')),
  }
}

interface Paging {
  offset: number
  limit?: number
}

/**
 * The rows a read asks for, capped at `maxRows` as PostgREST caps at db-max-rows: a LIMIT in the SQL, so the database
 * never builds a larger answer; Content-Range then tells the capped range (and with Prefer: count=exact the total).
 */
function paging(req: RestRequest, maxRows?: number): Paging {
  const limit = parseNonNegative('limit', req.query.get('limit') ?? undefined)
  const offset = parseNonNegative('offset', req.query.get('offset') ?? undefined)
  const range = req.method === 'GET' || req.method === 'HEAD' ? parseRangeHeader(req.headers('range')) : undefined
  const page = effectiveRange(range, limit, offset)
  if (maxRows && (page.limit === undefined || page.limit > maxRows)) page.limit = maxRows
  return page
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: 'The request has no body' })
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: (err as Error).message })
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// ---------------------------------------------------------------------------------------------------------------
// Relations: parse → plan → run → answer. Parsing checks every input that needs no catalog (in the order PostgREST
// reports them); planning makes the statement, from the catalog for a write; running is one transaction (a write
// reads the catalog and is planned inside it); the answer is status, headers and body.

function tableNotFound(name: string, schema = 'public'): RestError {
  return new RestError(404, 'PGRST205', `Could not find the table '${schema}.${name}' in the schema cache`, {
    hint: `Only tables, views and materialized views of schema ${schema} are served; check the name (and its case)`,
  })
}

async function lookupRelation(tx: ProjectTx, name: string, schema?: string): Promise<RelationInfo> {
  const rel = await findRelation(tx, name, schema)
  if (!rel) throw tableNotFound(name, schema)
  return rel
}

/** A write the relation cannot take (a view that is not updatable, a materialized view) is 405, not a 500. */
function checkWritable(rel: RelationInfo, method: 'POST' | 'PATCH' | 'DELETE'): void {
  const allowed = method === 'POST' ? rel.insertable : method === 'PATCH' ? rel.updatable : rel.deletable
  if (allowed) return
  const verb = method === 'POST' ? 'insert into' : method === 'PATCH' ? 'update' : 'delete from'
  throw new RestError(405, 'PGRST117', `Cannot ${verb} '${rel.name}': the ${rel.kind.replace('_', ' ')} does not take this write`, {
    hint: rel.kind === 'view' ? 'Only simple views are automatically updatable; others need INSTEAD OF triggers' : null,
  })
}

function checkColumns(rel: RelationInfo, columns: string[]): void {
  for (const col of columns) {
    if (!rel.columns.includes(col)) {
      throw new RestError(400, 'PGRST204', `Could not find the '${col}' column of '${rel.name}' in the schema cache`)
    }
  }
}

/** Writes take filters but no paging: a DELETE with limit=1 must not quietly delete every matching row. */
function refusePaging(req: RestRequest): void {
  for (const p of ['limit', 'offset', 'order']) {
    if (req.query.has(p)) {
      throw new RestError(400, 'PGRST100', `"${p}" is not supported on ${req.method}`, {
        hint: 'Narrow the rows with filters (for example on the primary key)',
      })
    }
  }
}

function returningFor(prefs: Preferences, select: SelectItem[], format: ResultFormat, rel: RelationInfo): Returning {
  if (prefs.return === 'representation') return { kind: 'rows', select, single: format === 'object' }
  if (prefs.return === 'headers-only') return { kind: 'keys', columns: rel.primaryKey }
  return { kind: 'count' }
}

function locationOf(rel: RelationInfo, keysJson: string | null): Record<string, string> {
  if (!keysJson || rel.primaryKey.length === 0) return {}
  const keys = JSON.parse(keysJson) as Record<string, unknown>
  const query = rel.primaryKey
    .map((k) => `${encodeURIComponent(k)}=eq.${encodeURIComponent(String(keys[k] === null ? 'null' : typeof keys[k] === 'object' ? JSON.stringify(keys[k]) : keys[k]))}`)
    .join('&')
  return { location: `/${encodeURIComponent(rel.name)}?${query}` }
}

/** What a request asks of a relation, its inputs parsed and checked (all but those that need the catalog). */
type RelationRequest =
  | { kind: 'read'; name: string; head: boolean; format: ResultFormat; select: SelectItem[]; where: Condition[]; order: OrderTerm[]; page: Paging; counted: boolean }
  | {
      kind: 'insert'
      name: string
      prefs: Preferences
      format: ResultFormat
      select: SelectItem[]
      columns: string[]
      /** The rows as a JSON array (a single object's body wrapped in one). */
      rowsJson: string
      /** The on_conflict parameter as given: its columns are checked against the catalog, so it is parsed in the plan. */
      onConflict: string | null
    }
  | { kind: 'update' | 'delete'; name: string; prefs: Preferences; format: ResultFormat; select: SelectItem[]; where: Condition[]; columns: string[]; rowJson: string }

type WriteRequest = Exclude<RelationRequest, { kind: 'read' }>

/** The statement a write runs, and what it answers with; or, for a PATCH of no column, the answer of nothing done. */
type WritePlan =
  | { kind: 'statement'; statement: Statement; returning: Returning; rel: RelationInfo; applied: string[] }
  | { kind: 'nothing'; row: AggregateRow; returning: Returning; rel: RelationInfo; applied: string[] }

/** What running a request found: the read's aggregate row, or the write's with what it was planned to return. */
type RelationOutcome = { kind: 'read'; row: AggregateRow } | { kind: 'write'; row: AggregateRow; returning: Returning; rel: RelationInfo; applied: string[] }

function parseRelationRequest(req: RestRequest, name: string, maxRows: number | undefined): RelationRequest {
  const prefs = parsePrefer(req.headers('prefer'))
  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      const format = parseAccept(req.headers('accept')) as ResultFormat
      const select = parseSelect(req.query.get('select') ?? undefined)
      const where = parseConditions(req.query)
      const order = parseOrder(req.query.get('order') ?? undefined)
      const page = paging(req, maxRows)
      return { kind: 'read', name, head: req.method === 'HEAD', format, select, where, order, page, counted: prefs.count !== undefined }
    }
    case 'POST': {
      const format = parseAccept(req.headers('accept')) as ResultFormat
      const select = parseSelect(req.query.get('select') ?? undefined)
      const body = parseJsonBody(req.body)
      const rowsList = Array.isArray(body) ? body : [body]
      if (!rowsList.every(isPlainObject)) {
        throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: 'The body must be a JSON object or an array of objects' })
      }
      const columnsParam = req.query.get('columns')
      let columns: string[]
      if (columnsParam !== null) {
        columns = parseColumns(columnsParam)
      } else {
        columns = rowsList.length ? Object.keys(rowsList[0]) : []
        const signature = [...columns].sort().join('\u0001')
        if (rowsList.some((r) => Object.keys(r).sort().join('\u0001') !== signature)) {
          throw new RestError(400, 'PGRST102', 'All object keys must match', {
            hint: 'Give every object the same keys, or list the columns in the columns query parameter',
          })
        }
      }
      const rowsJson = Array.isArray(body) ? req.body : `[${req.body}]`
      return { kind: 'insert', name, prefs, format, select, columns, rowsJson, onConflict: req.query.get('on_conflict') }
    }
    case 'PATCH':
    case 'DELETE': {
      refusePaging(req)
      const format = parseAccept(req.headers('accept')) as ResultFormat
      const select = parseSelect(req.query.get('select') ?? undefined)
      const where = parseConditions(req.query)
      let columns: string[] = []
      let rowJson = '{}'
      if (req.method === 'PATCH') {
        const body = parseJsonBody(req.body)
        if (!isPlainObject(body)) {
          throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: 'The body of a PATCH must be one JSON object' })
        }
        const columnsParam = req.query.get('columns')
        columns = columnsParam !== null ? parseColumns(columnsParam) : Object.keys(body)
        rowJson = req.body
      }
      return { kind: req.method === 'PATCH' ? 'update' : 'delete', name, prefs, format, select, where, columns, rowJson }
    }
    case 'PUT':
      throw new RestError(405, 'PGRST117', 'Unsupported HTTP method: PUT', {
        hint: 'Upsert with POST and Prefer: resolution=merge-duplicates',
        headers: { allow: 'GET, HEAD, POST, PATCH, DELETE' },
      })
    default:
      throw methodNotAllowed(req.method, 'GET, HEAD, POST, PATCH, DELETE')
  }
}

/** A read's statement: no catalog lookup first (a read is the hot path); the statement itself checks the relation. */
function planRead(request: Extract<RelationRequest, { kind: 'read' }>, schema?: string): Statement {
  const { name, select, where, order, page, format, counted, head } = request
  return readSql(relationSql(name, schema), { select, where, order, ...page, single: format === 'object', count: counted, withBody: !head, relation: name, schema })
}

/** A write's statement, from the relation as the catalog describes it (inside the write's transaction). */
function planWrite(request: WriteRequest, rel: RelationInfo, schema?: string): WritePlan {
  const method = request.kind === 'insert' ? 'POST' : request.kind === 'update' ? 'PATCH' : 'DELETE'
  checkWritable(rel, method)
  checkColumns(rel, request.columns)
  const applied: string[] = []
  if (request.kind === 'insert') {
    const { prefs, name } = request
    let conflict: { action: 'merge' | 'ignore'; target: string[] } | undefined
    if (prefs.resolution) {
      const target = request.onConflict !== null ? parseColumns(request.onConflict) : rel.primaryKey
      checkColumns(rel, target)
      if (prefs.resolution === 'merge-duplicates' && target.length === 0) {
        throw new RestError(400, 'PGRST100', `Upserting into '${name}' needs on_conflict: it has no primary key`)
      }
      conflict = { action: prefs.resolution === 'merge-duplicates' ? 'merge' : 'ignore', target }
      applied.push(`resolution=${prefs.resolution}`)
    }
    const returning = returningFor(prefs, request.select, request.format, rel)
    return { kind: 'statement', statement: insertSql({ relation: name, schema, columns: request.columns, rowsJson: request.rowsJson, conflict, returning }), returning, rel, applied }
  }
  const returning = returningFor(request.prefs, request.select, request.format, rel)
  if (request.kind === 'update' && request.columns.length === 0) {
    return { kind: 'nothing', row: { page_count: '0', body: returning.kind === 'rows' ? '[]' : null }, returning, rel, applied }
  }
  const statement =
    request.kind === 'update'
      ? updateSql({ relation: request.name, schema, columns: request.columns, rowJson: request.rowJson, where: request.where, returning })
      : deleteSql({ relation: request.name, schema, where: request.where, returning })
  return { kind: 'statement', statement, returning, rel, applied }
}

async function runRelation(ctx: RestContext, request: RelationRequest): Promise<RelationOutcome> {
  const tx = (readOnly: boolean) => <T>(fn: (tx: ProjectTx) => Promise<T>) => ctx.transaction({ role: ctx.role, claims: ctx.claims, readOnly }, fn)
  const { name } = request
  const { schema } = ctx
  if (request.kind === 'read') {
    // When the read fails, what failed is told apart afterwards: a name that is no served relation (a sequence the
    // role may not read, say) is a 404 like any unknown name, never a 403 that tells it exists.
    let row: AggregateRow
    try {
      row = await tx(true)((t) => runStatement(t, planRead(request, schema)))
    } catch (err) {
      const code = (err as { code?: unknown }).code
      if (code === '42P01') throw tableNotFound(name, schema)
      if (code === '42501' || code === '42809') {
        const kind = await tx(true)((t) => relationKind(t, name, schema))
        if (!kind || !SERVED_RELKINDS.has(kind)) throw tableNotFound(name, schema)
      }
      throw err
    }
    if (!row.relkind || !SERVED_RELKINDS.has(row.relkind)) throw tableNotFound(name, schema)
    return { kind: 'read', row }
  }
  return tx(false)(async (t) => {
    const plan = planWrite(request, await lookupRelation(t, name, schema), schema)
    const { returning, rel, applied } = plan
    if (plan.kind === 'nothing') return { kind: 'write', row: plan.row, returning, rel, applied }
    const row = await runStatement(t, plan.statement)
    if (returning.kind === 'rows' && returning.single && Number(row.page_count) !== 1) throw notSingle(Number(row.page_count))
    return { kind: 'write', row, returning, rel, applied }
  })
}

function answerRelation(request: RelationRequest, outcome: RelationOutcome): RestResponse {
  if (request.kind === 'read') {
    return readAnswer(outcome.row, { offset: request.page.offset, format: request.format, head: request.head, counted: request.counted })
  }
  if (outcome.kind !== 'write') throw new Error('a write answered as a read')
  const { row, returning, rel } = outcome
  const applied = [...outcome.applied, ...(request.prefs.return ? [`return=${request.prefs.return}`] : [])]
  const type = request.format === 'object' ? OBJECT_TYPE : JSON_TYPE
  if (request.kind === 'insert') {
    const headers: Record<string, string> = { 'content-range': '*/*', ...preferenceApplied(applied) }
    if (returning.kind === 'rows') return { status: 201, headers: { ...headers, 'content-type': type }, body: row.body }
    if (returning.kind === 'keys') Object.assign(headers, locationOf(rel, row.body))
    return { status: 201, headers, body: null }
  }
  const rows = Number(row.page_count)
  const headers: Record<string, string> = { 'content-range': rows > 0 ? `0-${rows - 1}/*` : '*/*', ...preferenceApplied(applied) }
  if (request.prefs.return === 'representation') return { status: 200, headers: { ...headers, 'content-type': type }, body: row.body ?? '[]' }
  return { status: 204, headers, body: null }
}

async function relation(req: RestRequest, ctx: RestContext, name: string): Promise<RestResponse> {
  const request = parseRelationRequest(req, name, ctx.maxRows)
  return answerRelation(request, await runRelation(ctx, request))
}

// ---------------------------------------------------------------------------------------------------------------
// Functions

/** Types a whole JSON body may go to as a function's single unnamed argument (PostgREST's rule). */
const WHOLE_BODY_TYPES = new Set(['json', 'jsonb', 'text'])

const takesWholeBody = (fn: FunctionInfo) => fn.inArgs.length === 1 && fn.inArgs[0].name === '' && WHOLE_BODY_TYPES.has(fn.inArgs[0].base)

function functionNotFound(name: string, keys: string[], schema = 'public'): RestError {
  const sig = keys.length ? `${schema}.${name}(${keys.join(', ')})` : `${schema}.${name} without parameters`
  return new RestError(404, 'PGRST202', `Could not find the function ${sig} in the schema cache`, {
    hint: 'Arguments are passed by name: check the function name and its argument names',
  })
}

interface Chosen {
  fn: FunctionInfo
  args: CallArg[]
  wholeBody: boolean
}

/** The overload whose named arguments cover the keys given and need no more (PostgREST's resolution). */
function chooseOverload(name: string, candidates: FunctionInfo[], keys: string[], hasBody: boolean, schema = 'public'): Chosen {
  const matches = candidates.filter((fn) => {
    const named = fn.inArgs.filter((a) => a.name !== '')
    if (named.length !== fn.inArgs.length) return false
    return keys.every((k) => named.some((a) => a.name === k)) && named.every((a) => a.hasDefault || keys.includes(a.name))
  })
  if (matches.length === 1) {
    const fn = matches[0]
    return { fn, args: fn.inArgs.filter((a) => keys.includes(a.name)), wholeBody: false }
  }
  if (matches.length > 1) {
    throw new RestError(300, 'PGRST203', `Could not choose the best candidate function between: ${matches.map((f) => `${schema}.${f.name}(${f.inArgs.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`, {
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    })
  }
  // One unnamed json/jsonb/text argument takes the whole body.
  const single = candidates.filter(takesWholeBody)
  if (hasBody && single.length === 1) {
    return { fn: single[0], args: [single[0].inArgs[0]], wholeBody: true }
  }
  throw functionNotFound(name, keys, schema)
}

async function rpc(req: RestRequest, ctx: RestContext, name: string): Promise<RestResponse> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    throw new RestError(405, 'PGRST101', 'Only GET and POST are allowed for functions', { headers: { allow: 'GET, HEAD, POST' } })
  }
  const isGet = req.method !== 'POST'
  const format = parseAccept(req.headers('accept')) as ResultFormat
  const prefs = parsePrefer(req.headers('prefer'))
  const select = parseSelect(req.query.get('select') ?? undefined)
  const order = parseOrder(req.query.get('order') ?? undefined)
  const page = paging(req, ctx.maxRows)
  const counted = prefs.count !== undefined

  let body: unknown = {}
  const hasBody = !isGet && req.body.trim() !== ''
  if (hasBody) body = parseJsonBody(req.body)
  if (!isGet && !isPlainObject(body) && !Array.isArray(body) && typeof body !== 'string') {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: 'The body of a function call is a JSON object of named arguments' })
  }

  // The functions are looked up in a read-only transaction first: whether the call itself may write depends on them.
  const candidates = await ctx.transaction({ role: ctx.role, claims: ctx.claims, readOnly: true }, (t) => findFunctions(t, name, ctx.schema))
  if (candidates.length === 0) throw functionNotFound(name, [], ctx.schema)
  const argNames = new Set(candidates.flatMap((f) => f.inArgs.map((a) => a.name)).filter((n) => n !== ''))

  let keys: string[]
  let argsJson: string | null
  if (isGet) {
    const args: Record<string, string | string[]> = {}
    for (const key of new Set(req.query.keys())) {
      if (!argNames.has(key) || RESERVED_PARAMS.has(key)) continue
      const all = req.query.getAll(key)
      args[key] = all.length === 1 ? all[0] : all
    }
    keys = Object.keys(args)
    argsJson = JSON.stringify(args)
  } else {
    keys = isPlainObject(body) ? Object.keys(body) : []
    argsJson = req.body.trim() === '' ? '{}' : req.body
  }
  if (!isGet && hasBody && !isPlainObject(body) && !candidates.some(takesWholeBody)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', { details: 'The body of a function call is a JSON object of named arguments' })
  }
  const chosen = chooseOverload(name, candidates, keys, hasBody, ctx.schema)
  const { fn } = chosen
  if (isGet && fn.volatility === 'v') {
    throw new RestError(405, 'PGRST101', `Cannot call the VOLATILE function ${ctx.schema}.${name} with GET`, {
      hint: 'Call it with POST, or declare it STABLE or IMMUTABLE if it does not write',
      headers: { allow: 'POST' },
    })
  }
  if (fn.returns === 'record') {
    throw new RestError(400, 'PGRST100', `${ctx.schema}.${name} returns record without named columns, which the REST API cannot describe`, {
      hint: 'Declare it RETURNS TABLE(...) or with OUT arguments',
    })
  }
  // Filters on the result: every query parameter that is not an argument (GET) or all of them (POST).
  const where = parseConditions(req.query, (k) => isGet && argNames.has(k))
  if (fn.returns !== 'composite' && fn.returnsSet === false && where.length) {
    throw new RestError(400, 'PGRST100', `${ctx.schema}.${name} returns a single value: it cannot be filtered`)
  }

  const readOnly = isGet || fn.volatility !== 'v'
  const params = new Params()
  const wholeBody = chosen.wholeBody
  const source = callSourceSql(name, chosen.args, wholeBody ? req.body : argsJson, fn.returns !== 'composite', params, wholeBody, ctx.schema)
  const row = await ctx.transaction({ role: ctx.role, claims: ctx.claims, readOnly }, async (t) => {
    if (fn.returns === 'void') {
      return runStatement(t, { sql: `select count(*)::text as page_count, null::text as body from ${source}`, params: params.values })
    }
    const scalar = fn.returns === 'scalar'
    const statement = readSql(source, {
      select: scalar ? [{ kind: 'column', name: 'pgrst_scalar' }] : select,
      where,
      order,
      ...page,
      single: format === 'object' || !fn.returnsSet,
      count: counted && fn.returnsSet,
      withBody: req.method !== 'HEAD',
      scalar,
    }, params)
    return runStatement(t, statement)
  })
  if (fn.returns === 'void') return { status: 204, headers: {}, body: null }
  if (!fn.returnsSet) {
    // One value or one object, as PostgREST answers a function that does not return a set.
    const answer = readAnswer(row, { offset: 0, format, head: req.method === 'HEAD', counted: false, objectAlways: fn.returns === 'composite' })
    if (fn.returns === 'scalar' && format !== 'object') answer.headers['content-type'] = JSON_TYPE
    delete answer.headers['content-range']
    return answer
  }
  return readAnswer(row, { offset: page.offset, format, head: req.method === 'HEAD', counted: counted })
}
