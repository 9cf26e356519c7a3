/**
 * Image transformations of the storage service, driven by supabase-js: `download(path, { transform })` on
 * /render/image/authenticated, `getPublicUrl(path, { transform })` on /render/image/public, and a signed URL made
 * with `transform` (its token carries the transformation). Each result is decoded again to check its size and format.
 * Then bad input in storage's shape: out-of-range options, an object that is not an image, an image over the server's
 * byte or pixel limits (set small here, as settings), and row level security on the authenticated route.
 */
import { randomBytes } from 'node:crypto'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectByName, startTestServer, listenOnPort, type TestServer } from './helpers'

/** The server's limits for this file: small, so an over-limit image is small too. */
const MAX_BYTES = 400_000
const MAX_PIXELS = 1_000_000

let s: TestServer
let close: () => Promise<void>
let origin: string
let ref: string
let anonKey: string
let serviceKey: string
let admin: SupabaseClient
let anon: SupabaseClient

function client(key: string): SupabaseClient {
  return createClient(`${origin}/p/${ref}`, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })
}

const storageUrl = (p: string) => `${origin}/p/${ref}/storage/v1${p}`
const metaOf = async (blob: Blob | Buffer) => sharp(Buffer.isBuffer(blob) ? blob : Buffer.from(await blob.arrayBuffer())).metadata()

/** A 400 × 300 picture: a colour gradient, so resizing and quality change real pixels. */
async function photo(format: 'png' | 'jpeg') {
  const [width, height] = [400, 300]
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) raw.set([x % 256, y % 256, (x * y) % 256], (y * width + x) * 3)
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer()
}

/** Noise compresses badly: a PNG of it is over MAX_BYTES while under MAX_PIXELS. */
async function noise(width: number, height: number) {
  const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer()
  expect(png.length).toBeGreaterThan(MAX_BYTES)
  return png
}

beforeAll(async () => {
  s = await startTestServer({ config: { storage: { maxBytes: MAX_BYTES, maxPixels: MAX_PIXELS } } })
  ;({ origin, close } = await listenOnPort(s))
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  const keys = (await findProjectKeys(s.db, project.id))!
  anonKey = keys.anon_key
  serviceKey = keys.service_role_key
  admin = client(serviceKey)
  anon = client(anonKey)
  for (const [name, isPublic] of [['pictures', false], ['shown', true]] as const) {
    const { error } = await admin.storage.createBucket(name, { public: isPublic })
    expect(error).toBeNull()
  }
  const uploads: Array<[string, string, Buffer, string]> = [
    ['pictures', 'cat.png', await photo('png'), 'image/png'],
    ['pictures', 'cat.jpg', await photo('jpeg'), 'image/jpeg'],
    ['pictures', 'notes.txt', Buffer.from('not a picture'), 'text/plain'],
    // One colour: a few kilobytes, but 1.1 megapixels.
    ['pictures', 'huge.png', await sharp({ create: { width: 1100, height: 1000, channels: 3, background: '#336699' } }).png().toBuffer(), 'image/png'],
    ['pictures', 'heavy.png', await noise(500, 500), 'image/png'],
    ['shown', 'dog.jpg', await photo('jpeg'), 'image/jpeg'],
  ]
  for (const [bucket, name, body, contentType] of uploads) {
    const { error } = await admin.storage.from(bucket).upload(name, body, { contentType })
    expect(error).toBeNull()
  }
}, 120_000)

afterAll(async () => {
  await close?.()
  if (ref) await s?.objects.removeProject(ref)
  await s?.close()
})

describe('image transformations with supabase-js', () => {
  it('download with transform: cover crops to the box, contain fits inside it, fill stretches; the format stays', async () => {
    const files = admin.storage.from('pictures')
    const cover = await files.download('cat.png', { transform: { width: 100, height: 100, resize: 'cover' } })
    expect(cover.error).toBeNull()
    expect(cover.data!.type).toBe('image/png')
    expect(await metaOf(cover.data!)).toMatchObject({ format: 'png', width: 100, height: 100 })

    const contain = await files.download('cat.png', { transform: { width: 100, height: 100, resize: 'contain' } })
    expect(await metaOf(contain.data!)).toMatchObject({ width: 100, height: 75 })

    const fill = await files.download('cat.png', { transform: { width: 100, height: 40, resize: 'fill' } })
    expect(await metaOf(fill.data!)).toMatchObject({ width: 100, height: 40 })

    // One side only keeps the ratio.
    const wide = await files.download('cat.jpg', { transform: { width: 200 } })
    expect(await metaOf(wide.data!)).toMatchObject({ format: 'jpeg', width: 200, height: 150 })
  })

  it('quality changes the bytes of a JPEG; WebP when the request accepts it, unless format=origin', async () => {
    const files = admin.storage.from('pictures')
    const low = await files.download('cat.jpg', { transform: { width: 300, quality: 20 } })
    const high = await files.download('cat.jpg', { transform: { width: 300, quality: 100 } })
    expect(low.data!.size).toBeLessThan(high.data!.size / 2)

    const serviceHeaders = { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, accept: 'image/webp,image/*' }
    const webp = await fetch(storageUrl('/render/image/authenticated/pictures/cat.png?width=50'), { headers: serviceHeaders })
    expect(webp.status).toBe(200)
    expect(webp.headers.get('content-type')).toBe('image/webp')
    expect(webp.headers.get('vary')).toBe('Accept')
    expect(await metaOf(Buffer.from(await webp.arrayBuffer()))).toMatchObject({ format: 'webp', width: 50 })
    const origin = await fetch(storageUrl('/render/image/authenticated/pictures/cat.png?width=50&format=origin'), { headers: serviceHeaders })
    expect(origin.headers.get('content-type')).toBe('image/png')
    const head = await fetch(storageUrl('/render/image/authenticated/pictures/cat.png?width=50&format=origin'), { method: 'HEAD', headers: serviceHeaders })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(origin.headers.get('content-length'))
  })

  it('getPublicUrl with transform opens without a key on a public bucket, and never on a private one', async () => {
    const { data } = anon.storage.from('shown').getPublicUrl('dog.jpg', { transform: { width: 64, height: 64 } })
    expect(data.publicUrl).toBe(storageUrl('/render/image/public/shown/dog.jpg?width=64&height=64'))
    const res = await fetch(data.publicUrl)
    expect(res.status).toBe(200)
    expect(await metaOf(Buffer.from(await res.arrayBuffer()))).toMatchObject({ format: 'jpeg', width: 64, height: 64 })

    const hidden = await fetch(anon.storage.from('pictures').getPublicUrl('cat.png', { transform: { width: 64 } }).data.publicUrl)
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' })
  })

  it('a signed URL made with transform serves the transformation its token carries, whatever the URL adds', async () => {
    const { data, error } = await admin.storage.from('pictures').createSignedUrl('cat.png', 60, { transform: { width: 80, height: 80 } })
    expect(error).toBeNull()
    expect(data!.signedUrl).toContain('/render/image/sign/pictures/cat.png?token=')
    const res = await fetch(data!.signedUrl)
    expect(res.status).toBe(200)
    expect(await metaOf(Buffer.from(await res.arrayBuffer()))).toMatchObject({ width: 80, height: 80 })
    const widened = await fetch(`${data!.signedUrl}&width=300`)
    expect(await metaOf(Buffer.from(await widened.arrayBuffer()))).toMatchObject({ width: 80 })
    // A token for another object does not open this one.
    const other = data!.signedUrl.replace('/cat.png?', '/cat.jpg?')
    const refused = await fetch(other)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: 'InvalidSignature' })
  })

  it('row level security decides the authenticated route: anon without a policy finds nothing', async () => {
    const { data, error } = await anon.storage.from('pictures').download('cat.png', { transform: { width: 10 } })
    expect(data).toBeNull()
    expect(error).not.toBeNull()
    const res = await fetch(storageUrl('/render/image/authenticated/pictures/cat.png?width=10'), { headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ statusCode: '404', error: 'not_found', message: 'Object not found' })
  })
})

describe('image transformations: bad input', () => {
  const ask = async (query: string, name = 'cat.png') => {
    const res = await fetch(storageUrl(`/render/image/authenticated/pictures/${name}?${query}`), { headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` } })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  it('refuses options out of range with 400, naming the option', async () => {
    for (const [query, message] of [
      ['width=0', 'Invalid transformation: width must be at least 1'],
      ['height=2501', 'Invalid transformation: height must be at most 2500'],
      ['width=12.5', 'Invalid transformation: width must be a whole number'],
      ['width=abc', 'Invalid transformation: width '],
      ['quality=5', 'Invalid transformation: quality must be at least 20'],
      ['resize=stretch', 'Invalid transformation: resize '],
      ['format=bmp', 'Invalid transformation: format '],
    ] as const) {
      const { status, body } = await ask(query)
      expect([query, status, body.statusCode, body.error]).toEqual([query, 400, '400', 'InvalidRequest'])
      expect(body.message, query).toContain(message)
    }
    const signed = await admin.storage.from('pictures').createSignedUrl('cat.png', 60, { transform: { width: 9000 } })
    expect(signed.error?.message).toBe('Invalid transformation: width must be at most 2500')
  })

  it('refuses an object that is not an image with 422, and images over the byte or pixel limit with 413', async () => {
    expect(await ask('width=10', 'notes.txt')).toEqual({ status: 422, body: { statusCode: '422', error: 'InvalidImage', message: 'The object is not an image that can be transformed' } })
    const heavy = await ask('width=10', 'heavy.png')
    expect(heavy.status).toBe(413)
    expect(heavy.body.message).toMatch(new RegExp(`^The image is \\d+ bytes: images over ${MAX_BYTES} bytes are not transformed$`))
    expect(await ask('width=10', 'huge.png')).toEqual({
      status: 413,
      body: { statusCode: '413', error: 'Payload too large', message: `The image has more than ${MAX_PIXELS} pixels: it is not transformed` },
    })
    // The objects themselves still download as they are.
    const { data } = await admin.storage.from('pictures').download('huge.png')
    expect(await metaOf(data!)).toMatchObject({ width: 1100, height: 1000 })
  })

  it('answers 404 for an object that does not exist', async () => {
    expect(await ask('width=10', 'missing.png')).toEqual({ status: 404, body: { statusCode: '404', error: 'not_found', message: 'Object not found' } })
  })
})

describe('the /object/… form: ?width=&height=&resize=&quality=&format= on an object URL', () => {
  const serviceHeaders = () => ({ apikey: serviceKey, authorization: `Bearer ${serviceKey}` })
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer())

  it('transforms on /object/{bucket}/… and /object/authenticated/…, through the same cache as /render/image', async () => {
    // Options no other test asks for, so the first answer cannot come from the cache.
    const first = await fetch(storageUrl('/object/pictures/cat.png?width=123&height=77&resize=fill'), { headers: serviceHeaders() })
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/png')
    expect(first.headers.get('x-cache')).toBe('MISS')
    const firstBytes = await bytesOf(first)
    expect(await metaOf(firstBytes)).toMatchObject({ format: 'png', width: 123, height: 77 })

    const rendered = await fetch(storageUrl('/render/image/authenticated/pictures/cat.png?width=123&height=77&resize=fill'), { headers: serviceHeaders() })
    expect(rendered.headers.get('x-cache')).toBe('HIT')
    expect((await bytesOf(rendered)).equals(firstBytes)).toBe(true)

    const again = await fetch(storageUrl('/object/authenticated/pictures/cat.png?resize=fill&height=77&width=123'), { headers: serviceHeaders() })
    expect(again.headers.get('x-cache')).toBe('HIT')
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true)

    const wide = await fetch(storageUrl('/object/authenticated/pictures/cat.jpg?width=200&quality=60'), { headers: serviceHeaders() })
    const wideBytes = await bytesOf(wide)
    expect(await metaOf(wideBytes)).toMatchObject({ format: 'jpeg', width: 200, height: 150 })
    const head = await fetch(storageUrl('/object/authenticated/pictures/cat.jpg?width=200&quality=60'), { method: 'HEAD', headers: serviceHeaders() })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(wideBytes.length))
  })

  it('without any option the URL serves the stored bytes as they are, ranges included', async () => {
    const original = await photo('png')
    const plain = await fetch(storageUrl('/object/pictures/cat.png?download='), { headers: serviceHeaders() })
    expect(plain.status).toBe(200)
    expect(plain.headers.get('x-cache')).toBeNull()
    expect((await bytesOf(plain)).equals(original)).toBe(true)
    const part = await fetch(storageUrl('/object/pictures/cat.png?width='), { headers: { ...serviceHeaders(), range: 'bytes=0-9' } })
    expect(part.status).toBe(206)
    expect((await bytesOf(part)).equals(original.subarray(0, 10))).toBe(true)
  })

  it('WebP when the request accepts it, unless format=origin; download= names the file', async () => {
    const headers = { ...serviceHeaders(), accept: 'image/webp,image/*' }
    const webp = await fetch(storageUrl('/object/pictures/cat.png?width=40'), { headers })
    expect(webp.headers.get('content-type')).toBe('image/webp')
    expect(await metaOf(await bytesOf(webp))).toMatchObject({ format: 'webp', width: 40 })
    const kept = await fetch(storageUrl('/object/pictures/cat.png?width=40&format=origin&download=small.png'), { headers })
    expect(kept.headers.get('content-type')).toBe('image/png')
    expect(kept.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''small.png")
  })

  it('on /object/public/… without a key for a public bucket, never for a private one', async () => {
    const res = await fetch(storageUrl('/object/public/shown/dog.jpg?width=64&height=64'))
    expect(res.status).toBe(200)
    expect(await metaOf(await bytesOf(res))).toMatchObject({ format: 'jpeg', width: 64, height: 64 })
    const hidden = await fetch(storageUrl('/object/public/pictures/cat.png?width=64'))
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' })
  })

  it('a signed object URL serves what its token says: the original, or the transformation the token carries', async () => {
    const plain = await admin.storage.from('pictures').createSignedUrl('cat.png', 60)
    const widened = await fetch(`${plain.data!.signedUrl}&width=50`)
    expect(widened.status).toBe(200)
    expect(await metaOf(await bytesOf(widened))).toMatchObject({ width: 400, height: 300 })

    const shaped = await admin.storage.from('pictures').createSignedUrl('cat.png', 60, { transform: { width: 70, height: 70 } })
    const asObject = shaped.data!.signedUrl.replace('/render/image/sign/', '/object/sign/')
    expect(await metaOf(await bytesOf(await fetch(asObject)))).toMatchObject({ width: 70, height: 70 })
  })

  it('keys the cache by the object version: a new upload at the same path is transformed anew', async () => {
    const files = admin.storage.from('pictures')
    expect((await files.upload('swap.png', await photo('png'), { contentType: 'image/png' })).error).toBeNull()
    const before = await fetch(storageUrl('/object/pictures/swap.png?width=100'), { headers: serviceHeaders() })
    expect(await metaOf(await bytesOf(before))).toMatchObject({ width: 100, height: 75 })
    const square = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#aa3300' } }).png().toBuffer()
    expect((await files.upload('swap.png', square, { contentType: 'image/png', upsert: true })).error).toBeNull()
    const after = await fetch(storageUrl('/object/pictures/swap.png?width=100'), { headers: serviceHeaders() })
    expect(after.headers.get('x-cache')).toBe('MISS')
    expect(await metaOf(await bytesOf(after))).toMatchObject({ width: 100, height: 100 })
  })

  it('bad input: 400 for a bad option, 422 for what is not an image, 413 past the limits, 404 where RLS hides the row', async () => {
    const ask = async (p: string, headers: Record<string, string> = serviceHeaders()) => {
      const res = await fetch(storageUrl(p), { headers })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    expect(await ask('/object/pictures/cat.png?width=0')).toEqual({
      status: 400,
      body: { statusCode: '400', error: 'InvalidRequest', message: 'Invalid transformation: width must be at least 1' },
    })
    expect((await ask('/object/public/shown/dog.jpg?quality=101', {})).body.message).toBe('Invalid transformation: quality must be at most 100')
    expect(await ask('/object/pictures/notes.txt?width=10')).toEqual({
      status: 422,
      body: { statusCode: '422', error: 'InvalidImage', message: 'The object is not an image that can be transformed' },
    })
    expect((await ask('/object/pictures/heavy.png?width=10')).status).toBe(413)
    expect(await ask('/object/authenticated/pictures/huge.png?height=10')).toEqual({
      status: 413,
      body: { statusCode: '413', error: 'Payload too large', message: `The image has more than ${MAX_PIXELS} pixels: it is not transformed` },
    })
    expect(await ask('/object/pictures/cat.png?width=10', { apikey: anonKey, authorization: `Bearer ${anonKey}` })).toEqual({
      status: 404,
      body: { statusCode: '404', error: 'not_found', message: 'Object not found' },
    })
    // The text itself still downloads.
    const text = await fetch(storageUrl('/object/pictures/notes.txt'), { headers: serviceHeaders() })
    expect(await text.text()).toBe('not a picture')
  })
})
