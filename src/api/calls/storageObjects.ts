/**
 * The file browser's calls: the project's storage API behind the gateway (src/contracts/storageObjects.ts), with the
 * project's service_role key from the platform's API key info, as the platform's dashboard calls it. One function per
 * call; every JSON answer parsed by its contract; an error answer becomes an Error carrying storage's own message.
 * No retries here: the machines decide.
 */
import { Upload } from 'tus-js-client'
import type * as z from 'zod/mini'
import { pathOf, type Endpoint, type ParamsOf } from '../../contracts/endpoint'
import * as endpoints from '../../contracts/endpoints/storageObjects'
import {
  FOLDER_PLACEHOLDER,
  RESUMABLE_THRESHOLD,
  StorageErrorBody,
  UploadedObject,
  type BucketSettingsBody,
  type ListObjectsBody,
  type StorageListItem,
} from '../../contracts/storageObjects'
import { getProjectApiInfo } from './keys'
import { listBucketObjects, listBuckets, signBucketObject } from './storage'
import type { CallOptions } from '../http'

/** Where a project's storage API answers and the key it is called with. */
export interface StorageConnection {
  /** `{projectUrl}/storage/v1`, no trailing slash. */
  url: string
  key: string
}

/**
 * A member's view of a project's storage: with the service key (whoever may read it) every call goes to the storage
 * API; without it (`key: null`, a Read-only member or a Developer) the member browses and downloads through the
 * platform's own reads, and changes are not offered.
 */
export type MemberStorage = StorageConnection | { url: string; key: null; ref: string }

export class StorageCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message)
    this.name = 'StorageCallError'
  }
}

/** The storage API of a project, from its API key info: with the service key when the member may read it. */
export async function connectStorage(ref: string, options?: CallOptions): Promise<MemberStorage> {
  const info = await getProjectApiInfo(ref, options)
  const key = info.autoApiService.serviceApiKey
  const base = `${info.autoApiService.protocol}://${info.autoApiService.endpoint}`.replace(/\/$/, '')
  return key ? { url: `${base}${STORAGE_PREFIX}`, key } : { url: `${base}${STORAGE_PREFIX}`, key: null, ref }
}

/** A bucket as a member without the key reads it: from the platform's list of the project's buckets. */
export async function memberBucket(ref: string, bucket: string, options?: CallOptions) {
  const found = (await listBuckets(ref, options)).find((b) => b.id === bucket)
  if (!found) throw new StorageCallError('Bucket not found', 404)
  return found
}

/** One folder as `listFolder` lists it, through the platform's member read. */
export function memberListFolder(ref: string, bucket: string, prefix: string, search: string, options?: CallOptions) {
  return listBucketObjects(ref, bucket, { path: prefix === '' ? '' : `${prefix}/`, options: { limit: LIST_LIMIT, offset: 0, sortBy: { column: 'name', order: 'asc' }, search } }, options)
}

/** A signed URL of one object, absolute, through the platform's member read. */
export async function memberSignUrl(ref: string, bucket: string, path: string, expiresIn: number, options?: CallOptions) {
  return (await signBucketObject(ref, bucket, { path, expiresIn }, options)).signedUrl
}

/** What the preview shows of an object read through a signed URL: its headers (HEAD) and, for text, its start (Range). */
export async function readSigned(url: string, textLimit: number | null, options?: CallOptions): Promise<{ size: number; contentType: string; lastModified: string | null; text: string | null }> {
  let head: Response
  try {
    head = await fetch(new Request(url, { method: 'HEAD', signal: options?.signal }))
  } catch {
    if (options?.signal?.aborted) return new Promise<never>(() => {})
    throw new StorageCallError('Unable to reach the storage API', null)
  }
  if (!head.ok) throw new StorageCallError(`Request failed with status ${head.status}`, head.status)
  const contentType = head.headers.get('content-type') ?? 'application/octet-stream'
  const modified = head.headers.get('last-modified')
  const info = { size: Number(head.headers.get('content-length') ?? 0), contentType, lastModified: modified ? new Date(modified).toISOString() : null }
  if (textLimit === null) return { ...info, text: null }
  const part = await fetch(new Request(url, { signal: options?.signal, headers: { range: `bytes=0-${textLimit - 1}` } }))
  if (!part.ok) throw new StorageCallError(`Request failed with status ${part.status}`, part.status)
  return { ...info, text: await part.text() }
}

/** Where the storage API sits under a project's URL. */
const STORAGE_PREFIX = ['', 'storage', 'v1'].join('/')

const authHeaders = (conn: StorageConnection) => ({ apikey: conn.key, authorization: `Bearer ${conn.key}` })

type Params<E extends Endpoint> = { [K in ParamsOf<E['path']>]: string | number | undefined }
type Answer<E extends Endpoint> = E['response'] extends z.ZodMiniType ? z.infer<E['response']> : void
type BodyOf<E extends Endpoint> = E['body'] extends z.ZodMiniType ? z.input<E['body']> : never

const urlOf = <E extends Endpoint>(conn: StorageConnection, e: E, params: Params<E>) => `${conn.url}${pathOf(e, params)}`

/** One call of the storage API: its descriptor's path under the connection, the answer parsed by its schema. */
async function send<E extends Endpoint>(
  conn: StorageConnection,
  e: E,
  params: Params<E>,
  { body, signal, headers }: { body?: BodyOf<E>; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Answer<E>> {
  const checked = body === undefined || e.body === null ? undefined : e.body.parse(body)
  const request = new Request(urlOf(conn, e, params), {
    method: e.method,
    signal,
    headers: { ...authHeaders(conn), ...(checked === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: checked === undefined ? undefined : JSON.stringify(checked),
  })
  let response: Response
  try {
    response = await fetch(request)
  } catch {
    if (signal?.aborted) return new Promise<never>(() => {})
    throw new StorageCallError('Unable to reach the storage API', null)
  }
  const text = await response.text()
  let json: unknown = null
  try {
    json = text === '' ? null : JSON.parse(text)
  } catch {
    if (!response.ok) throw new StorageCallError(`Request failed with status ${response.status}`, response.status)
    throw new StorageCallError(`Malformed response from storage ${e.path}: not JSON`, response.status)
  }
  if (!response.ok) throw errorOf(response.status, json)
  if (e.response === null) return undefined as Answer<E>
  const parsed = e.response.safeParse(json)
  if (!parsed.success) throw new StorageCallError(`Malformed response from storage ${e.path}`, response.status)
  return parsed.data as Answer<E>
}

function errorOf(status: number, json: unknown): StorageCallError {
  const body = StorageErrorBody.safeParse(json)
  return new StorageCallError(body.success ? body.data.message : `Request failed with status ${status}`, status)
}

export const getBucket = (conn: StorageConnection, bucket: string, options?: CallOptions) => send(conn, endpoints.getStorageBucket, { bucket }, options)

export const updateBucket = (conn: StorageConnection, bucket: string, body: BucketSettingsBody, options?: CallOptions) =>
  send(conn, endpoints.updateStorageBucket, { bucket }, { ...options, body })

/** The largest folder the browser lists in one answer. */
export const LIST_LIMIT = 10_000

/** One folder (`prefix` '' is the bucket's root; else ends without a slash), filtered by `search`, folders first. */
export function listFolder(conn: StorageConnection, bucket: string, prefix: string, search: string, options?: CallOptions) {
  const body: ListObjectsBody = {
    prefix: prefix === '' ? '' : `${prefix}/`,
    limit: LIST_LIMIT,
    offset: 0,
    sortBy: { column: 'name', order: 'asc' },
    search,
  }
  return send(conn, endpoints.listObjects, { bucket }, { ...options, body })
}

/** A new folder: an empty placeholder object inside it (a folder exists while it holds an object). */
export const createFolder = (conn: StorageConnection, bucket: string, path: string, options?: CallOptions) =>
  send(conn, endpoints.uploadObject, { bucket, path: `${path}/${FOLDER_PLACEHOLDER}` }, { ...options, headers: { 'content-type': 'application/octet-stream' } })

export const moveObject = (conn: StorageConnection, bucket: string, from: string, to: string, options?: CallOptions) =>
  send(conn, endpoints.moveObject, {}, { ...options, body: { bucketId: bucket, sourceKey: from, destinationKey: to } })

/** Every object name under a folder (the folder's own path, no trailing slash), walking its sub-folders. */
async function namesUnder(conn: StorageConnection, bucket: string, folder: string, options?: CallOptions): Promise<string[]> {
  const items: StorageListItem[] = await listFolder(conn, bucket, folder, '', options)
  const names: string[] = []
  for (const item of items) {
    const path = `${folder}/${item.name}`
    if (item.id === null) names.push(...(await namesUnder(conn, bucket, path, options)))
    else names.push(path)
  }
  return names
}

/**
 * Moves a folder: every object under `from` to the same place under `to`, one POST /object/move each (the service
 * moves objects, not prefixes, as the platform's does). Stops at the first refusal, its message kept.
 */
export async function moveFolder(conn: StorageConnection, bucket: string, from: string, to: string, options?: CallOptions): Promise<number> {
  const names = await namesUnder(conn, bucket, from, options)
  for (const name of names) await moveObject(conn, bucket, name, `${to}${name.slice(from.length)}`, options)
  return names.length
}

/** Deletes files and whole folders (every object under them); the answer counts the objects removed. */
export async function removeObjects(conn: StorageConnection, bucket: string, entries: Array<{ path: string; folder: boolean }>, options?: CallOptions) {
  const names: string[] = []
  for (const entry of entries) names.push(...(entry.folder ? await namesUnder(conn, bucket, entry.path, options) : [entry.path]))
  let removed = 0
  // The service takes at most 1,000 names a request.
  for (let i = 0; i < names.length; i += 1000) {
    const answer = await send(conn, endpoints.removeObjects, { bucket }, { ...options, body: { prefixes: names.slice(i, i + 1000) } })
    removed += answer.length
  }
  return removed
}

/** A signed URL of one object, absolute, valid for `expiresIn` seconds. */
export async function signUrl(conn: StorageConnection, bucket: string, path: string, expiresIn: number, options?: CallOptions) {
  const answer = await send(conn, endpoints.signObject, { bucket, path }, { ...options, body: { expiresIn } })
  // The service writes the key as it is (spaces, '#', '%'): encoded here, segment by segment, so the URL opens as given.
  const [where, query] = answer.signedURL.split('?')
  return `${conn.url}${where.split('/').map(encodeURIComponent).join('/')}${query === undefined ? '' : `?${query}`}`
}

export const objectInfo = (conn: StorageConnection, bucket: string, path: string, options?: CallOptions) =>
  send(conn, endpoints.objectInfo, { bucket, path }, options)

/** The bytes of a text preview: the first `limit` bytes only (a Range request). */
export async function readTextStart(conn: StorageConnection, bucket: string, path: string, limit: number, options?: CallOptions): Promise<string> {
  const request = new Request(urlOf(conn, endpoints.downloadObject, { bucket, path }), {
    signal: options?.signal,
    headers: { ...authHeaders(conn), range: `bytes=0-${limit - 1}` },
  })
  let response: Response
  try {
    response = await fetch(request)
  } catch {
    if (options?.signal?.aborted) return new Promise<never>(() => {})
    throw new StorageCallError('Unable to reach the storage API', null)
  }
  if (!response.ok) {
    let json: unknown = null
    try {
      json = await response.json()
    } catch {
      // a body that is not JSON keeps the generic message
    }
    throw errorOf(response.status, json)
  }
  return response.text()
}

export interface UploadProgress {
  loaded: number
  total: number
}

/**
 * Uploads one file to `path` (replacing an object of that name only with `upsert`), reporting progress; a file over 6 MB goes through the resumable (TUS) endpoint in
 * 6 MB chunks, as the platform asks. Returns a function that cancels the upload (nothing is stored then).
 */
export function uploadFile(
  conn: StorageConnection,
  bucket: string,
  path: string,
  file: Blob,
  upsert: boolean,
  on: { progress: (p: UploadProgress) => void; done: () => void; failed: (error: Error) => void },
): () => void {
  const contentType = file.type || 'application/octet-stream'
  if (file.size > RESUMABLE_THRESHOLD) {
    const upload = new Upload(file, {
      endpoint: urlOf(conn, endpoints.resumableUpload, {}),
      chunkSize: RESUMABLE_THRESHOLD,
      retryDelays: [],
      headers: { ...authHeaders(conn), 'x-upsert': String(upsert) },
      metadata: { bucketName: bucket, objectName: path, contentType, cacheControl: '3600' },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      onProgress: (loaded, total) => on.progress({ loaded, total }),
      onSuccess: () => on.done(),
      onError: (error) => on.failed(tusError(error)),
    })
    upload.start()
    return () => void upload.abort(true)
  }
  const xhr = new XMLHttpRequest()
  xhr.open('POST', urlOf(conn, endpoints.uploadObject, { bucket, path }))
  for (const [name, value] of Object.entries(authHeaders(conn))) xhr.setRequestHeader(name, value)
  xhr.setRequestHeader('content-type', contentType)
  xhr.setRequestHeader('cache-control', '3600')
  xhr.setRequestHeader('x-upsert', String(upsert))
  xhr.upload.onprogress = (event) => on.progress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size })
  xhr.onload = () => {
    if (xhr.status >= 200 && xhr.status < 300) {
      const parsed = UploadedObject.safeParse(safeJson(xhr.responseText))
      if (parsed.success) on.done()
      else on.failed(new StorageCallError('Malformed response from storage /object', xhr.status))
      return
    }
    on.failed(errorOf(xhr.status, safeJson(xhr.responseText)))
  }
  xhr.onerror = () => on.failed(new StorageCallError('Unable to reach the storage API', null))
  xhr.send(file)
  return () => xhr.abort()
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** A TUS failure with storage's own message when the server gave one. */
function tusError(error: Error): Error {
  const detailed = error as Error & { originalResponse?: { getStatus(): number; getBody(): string } | null }
  const response = detailed.originalResponse
  if (response) return errorOf(response.getStatus(), safeJson(response.getBody()))
  // No answer at all (the connection failed, or the file could not be read): tus's own words say which.
  return new StorageCallError(`The upload failed: ${error.message.replace(/^tus: /, '')}`, null)
}
