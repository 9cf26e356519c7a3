/**
 * STORAGE_S3_URL, read and refused without repeating its secret, and an S3-compatible store that refuses a request:
 * the storage API answers 503 in storage's shape naming the store's error code, and neither the answer nor the
 * server's logs carry the secret key. Runs in server-s3 only (s3.globalSetup.ts starts the store).
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { loadConfig, s3SettingsOf } from '../../src/server/config'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectByName, startTestServer, type TestServer } from './helpers'
import { TEST_S3_SECRET } from './s3.globalSetup'

describe('STORAGE_S3_URL', () => {
  it('names the endpoint, bucket, prefix, region and style; the credentials percent-decoded', () => {
    expect(s3SettingsOf('https://AKIAEXAMPLE:abc%2Fdef%2Bghi%3D@s3.eu-west-1.amazonaws.com/my-bucket/platform/objects?region=eu-west-1&style=virtual')).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'my-bucket',
      prefix: 'platform/objects/',
      region: 'eu-west-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'abc/def+ghi=',
      forcePathStyle: false,
    })
    expect(s3SettingsOf('http://minio:minio-secret@127.0.0.1:9000/objects')).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'objects',
      prefix: '',
      region: 'us-east-1',
      accessKeyId: 'minio',
      secretAccessKey: 'minio-secret',
      forcePathStyle: true,
    })
    expect(loadConfig({ STORAGE_S3_URL: 'http://k:s@127.0.0.1:9000/b' }).storageS3).toMatchObject({ bucket: 'b', secretAccessKey: 's' })
    expect(loadConfig({}).storageS3).toBeUndefined()
  })

  it.each([
    ['a scheme that is not http(s)', 'ftp://key:SECRETVALUE@host/bucket', /scheme 'ftp:'/],
    ['no bucket', 'http://key:SECRETVALUE@host/', /names no bucket/],
    ['no secret key', 'http://key@host/bucket', /names no access key id and secret key/],
    ['an unknown style', 'http://key:SECRETVALUE@host/bucket?style=odd', /style=odd/],
    ['an unknown parameter', 'http://key:SECRETVALUE@host/bucket?sessionToken=x', /unknown parameter 'sessionToken'/],
    ['no URL at all', '//key:SECRETVALUE@host/bucket', /is not a URL/],
  ])('refuses %s, saying what is wrong without repeating the URL', (_, url, why) => {
    let message = ''
    try {
      loadConfig({ STORAGE_S3_URL: url })
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(why)
    expect(message).toMatch(/^STORAGE_S3_URL /)
    expect(message).not.toContain('SECRETVALUE')
  })
})

describe('a store that refuses', () => {
  let s: TestServer
  let ref: string
  let service: string
  const logged: string[] = []

  beforeAll(async () => {
    // The run's store, with its credentials, and a bucket it does not have: every write is refused.
    const url = new URL(inject('storageS3Url'))
    url.pathname = '/no-such-bucket'
    s = await startTestServer({ config: { storageS3: s3SettingsOf(url.toString()), logRequests: true } })
    const project = await projectByName(s, 'Recipe Box')
    ref = project.ref
    service = (await findProjectKeys(s.db, project.id))!.service_role_key
    for (const method of ['log', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')))
    }
  }, 120_000)

  afterAll(async () => {
    vi.restoreAllMocks()
    await s?.close()
  })

  const storage = (p: string, init: RequestInit = {}) =>
    s.request(`/p/${ref}/storage/v1${p}`, { ...init, headers: { authorization: `Bearer ${service}`, ...(init.headers as Record<string, string>) } })

  it("answers 503 in storage's shape naming the store's error, with no credentials in the answer or the logs", async () => {
    expect(s.objects.kind).toBe('s3')
    const made = await storage('/bucket', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'refused' }) })
    expect(made.status).toBe(200)
    const up = await storage('/object/refused/a.txt', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'bytes' })
    const text = await up.text()
    expect(up.status).toBe(503)
    expect(JSON.parse(text)).toEqual({ statusCode: '503', error: 'Service unavailable', message: 'The object store did not take the request (NoSuchBucket)' })
    // Nothing was written: the row went with the refused bytes.
    const listed = await storage('/object/list/refused', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefix: '' }) })
    expect(await listed.json()).toEqual([])
    const usage = await s.objects.stored(ref).catch((err: Error) => err.message)
    for (const said of [text, ...logged, String(usage)]) {
      expect(said).not.toContain(TEST_S3_SECRET)
      expect(said).not.toContain(encodeURIComponent(TEST_S3_SECRET))
    }
    // The request log did run: what was checked is what the server says.
    expect(logged.join('\n')).toContain('/object/refused/a.txt')
  })
})
