/**
 * Bad input to the storage service answers a clear 4xx in storage's shape `{ statusCode, error, message }` and
 * stores nothing: keys with `..` (plain or percent-encoded), backslashes, NUL, past 1,024 bytes; a body past the
 * bucket's limit (refused while it streams); a MIME type the bucket does not take; a signed URL expired or for
 * another path; bucket names that are not valid; an upload cut off half-way; two uploads racing for one path; bodies
 * that are not what a route takes. Unicode and spaces in keys are fine. Requests go over real HTTP with the raw
 * path as written (fetch would resolve dot segments before sending).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectByName, startTestServer, storageLeftovers, type TestServer } from './helpers'

let s: TestServer
let server: ReturnType<typeof serve>
let port: number
let ref: string
let service: string

interface Answer {
  status: number
  body: unknown
  headers: http.IncomingHttpHeaders
}

/** One request with the path exactly as given, with the service key unless `authorization: ''` says none. */
function raw(method: string, rawPath: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  // Node sends a DELETE's body without a length unless told one.
  const length: Record<string, string> = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
  const sent = Object.fromEntries(Object.entries({ authorization: `Bearer ${service}`, ...length, ...headers }).filter(([, v]) => v !== ''))
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: `/p/${ref}/storage/v1${rawPath}`, headers: sent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: unknown = text
          try {
            parsed = text === '' ? null : JSON.parse(text)
          } catch {
            // not JSON: the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers })
        })
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.end(body)
    else req.end()
  })
}

const jsonHeaders = { 'content-type': 'application/json' }
const leftovers = () => storageLeftovers(s, ref)
const names = async (bucket: string) =>
  (
    await s.projectDbs.transaction(ref, { role: 'service_role' }, (tx) =>
      tx.query<{ name: string }>('select name from storage.objects where bucket_id = $1 order by name', [bucket]),
    )
  ).rows.map((r) => r.name)

beforeAll(async () => {
  s = await startTestServer()
  server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  port = (server.address() as AddressInfo).port
  s.listeningOn(`http://127.0.0.1:${port}`)
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  service = (await findProjectKeys(s.db, project.id))!.service_role_key
  for (const body of [
    { name: 'bad', public: false },
    { name: 'small', public: false, file_size_limit: 1000, allowed_mime_types: ['image/*', 'text/plain'] },
  ]) {
    expect((await raw('POST', '/bucket', JSON.stringify(body), jsonHeaders)).status).toBe(200)
  }
}, 120_000)

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()))
  if (ref) await s.objects.removeProject(ref)
  await s?.close()
})

describe('object keys', () => {
  const invalid: Array<[string, string]> = [
    ['dot-dot', '/object/bad/a/../escape.txt'],
    ['encoded dot-dot', '/object/bad/a/%2e%2e/escape.txt'],
    ['encoded dot-dot at the start', '/object/bad/%2E%2E/%2e%2e/escape.txt'],
    ['backslash', '/object/bad/a%5C..%5Cescape.txt'],
    ['NUL', '/object/bad/a%00b.txt'],
    ['1,025 bytes', `/object/bad/${'k'.repeat(1025)}`],
    ['a bad escape', '/object/bad/a%E0%A4%A.txt'],
    ['an empty segment', '/object/bad/a//b.txt'],
  ]
  for (const [what, p] of invalid) {
    it(`refuses a key with ${what}: 400 InvalidKey, nothing stored`, async () => {
      const res = await raw('POST', p, 'bytes', { 'content-type': 'text/plain' })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: '400', error: 'InvalidKey' })
      expect((res.body as { message: string }).message).toMatch(/^Invalid key: /)
      expect(await names('bad')).toEqual([])
      expect(await leftovers()).toEqual([])
    })
  }

  it('takes unicode, spaces and 1,024-byte keys, and gives them back', async () => {
    const keys = ['dossier été/naïve file ☃.txt', 'with spaces/and (parens) & more.txt', 'k'.repeat(1024)]
    for (const key of keys) {
      const p = `/object/bad/${key.split('/').map(encodeURIComponent).join('/')}`
      expect((await raw('POST', p, key, { 'content-type': 'text/plain' })).status).toBe(200)
      const back = await raw('GET', p)
      expect(back.status).toBe(200)
      expect(back.body).toBe(key)
    }
    expect(await names('bad')).toEqual([...keys].sort())
  })

  it('refuses a move or copy to a key with .. (a JSON body, where no URL resolves it)', async () => {
    const move = await raw('POST', '/object/move', JSON.stringify({ bucketId: 'bad', sourceKey: keys0(), destinationKey: '../out.txt' }), jsonHeaders)
    expect(move.status).toBe(400)
    expect(move.body).toMatchObject({ statusCode: '400', error: 'InvalidKey' })
    const copy = await raw('POST', '/object/copy', JSON.stringify({ bucketId: 'bad', sourceKey: keys0(), destinationKey: 'a\\b' }), jsonHeaders)
    expect(copy.body).toMatchObject({ statusCode: '400', error: 'InvalidKey' })
  })
})

const keys0 = () => 'with spaces/and (parens) & more.txt'

describe('bucket limits', () => {
  it('refuses a declared body past the limit before reading it: 413', async () => {
    const res = await raw('POST', '/object/small/big.txt', Buffer.alloc(5000, 'a'), { 'content-type': 'text/plain' })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ statusCode: '413', error: 'Payload too large', message: 'The object exceeded the maximum allowed size' })
  })

  it('refuses a streamed (chunked) body once it passes the limit: 413, nothing stored, no temporary file', async () => {
    const res = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/p/${ref}/storage/v1/object/small/chunked.txt`,
          headers: { authorization: `Bearer ${service}`, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        },
        (r) => {
          let text = ''
          r.on('data', (c: Buffer) => (text += c.toString()))
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(text), headers: r.headers }))
        },
      )
      req.on('error', reject)
      for (let i = 0; i < 10; i++) req.write(Buffer.alloc(300, 'b'))
      req.end()
    })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ statusCode: '413' })
    expect(await names('small')).toEqual([])
    expect(await leftovers()).toEqual([])
  })

  it('refuses a multipart file past the limit while it streams', async () => {
    const form = new FormData()
    form.append('cacheControl', '3600')
    form.append('', new Blob([new Uint8Array(3000)], { type: 'image/png' }), 'big.png')
    const req = new Request('http://x', { method: 'POST', body: form })
    const res = await raw('POST', '/object/small/form.png', Buffer.from(await req.arrayBuffer()), { 'content-type': req.headers.get('content-type')! })
    expect(res.status).toBe(413)
    expect(await names('small')).toEqual([])
    expect(await leftovers()).toEqual([])
  })

  it('refuses a MIME type the bucket does not take (415), takes one its wildcard allows', async () => {
    const res = await raw('POST', '/object/small/doc.pdf', 'pdf', { 'content-type': 'application/pdf' })
    expect(res.status).toBe(415)
    expect(res.body).toEqual({ statusCode: '415', error: 'invalid_mime_type', message: 'mime type application/pdf is not supported' })
    expect((await raw('POST', '/object/small/pic.webp', 'webp', { 'content-type': 'image/webp' })).status).toBe(200)
    expect(await names('small')).toEqual(['pic.webp'])
    expect(await leftovers()).toEqual([])
  })
})

describe('uploads that go wrong', () => {
  it('an upload cut off half-way stores nothing and leaves nothing behind', async () => {
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/p/${ref}/storage/v1/object/bad/cut.bin`,
        headers: { authorization: `Bearer ${service}`, 'content-type': 'application/octet-stream', 'content-length': String(1024 * 1024) },
      })
      req.on('error', () => resolve())
      req.write(Buffer.alloc(256 * 1024, 'c'), () => {
        // Give the server the first bytes, then drop the connection.
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 200)
      })
    })
    await expect.poll(leftovers, { timeout: 15_000 }).toEqual([])
    expect(await names('bad')).not.toContain('cut.bin')
  })

  it('two uploads to one path at once: one wins, the other gets 409; with upsert both succeed', async () => {
    const [a, b] = await Promise.all([
      raw('POST', '/object/bad/race.txt', 'first', { 'content-type': 'text/plain' }),
      raw('POST', '/object/bad/race.txt', 'second', { 'content-type': 'text/plain' }),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const lost = a.status === 409 ? a : b
    expect(lost.body).toEqual({ statusCode: '409', error: 'Duplicate', message: 'The resource already exists' })
    const won = a.status === 200 ? 'first' : 'second'
    expect((await raw('GET', '/object/bad/race.txt')).body).toBe(won)
    const both = await Promise.all([
      raw('POST', '/object/bad/race.txt', 'third', { 'content-type': 'text/plain', 'x-upsert': 'true' }),
      raw('POST', '/object/bad/race.txt', 'fourth', { 'content-type': 'text/plain', 'x-upsert': 'true' }),
    ])
    expect(both.map((r) => r.status)).toEqual([200, 200])
    expect(['third', 'fourth']).toContain((await raw('GET', '/object/bad/race.txt')).body)
    expect(await leftovers()).toEqual([])
  })

  it('an upload to a bucket that does not exist: 404 Bucket not found', async () => {
    const res = await raw('POST', '/object/nope/a.txt', 'x', { 'content-type': 'text/plain' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' })
  })
})

describe('signed URLs', () => {
  it('refuses a token for another path, a token that is no JWT, no token, an expired token', async () => {
    expect((await raw('POST', '/object/bad/signed.txt', 'signed', { 'content-type': 'text/plain' })).status).toBe(200)
    const signed = await raw('POST', '/object/sign/bad/signed.txt', JSON.stringify({ expiresIn: 30 }), jsonHeaders)
    const url = (signed.body as { signedURL: string }).signedURL
    const token = new URL(url, 'http://x').searchParams.get('token')!
    expect((await raw('GET', url, undefined, { authorization: '' })).body).toBe('signed')
    expect((await raw('GET', `/object/sign/bad/race.txt?token=${token}`)).body).toEqual({
      statusCode: '400',
      error: 'InvalidSignature',
      message: 'The url do not match the signature',
    })
    expect((await raw('GET', '/object/sign/bad/signed.txt?token=not-a-jwt')).body).toMatchObject({ statusCode: '400', error: 'InvalidJWT' })
    expect((await raw('GET', '/object/sign/bad/signed.txt')).body).toMatchObject({ statusCode: '400', error: 'InvalidJWT' })
    s.clock.advance(31_000)
    expect((await raw('GET', url, undefined, { authorization: '' })).body).toEqual({ statusCode: '400', error: 'InvalidJWT', message: '"exp" claim timestamp check failed' })
  })

  it('refuses an expiresIn that is not a positive whole number', async () => {
    for (const expiresIn of [0, -5, 1.5, 'soon']) {
      const res = await raw('POST', '/object/sign/bad/signed.txt', JSON.stringify({ expiresIn }), jsonHeaders)
      expect(res.status, String(expiresIn)).toBe(400)
      expect(res.body).toMatchObject({ statusCode: '400', error: 'InvalidRequest' })
    }
  })
})

describe('buckets and bodies', () => {
  const badNames = ['', 'a/b', 'back\\slash', '..', ' padded ', 'tab\there', 'x'.repeat(101)]
  for (const name of badNames) {
    it(`refuses the bucket name ${JSON.stringify(name.slice(0, 20))}`, async () => {
      const res = await raw('POST', '/bucket', JSON.stringify({ name }), jsonHeaders)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: '400', error: 'InvalidRequest', message: expect.stringMatching(/^Bucket name invalid/) })
    })
  }

  it('refuses a size limit that is not a size, and MIME types that are not MIME types', async () => {
    const size = await raw('POST', '/bucket', JSON.stringify({ name: 'sized', file_size_limit: 'lots' }), jsonHeaders)
    expect(size.body).toMatchObject({ statusCode: '400', message: expect.stringMatching(/^file_size_limit is not a size/) })
    const mime = await raw('POST', '/bucket', JSON.stringify({ name: 'typed', allowed_mime_types: ['not a type'] }), jsonHeaders)
    expect(mime.body).toMatchObject({ statusCode: '400', error: 'InvalidRequest' })
  })

  it('answers a body that is not JSON, or not the route’s shape, with 400', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/object/list/bad', '{not json'],
      ['POST', '/object/list/bad', JSON.stringify({ limit: -1 })],
      ['POST', '/object/list/bad', JSON.stringify({ sortBy: { column: 'size' } })],
      ['DELETE', '/object/bad', JSON.stringify({ prefixes: [] })],
      ['DELETE', '/object/bad', JSON.stringify({ prefixes: 'a.txt' })],
      ['POST', '/object/move', JSON.stringify({ bucketId: 'bad' })],
      ['POST', '/object/sign/bad', JSON.stringify({ expiresIn: 60 })],
      ['POST', '/object/list/bad', JSON.stringify({ prefix: 'a\u0000b' })],
    ]
    for (const [method, p, body] of cases) {
      const res = await raw(method, p, body, jsonHeaders)
      expect(res.status, `${method} ${p} ${body}`).toBe(400)
      expect(res.body, `${method} ${p} ${body}`).toMatchObject({ statusCode: '400', error: 'InvalidRequest' })
    }
  })

  it('a route that does not exist: 404 in storage’s shape; no key: 401', async () => {
    expect(await raw('GET', '/nothing/here')).toMatchObject({ status: 404, body: { statusCode: '404', error: 'not_found' } })
    const noKey = await raw('POST', '/object/list/bad', '{}', { ...jsonHeaders, authorization: '' })
    expect(noKey.status).toBe(401)
    expect(noKey.body).toMatchObject({ statusCode: '401', error: 'Unauthorized' })
    const badKey = await raw('POST', '/object/list/bad', '{}', { ...jsonHeaders, authorization: 'Bearer not.a.jwt' })
    expect(badKey.status).toBe(401)
    expect(badKey.body).toMatchObject({ statusCode: '401', error: 'Unauthorized' })
  })
})
