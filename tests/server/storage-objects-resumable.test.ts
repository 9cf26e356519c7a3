/**
 * Resumable uploads (TUS, /p/{ref}/storage/v1/upload/resumable) with a real TUS client, tus-js-client: an upload cut
 * off after its first chunk resumes from the server's offset and ends as the object; a caller the policies refuse is
 * refused when the upload is created; an upload is only continued by the caller that began it. On disk the partial
 * upload is in DATA_DIR/storage/<ref>/resumable; with an S3-compatible store (server-s3) it is in the store, and
 * nothing of it on this machine's disk.
 */
import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { createClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { PART_BYTES, S3Objects } from '../../src/server/features/storage/s3'
import { projectByName, startTestServer, type TestServer, listenOnPort } from './helpers'
import { recordCommands } from './s3Commands'

let s: TestServer
let close: () => Promise<void>
let origin: string
let ref: string
let keys: { anon: string; service: string; secret: string }

const endpoint = () => `${origin}/p/${ref}/storage/v1/upload/resumable`
const CHUNK = 256 * 1024

beforeAll(async () => {
  s = await startTestServer()
  ;({ origin, close } = await listenOnPort(s))
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  const row = (await findProjectKeys(s.db, project.id))!
  keys = { anon: row.anon_key, service: row.service_role_key, secret: row.jwt_secret }
  const admin = createClient(`${origin}/p/${ref}`, keys.service, { realtime: { transport: WebSocket as never }, auth: { persistSession: false } })
  expect((await admin.storage.createBucket('big', { public: false })).error).toBeNull()
}, 120_000)

afterAll(async () => {
  await close?.()
  if (ref) await s?.objects.removeProject(ref)
  await s?.close()
})

function options(objectName: string, bearer: string, extra: Partial<tus.UploadOptions> = {}): tus.UploadOptions {
  return {
    endpoint: endpoint(),
    headers: { authorization: `Bearer ${bearer}`, apikey: keys.anon },
    metadata: { bucketName: 'big', objectName, contentType: 'application/octet-stream', cacheControl: '3600' },
    chunkSize: CHUNK,
    retryDelays: null as unknown as number[],
    removeFingerprintOnSuccess: true,
    ...extra,
  }
}

const head = (url: string, bearer: string) =>
  fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${bearer}` } })

/** The project's files on this machine's disk (DATA_DIR/storage/<ref>), by path inside it. */
async function localFiles(): Promise<string[]> {
  const dir = path.join(s.config.dataDir, 'storage', ref)
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort()
  } catch {
    return []
  }
}

/** S3 only: the keys under the project's resumable uploads' prefix in the store, by name inside it. */
async function resumableKeys(): Promise<string[]> {
  const prefix = `${s.config.storageS3!.prefix}${ref}/resumable/`
  const listed = await (s.objects as S3Objects).client.send(new ListObjectsV2Command({ Bucket: s.config.storageS3!.bucket, Prefix: prefix }))
  return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort()
}

/** Where a partial upload is: in the store with S3 (nothing on this disk), else in the resumable folder. */
async function partialUploadAt(id: string | undefined) {
  const ours = (await localFiles()).filter((f) => f.startsWith(`resumable${path.sep}`))
  if (s.objects.kind === 's3') {
    expect(await localFiles()).toEqual([])
    expect(await resumableKeys()).toEqual(id ? [`${id}.info`, `${id}.pending`] : [])
  } else {
    expect(ours).toEqual(id ? [path.join('resumable', id), path.join('resumable', `${id}.json`)] : [])
  }
}

/** An upload begun with tus-js-client and stopped once `chunks` chunks are on the server: its URL. */
function cutAfter(data: Buffer, objectName: string, chunks: number, extra: Partial<tus.UploadOptions> = {}): Promise<string> {
  let done = 0
  return new Promise<string>((resolve, reject) => {
    const first: tus.Upload = new tus.Upload(
      data,
      options(objectName, keys.service, {
        ...extra,
        onChunkComplete: () => {
          if (++done === chunks) void first.abort().then(() => resolve(first.url!))
        },
        onError: reject,
      }),
    )
    first.start()
  })
}

/** POST of a new upload of `length` bytes to the bucket 'big', as the service role. */
const begin = (objectName: string, length: number) =>
  fetch(endpoint(), {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': `bucketName ${Buffer.from('big').toString('base64')},objectName ${Buffer.from(objectName).toString('base64')}`,
      authorization: `Bearer ${keys.service}`,
    },
  })

describe('resumable uploads', () => {
  it('resumes an upload cut off after its first chunk and stores the whole file', async () => {
    const data = randomBytes(CHUNK * 3 + 1000)
    // First attempt: stopped once one chunk is on the server.
    const url = await cutAfter(data, 'videos/clip.bin', 1)
    const offset = await head(url, keys.service)
    expect(offset.status).toBe(200)
    expect(Number(offset.headers.get('upload-offset'))).toBe(CHUNK)
    expect(Number(offset.headers.get('upload-length'))).toBe(data.length)
    await partialUploadAt(url.split('/').pop())

    // Second attempt: the same upload URL, from where the server is.
    const started: number[] = []
    await new Promise<void>((resolve, reject) => {
      const second = new tus.Upload(
        data,
        options('videos/clip.bin', keys.service, {
          uploadUrl: url,
          onProgress: (sent) => void started.push(sent),
          onSuccess: () => resolve(),
          onError: reject,
        }),
      )
      second.start()
    })
    expect(started[0]).toBeGreaterThanOrEqual(CHUNK)
    const res = await fetch(`${origin}/p/${ref}/storage/v1/object/big/videos/clip.bin`, { headers: { authorization: `Bearer ${keys.service}` } })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true)
    const info = await fetch(`${origin}/p/${ref}/storage/v1/object/info/big/videos/clip.bin`, { headers: { authorization: `Bearer ${keys.service}` } })
    expect(await info.json()).toMatchObject({ size: data.length, cache_control: 'max-age=3600', content_type: 'application/octet-stream' })
    await partialUploadAt(undefined)
  })

  it('resumes an upload of several parts cut off after its second chunk (in S3: parts of the store multipart upload)', async () => {
    const data = randomBytes(2 * PART_BYTES + 1000)
    const recorder = s.objects instanceof S3Objects ? recordCommands(s.objects.client) : undefined
    const chunkSize = 3 * 1024 * 1024
    try {
      const url = await cutAfter(data, 'videos/long.bin', 2, { chunkSize })
      expect(Number((await head(url, keys.service)).headers.get('upload-offset'))).toBe(2 * chunkSize)
      await partialUploadAt(url.split('/').pop())
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(data, options('videos/long.bin', keys.service, { chunkSize, uploadUrl: url, onSuccess: () => resolve(), onError: reject })).start()
      })
      const res = await fetch(`${origin}/p/${ref}/storage/v1/object/big/videos/long.bin`, { headers: { authorization: `Bearer ${keys.service}` } })
      expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true)
      await partialUploadAt(undefined)
      if (recorder) {
        // Two full parts and the last, completed once at the key of the object's version.
        const parts = recorder.sent.filter((c) => c.command === 'UploadPartCommand')
        expect(parts.map((c) => c.input.PartNumber)).toEqual([1, 2, 3])
        expect(parts.map((c) => c.input.ContentLength)).toEqual([PART_BYTES, PART_BYTES, 1000])
        const completed = recorder.sent.filter((c) => c.command === 'CompleteMultipartUploadCommand')
        expect(completed).toHaveLength(1)
        expect(completed[0].input.Key).toBe(parts[0].input.Key)
      }
    } finally {
      recorder?.stop()
    }
  })

  it('stores an empty file whose upload ends at its creation', async () => {
    const created = await begin('empty.bin', 0)
    expect(created.status).toBe(201)
    const got = await fetch(`${origin}/p/${ref}/storage/v1/object/big/empty.bin`, { headers: { authorization: `Bearer ${keys.service}` } })
    expect(got.status).toBe(200)
    expect((await got.arrayBuffer()).byteLength).toBe(0)
    await partialUploadAt(undefined)
  })

  it('ends an unfinished upload on DELETE: its bytes go (in S3 its multipart upload is aborted) and it is not found after', async () => {
    const recorder = s.objects instanceof S3Objects ? recordCommands(s.objects.client) : undefined
    try {
      const url = await cutAfter(randomBytes(CHUNK * 2), 'videos/dropped.bin', 1)
      await partialUploadAt(url.split('/').pop())
      const ended = await fetch(url, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${keys.service}` } })
      expect(ended.status).toBe(204)
      expect((await head(url, keys.service)).status).toBe(404)
      await partialUploadAt(undefined)
      if (recorder) {
        const begun = recorder.sent.find((c) => c.command === 'CreateMultipartUploadCommand')!
        const aborted = recorder.sent.filter((c) => c.command === 'AbortMultipartUploadCommand').map((c) => c.input)
        expect(aborted).toEqual([{ Bucket: begun.input.Bucket, Key: begun.input.Key, UploadId: expect.any(String) }])
      }
    } finally {
      recorder?.stop()
    }
  })

  it('refuses the creation when the caller may not write the object, or the name is taken without upsert', async () => {
    const refused = await new Promise<Error>((resolve) => {
      new tus.Upload(Buffer.from('x'), options('anon.bin', keys.anon, { onError: resolve, onSuccess: () => resolve(new Error('stored')) })).start()
    })
    expect(String(refused)).toMatch(/response code: 403/)
    expect(String(refused)).toMatch(/row-level security/)
    const taken = await new Promise<Error>((resolve) => {
      new tus.Upload(Buffer.from('x'), options('videos/clip.bin', keys.service, { onError: resolve, onSuccess: () => resolve(new Error('stored')) })).start()
    })
    expect(String(taken)).toMatch(/response code: 409/)
  })

  it('lets only the caller that began an upload continue it', async () => {
    const sign = (sub: string) =>
      new SignJWT({ role: 'authenticated', sub, ref }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(s.clock.epoch()).setExpirationTime(s.clock.epoch(3600)).sign(new TextEncoder().encode(keys.secret))
    const create = await begin('owned.bin', 10)
    expect(create.status).toBe(201)
    const url = create.headers.get('location')!
    expect(url.startsWith(endpoint())).toBe(true)
    const other = await fetch(url, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', authorization: `Bearer ${await sign('someone-else')}` },
      body: '0123456789',
    })
    expect(other.status).toBe(403)
    expect(await other.json()).toEqual({ statusCode: '403', error: 'Unauthorized', message: 'This upload was started by another caller' })
    const noKey = await fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })
    expect(noKey.status).toBe(401)
    const own = await fetch(url, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', authorization: `Bearer ${keys.service}` },
      body: '0123456789',
    })
    expect(own.status).toBe(204)
    const got = await fetch(`${origin}/p/${ref}/storage/v1/object/big/owned.bin`, { headers: { authorization: `Bearer ${keys.service}` } })
    expect(await got.text()).toBe('0123456789')
  })
})
