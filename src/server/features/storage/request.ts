/**
 * What the storage API reads from a request and writes in an answer: the path after the product's base and the
 * `{bucket}/{key}` in it, JSON bodies (each route's schema), an upload's bytes (raw or multipart) received into the object store,
 * and an object's bytes served with its headers and Range.
 */
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import busboy from 'busboy'
import type { Context } from 'hono'
import * as z from 'zod'
import type { ObjectBytes, Written } from '../../core/objectBytes'
import { invalidRequest, objectNotFound, storageErrorResponse, tooLarge } from './errors'
import { checkKey, decodePath } from './paths'
import type { ObjectRow } from './store'

export const DEFAULT_MIME = 'application/octet-stream'

const BASE = /^\/p\/[^/]+\/storage\/v1/

/**
 * The path after the product's base as the client sent it: Node's raw request line when served by Node, since the
 * URL of the web Request has its `..` and `%2e%2e` segments resolved away (a key with them is refused, not folded).
 */
export const tailOf = (c: Context) => {
  const raw = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url
  const pathname = raw !== undefined && raw.startsWith('/') ? raw.split('?')[0] : new URL(c.req.url).pathname
  return pathname.replace(BASE, '')
}

export interface Target {
  bucket: string
  key: string
}

/** `{bucket}/{key}` of a path tail (percent-encoded as sent); the key checked. */
export function target(tail: string): Target {
  const slash = tail.indexOf('/')
  if (slash <= 0) throw invalidRequest('The path must name a bucket and an object: {bucket}/{path}')
  const bucket = decodePath(tail.slice(0, slash))
  const key = decodePath(tail.slice(slash + 1))
  return { bucket, key: checkKey(key) }
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } })

export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown
  let text = ''
  try {
    text = await c.req.text()
    raw = text === '' ? {} : JSON.parse(text)
  } catch {
    throw invalidRequest('The body is not valid JSON')
  }
  // Postgres cannot hold U+0000 in text: refused here rather than met as a database error.
  if (text.includes('\u0000') || /\\u0000/i.test(text)) throw invalidRequest('The body contains a NUL character (\\u0000), which no field accepts')
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalidRequest(`body${issue.path.length ? `/${issue.path.join('/')}` : ''} ${issue.message}`)
  }
  return parsed.data
}

/** The request's body as a Node stream: the socket itself when served by Node, else the web stream. */
function bodyStream(c: Context): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (incoming) return incoming
  const body = c.req.raw.body
  return body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream) : Readable.from([])
}

export const cacheControlOf = (value: string | undefined) => {
  if (!value) return 'no-cache'
  return /^\d+$/.test(value.trim()) ? `max-age=${value.trim()}` : value
}

export interface Received {
  written: Written
  mime: string
  cacheControl: string
  userMetadata: Record<string, unknown> | null
}

export function userMetadataOf(raw: string | undefined, base64: boolean): Record<string, unknown> | null {
  if (!raw) return null
  try {
    const parsed: unknown = JSON.parse(base64 ? Buffer.from(raw, 'base64').toString('utf8') : raw)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // fall through
  }
  throw invalidRequest('metadata is not a JSON object')
}

/** Receives an upload's bytes (raw or the one file of a multipart form) into a new version. */
export async function receive(c: Context, objects: ObjectBytes, ref: string, limit: number): Promise<Received> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  // A declared length past the limit is refused before a byte is read (a form's envelope adds a little, hence >).
  if (Number.isFinite(declared) && declared > limit + 64 * 1024) throw tooLarge()
  const contentType = c.req.header('content-type') ?? ''
  const source = bodyStream(c)
  if (!/^multipart\/form-data/i.test(contentType)) {
    if (Number.isFinite(declared) && declared > limit) throw tooLarge()
    const written = await objects.write(ref, source, limit)
    return {
      written,
      mime: contentType || DEFAULT_MIME,
      cacheControl: cacheControlOf(c.req.header('cache-control')),
      userMetadata: userMetadataOf(c.req.header('x-metadata'), true),
    }
  }
  return new Promise<Received>((resolve, reject) => {
    let bb: busboy.Busboy
    try {
      bb = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fields: 20, fieldSize: 64 * 1024 } })
    } catch {
      return reject(invalidRequest('The multipart form has no boundary'))
    }
    const fields: Record<string, string> = {}
    let file: Promise<Received> | undefined
    const fail = (err: unknown) => {
      source.unpipe(bb)
      reject(err)
    }
    bb.on('field', (name, value) => {
      fields[name] = value
    })
    bb.on('file', (_name, stream, info) => {
      if (file) return void stream.resume()
      file = objects.write(ref, stream, limit).then((written) => ({
        written,
        mime: fields.contentType || info.mimeType || DEFAULT_MIME,
        cacheControl: cacheControlOf(fields.cacheControl),
        userMetadata: userMetadataOf(fields.metadata, false),
      }))
      file.catch(fail)
    })
    bb.on('error', () => fail(invalidRequest('The multipart form could not be read')))
    bb.on('close', () => {
      if (!file) return reject(invalidRequest('The multipart form has no file'))
      file.then(resolve, reject)
    })
    source.on('error', fail)
    source.pipe(bb)
  })
}

/** A `Range: bytes=…` header against a size: the inclusive range, undefined for the whole, 'bad' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined | 'bad' {
  if (!header) return undefined
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return undefined
  let start: number
  let end: number
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0) return 'bad'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  }
  if (start >= size || end < start) return 'bad'
  return { start, end }
}

export function objectHeaders(row: ObjectRow, size: number): Record<string, string> {
  const m = row.metadata
  return {
    'content-type': m.mimetype || DEFAULT_MIME,
    'cache-control': m.cacheControl || 'no-cache',
    etag: m.eTag,
    'last-modified': new Date(m.lastModified || row.updated_at).toUTCString(),
    'accept-ranges': 'bytes',
    'content-length': String(size),
  }
}

export const ListBody = z.object({
  prefix: z.string().max(1024).default(''),
  limit: z.number().int().min(1).max(10_000).default(100),
  offset: z.number().int().min(0).default(0),
  sortBy: z
    .object({
      column: z.enum(['name', 'created_at', 'updated_at', 'last_accessed_at']).default('name'),
      order: z.string().toLowerCase().pipe(z.enum(['asc', 'desc'])).default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
  search: z.string().max(1024).default(''),
})

export const MoveBody = z.object({
  bucketId: z.string().min(1),
  sourceKey: z.string().min(1),
  destinationKey: z.string().min(1),
  destinationBucket: z.string().min(1).optional(),
})

export const CopyBody = MoveBody.extend({ copyMetadata: z.boolean().optional(), metadata: z.record(z.string(), z.unknown()).optional() })

export const RemoveBody = z.object({ prefixes: z.array(z.string().min(1)).min(1).max(1000) })
const Expiry = z.number().int().min(1).max(10 * 365 * 24 * 3600)
/** One signed URL; with `transform` (width, height, resize, quality, format) it leads to the transformed image. */
export const SignBody = z.object({
  expiresIn: Expiry,
  transform: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
export const SignManyBody = z.object({ expiresIn: Expiry, paths: z.array(z.string().min(1)).min(1).max(1000) })

const MimeTypes = z.array(z.string().regex(/^[\w.+-]+\/[\w.+*-]+$/, 'is not a MIME type')).nullable().optional()
export const CreateBucketBody = z.object({
  id: z.string().optional(),
  name: z.string(),
  public: z.boolean().optional(),
  file_size_limit: z.union([z.number(), z.string()]).nullable().optional(),
  allowed_mime_types: MimeTypes,
})
export const UpdateBucketBody = z.object({
  public: z.boolean().optional(),
  file_size_limit: z.union([z.number(), z.string()]).nullable().optional(),
  allowed_mime_types: MimeTypes,
})

/** Serves an object's bytes (GET) or headers (HEAD), with Range. */
export async function serveObject(c: Context, objects: ObjectBytes, row: ObjectRow | undefined, ref: string): Promise<Response> {
  if (!row) throw objectNotFound()
  const size = await objects.size(ref, row.version)
  if (size === undefined) throw objectNotFound()
  const headers = objectHeaders(row, size)
  const download = c.req.query('download')
  if (download !== undefined) {
    const name = download || row.name.split('/').pop() || 'download'
    headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(name)}`
  }
  const range = parseRange(c.req.header('range'), size)
  if (range === 'bad') {
    return storageErrorResponse(416, 'InvalidRange', 'The requested range is not satisfiable', { 'content-range': `bytes */${size}` })
  }
  const status = range ? 206 : 200
  if (range) {
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
    headers['content-length'] = String(range.end - range.start + 1)
  }
  if (c.req.method === 'HEAD' || size === 0) return new Response(null, { status, headers })
  const stream = await objects.read(ref, row.version, range)
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers })
}
