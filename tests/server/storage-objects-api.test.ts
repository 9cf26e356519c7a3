/**
 * The storage service of a project (/p/{ref}/storage/v1) driven by the real client, supabase-js, over HTTP: the API
 * docs panel's storage snippets run as written, buckets, uploads (raw and multipart, upsert), downloads
 * (authenticated, public, HEAD, Range), folders in lists, move, copy, remove, signed URLs and signed upload URLs,
 * info; and row level security on storage.objects deciding what each user sees.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import WebSocket from 'ws'
import type { Bucket } from '../../src/contracts/storage'
import { moveFolder } from '../../src/api/calls/storageObjects'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { bucketSnippets } from '../../src/views/project/apiDocs/snippets'
import type { SnippetContext } from '../../src/views/project/apiDocs/snippets/types'
import { BYTES_PER_GB } from '../../src/contracts/measured'
import { OrgUsageResponse } from '../../src/contracts/usage'
import { OWNER, projectByName, startTestServer, storageLeftovers, type TestServer, listenOnPort } from './helpers'

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>

let s: TestServer
let close: () => Promise<void>
let origin: string
let ref: string
let keys: { anon: string; service: string; secret: string }
let admin: SupabaseClient

function client(key: string, accessToken?: string): SupabaseClient {
  return createClient(`${origin}/p/${ref}`, key, {
    // Node 20 has no global WebSocket: supabase-js asks for a transport even when realtime is never used.
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
    ...(accessToken ? { accessToken: async () => accessToken } : {}),
  })
}

const userToken = (sub: string) =>
  new SignJWT({ role: 'authenticated', sub, ref })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(s.clock.epoch())
    .setExpirationTime(s.clock.epoch(3600))
    .sign(new TextEncoder().encode(keys.secret))

/** SQL as the project's owner (policies, auth.uid()). */
const ownerSql = (sql: string) => s.projectDbs.transaction(ref, { role: 'postgres' }, (tx) => tx.exec(sql))

const storageUrl = (p: string) => `${origin}/p/${ref}/storage/v1${p}`

beforeAll(async () => {
  s = await startTestServer()
  ;({ origin, close } = await listenOnPort(s))
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  const row = (await findProjectKeys(s.db, project.id))!
  keys = { anon: row.anon_key, service: row.service_role_key, secret: row.jwt_secret }
  admin = client(keys.service)
  // auth.uid() as the platform defines it, unless the template has it already (the auth service makes it).
  await ownerSql(`
    do $$
    begin
      if to_regprocedure('auth.uid()') is null then
        create schema if not exists auth;
        create or replace function auth.uid() returns uuid language sql stable as $f$
          select nullif(coalesce(current_setting('request.jwt.claim.sub', true),
            (current_setting('request.jwt.claims', true)::jsonb ->> 'sub')), '')::uuid
        $f$;
        grant usage on schema auth to anon, authenticated, service_role;
        grant execute on function auth.uid() to anon, authenticated, service_role;
      end if;
    end
    $$;`)
}, 120_000)

afterAll(async () => {
  await close?.()
  if (ref) await s?.objects.removeProject(ref)
  await s?.close()
})

const text = async (blob: Blob | null) => (blob ? await blob.text() : null)

describe('the API docs storage snippets, run with supabase-js', () => {
  const buckets: Array<Pick<Bucket, 'name' | 'public'>> = [
    { name: 'docs-public', public: true },
    { name: 'docs private ü', public: false },
  ]

  beforeAll(async () => {
    for (const b of buckets) {
      const { error } = await admin.storage.createBucket(b.name, { public: b.public })
      expect(error).toBeNull()
    }
    // The snippets carry the anon key: as on the platform, a policy lets anon use these two buckets.
    await ownerSql(`
      create policy "docs anon all" on storage.objects for all to anon
        using (bucket_id in ('docs-public', 'docs private ü')) with check (bucket_id in ('docs-public', 'docs private ü'));`)
  })

  for (const keyName of ['anon', 'service'] as const) {
    it(`every snippet of a public and a private bucket works (${keyName} key)`, async () => {
      const key = keyName === 'anon' ? keys.anon : keys.service
      const ctx: SnippetContext = { projectUrl: `${origin}/p/${ref}`, anonKey: key, serviceKey: keys.service }
      const event = { target: { files: [new File(['hello storage'], 'avatar1.png', { type: 'image/png' })] } }
      for (const b of buckets) {
        const snippets = bucketSnippets({ ...b, id: b.name, owner: '', allowed_mime_types: null, file_size_limit: null, created_at: '', updated_at: '' }, ctx)
        const results: Record<string, { data: unknown; error: unknown }> = {}
        for (const sn of snippets) {
          const fn = new AsyncFunction('supabase', 'event', `${sn.js!}\nreturn typeof error === 'undefined' ? { data, error: null } : { data, error }`)
          results[sn.id] = (await fn(client(key), event)) as { data: unknown; error: unknown }
          expect(results[sn.id].error, `${b.name} ${sn.id}`).toBeNull()
          if (sn.id === 'download-a-file') expect(await text(results[sn.id].data as Blob)).toBe('hello storage')
          if (sn.id === 'list-files') expect((results[sn.id].data as Array<{ name: string }>).map((f) => f.name)).toEqual(['avatar1.png'])
          if (sn.id === 'create-a-signed-url') {
            const res = await fetch((results[sn.id].data as { signedUrl: string }).signedUrl)
            expect(res.status).toBe(200)
            expect(await res.text()).toBe('hello storage')
          }
          if (sn.id === 'retrieve-public-url') {
            const res = await fetch((results[sn.id].data as { publicUrl: string }).publicUrl)
            expect(res.status).toBe(200)
            expect(res.headers.get('content-type')).toBe('image/png')
            expect(await res.text()).toBe('hello storage')
          }
          if (sn.id === 'delete-files') expect((results[sn.id].data as Array<{ name: string }>).map((f) => f.name)).toEqual(['folder/avatar1.png'])
        }
        expect((await admin.storage.from(b.name).list('folder')).data).toEqual([])
      }
    })
  }
})

describe('buckets', () => {
  it('creates, reads, updates, lists, empties and deletes a bucket; a bucket with objects is not deleted', async () => {
    expect(await admin.storage.createBucket('crud', { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['image/*'] })).toEqual({
      data: { name: 'crud' },
      error: null,
    })
    const got = await admin.storage.getBucket('crud')
    expect(got.data).toMatchObject({ id: 'crud', name: 'crud', public: false, file_size_limit: 1_000_000, allowed_mime_types: ['image/*'] })
    expect((await admin.storage.updateBucket('crud', { public: true, fileSizeLimit: 2048 })).data).toEqual({ message: 'Successfully updated' })
    expect((await admin.storage.getBucket('crud')).data).toMatchObject({ public: true, file_size_limit: 2048, allowed_mime_types: ['image/*'] })
    expect((await admin.storage.listBuckets()).data?.map((b) => b.name)).toContain('crud')
    const dup = await admin.storage.createBucket('crud')
    expect(dup.error).toMatchObject({ status: 409, statusCode: '409', message: 'The resource already exists' })

    await admin.storage.from('crud').upload('a.png', new Blob(['x'], { type: 'image/png' }))
    const notEmpty = await admin.storage.deleteBucket('crud')
    expect(notEmpty.error).toMatchObject({ status: 409, message: 'The bucket you tried to delete is not empty' })
    expect((await admin.storage.emptyBucket('crud')).data).toEqual({ message: 'Successfully emptied' })
    expect((await admin.storage.deleteBucket('crud')).data).toEqual({ message: 'Successfully deleted' })
    expect((await admin.storage.getBucket('crud')).error).toMatchObject({ status: 404, message: 'Bucket not found' })
  })

  it('row level security hides buckets from anon (no policy), as on the platform', async () => {
    await admin.storage.createBucket('hidden')
    expect((await client(keys.anon).storage.listBuckets()).data).toEqual([])
    const made = await client(keys.anon).storage.createBucket('by-anon')
    expect(made.error).toMatchObject({ status: 403, message: 'new row violates row-level security policy' })
  })
})

describe('objects', () => {
  beforeAll(async () => {
    await admin.storage.createBucket('files', { public: false })
    await admin.storage.createBucket('images', { public: true, allowedMimeTypes: ['image/*'], fileSizeLimit: 1024 })
  })

  it('uploads raw and multipart, refuses a taken path without upsert, replaces with it, downloads what was stored', async () => {
    const files = admin.storage.from('files')
    // A Blob goes as a multipart form; an ArrayBuffer as the raw body.
    expect(await files.upload('a/one.txt', new Blob(['first'], { type: 'text/plain' }))).toMatchObject({
      data: { path: 'a/one.txt', fullPath: 'files/a/one.txt', id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      error: null,
    })
    expect((await files.upload('a/raw.bin', new TextEncoder().encode('raw bytes'), { contentType: 'application/octet-stream' })).error).toBeNull()
    const again = await files.upload('a/one.txt', new Blob(['second']))
    expect(again.error).toMatchObject({ status: 409, statusCode: '409', message: 'The resource already exists' })
    expect(await text((await files.download('a/one.txt')).data)).toBe('first')
    expect((await files.upload('a/one.txt', new Blob(['second']), { upsert: true })).error).toBeNull()
    expect(await text((await files.download('a/one.txt')).data)).toBe('second')
    expect((await files.update('a/one.txt', new Blob(['third']))).error).toBeNull()
    expect(await text((await files.download('a/raw.bin')).data)).toBe('raw bytes')
    expect(await text((await files.download('a/one.txt')).data)).toBe('third')
  })

  it('answers HEAD, Range and info; exists() tells a missing object', async () => {
    const files = admin.storage.from('files')
    await files.upload('range.txt', new Blob(['0123456789'], { type: 'text/plain' }), { cacheControl: '60' })
    const head = await fetch(storageUrl('/object/files/range.txt'), { method: 'HEAD', headers: { authorization: `Bearer ${keys.service}` } })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('10')
    expect(head.headers.get('cache-control')).toBe('max-age=60')
    expect(head.headers.get('etag')).toBe('"781e5e245d69b566979b86e28d23f2c7"')
    const part = await fetch(storageUrl('/object/files/range.txt'), { headers: { authorization: `Bearer ${keys.service}`, range: 'bytes=2-5' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10')
    expect(await part.text()).toBe('2345')
    const tail = await fetch(storageUrl('/object/files/range.txt'), { headers: { authorization: `Bearer ${keys.service}`, range: 'bytes=-3' } })
    expect(await tail.text()).toBe('789')
    const bad = await fetch(storageUrl('/object/files/range.txt'), { headers: { authorization: `Bearer ${keys.service}`, range: 'bytes=20-' } })
    expect(bad.status).toBe(416)
    expect(bad.headers.get('content-range')).toBe('bytes */10')
    const info = await files.info('range.txt')
    expect(info.data).toMatchObject({ name: 'range.txt', bucketId: 'files', size: 10, contentType: 'text/plain', cacheControl: 'max-age=60' })
    expect((await files.exists('range.txt')).data).toBe(true)
    expect((await files.exists('nothing.txt')).data).toBe(false)
    const missing = await files.download('nothing.txt')
    expect(missing.error).toBeTruthy()
  })

  it('lists one folder: sub-folders once (no id) before files, search, limit, offset and sort', async () => {
    const files = admin.storage.from('files')
    for (const name of ['list/b.txt', 'list/a.txt', 'list/sub/x.txt', 'list/sub/y.txt', 'list/other/z.txt', 'list/C.md']) {
      expect((await files.upload(name, new Blob([name]))).error).toBeNull()
    }
    const { data } = await files.list('list')
    expect(data?.map((f) => [f.name, f.id === null])).toEqual([
      ['other', true],
      ['sub', true],
      ['C.md', false],
      ['a.txt', false],
      ['b.txt', false],
    ])
    expect(data?.find((f) => f.name === 'a.txt')?.metadata).toMatchObject({ size: 10, mimetype: 'application/octet-stream' })
    expect((await files.list('list', { search: 'TXT' })).data?.map((f) => f.name)).toEqual(['a.txt', 'b.txt'])
    expect((await files.list('list', { limit: 2, offset: 2 })).data?.map((f) => f.name)).toEqual(['C.md', 'a.txt'])
    expect((await files.list('list', { sortBy: { column: 'name', order: 'desc' } })).data?.map((f) => f.name)).toEqual(['sub', 'other', 'b.txt', 'a.txt', 'C.md'])
    expect((await files.list('list/sub/')).data?.map((f) => f.name)).toEqual(['x.txt', 'y.txt'])
    expect((await files.list('')).data?.map((f) => f.name)).toContain('list')
  })

  it('moves, copies and removes many', async () => {
    const files = admin.storage.from('files')
    await files.upload('mv/from.txt', new Blob(['moving']))
    expect((await files.move('mv/from.txt', 'mv/to.txt')).data).toEqual({ message: 'Successfully moved' })
    expect((await files.download('mv/from.txt')).error).toBeTruthy()
    expect(await text((await files.download('mv/to.txt')).data)).toBe('moving')
    expect((await files.copy('mv/to.txt', 'mv/copy.txt')).data).toEqual({ path: 'files/mv/copy.txt' })
    expect(await text((await files.download('mv/copy.txt')).data)).toBe('moving')
    expect((await files.move('mv/nothing.txt', 'mv/x.txt')).error).toMatchObject({ status: 404 })
    const removed = await files.remove(['mv/to.txt', 'mv/copy.txt', 'mv/never.txt'])
    expect(removed.data?.map((f) => f.name).sort()).toEqual(['mv/copy.txt', 'mv/to.txt'])
    expect((await files.list('mv')).data).toEqual([])
  })

  it("moves a folder as the file browser does: every object under it, one /object/move each", async () => {
    const files = admin.storage.from('files')
    for (const name of ['trip/day1.txt', 'trip/photos/beach.txt', 'trip/photos/deep/shell.txt', 'tripod.txt']) {
      expect((await files.upload(name, new Blob([`bytes of ${name}`], { type: 'text/plain' }))).error).toBeNull()
    }
    const moved = await moveFolder({ url: storageUrl(''), key: keys.service }, 'files', 'trip', 'archive/2026/trip')
    expect(moved).toBe(3)
    const names = async (prefix: string) => ((await files.list(prefix)).data ?? []).map((f) => f.name)
    // The old folder is gone (a name merely starting with it stays), the new one holds everything, bytes and all.
    expect(await names('trip')).toEqual([])
    expect((await names('')).filter((n) => n.startsWith('trip'))).toEqual(['tripod.txt'])
    expect(await names('archive/2026/trip')).toEqual(['photos', 'day1.txt'])
    expect(await names('archive/2026/trip/photos')).toEqual(['deep', 'beach.txt'])
    expect(await text((await files.download('archive/2026/trip/photos/deep/shell.txt')).data)).toBe('bytes of trip/photos/deep/shell.txt')
    // A folder moved onto a taken name stops at the object that collides, with storage's message.
    await files.upload('other/day1.txt', new Blob(['taken']))
    await expect(moveFolder({ url: storageUrl(''), key: keys.service }, 'files', 'archive/2026/trip', 'other')).rejects.toThrow('The resource already exists')
  })

  it('signs URLs that expire and fit one path only; signs many; signed upload URLs upload once', async () => {
    const files = admin.storage.from('files')
    await files.upload('signed/a.txt', new Blob(['signed a']))
    await files.upload('signed/b.txt', new Blob(['signed b']))
    const { data } = await files.createSignedUrl('signed/a.txt', 60)
    const res = await fetch(data!.signedUrl)
    expect(await res.text()).toBe('signed a')
    // The token of a.txt on b.txt's path
    const forged = data!.signedUrl.replace('signed/a.txt', 'signed/b.txt')
    expect(await (await fetch(forged)).json()).toEqual({ statusCode: '400', error: 'InvalidSignature', message: 'The url do not match the signature' })
    s.clock.advance(61_000)
    expect(await (await fetch(data!.signedUrl)).json()).toEqual({ statusCode: '400', error: 'InvalidJWT', message: '"exp" claim timestamp check failed' })
    const many = await files.createSignedUrls(['signed/a.txt', 'signed/none.txt'], 60)
    expect(many.data?.map((d) => [d.path, d.error])).toEqual([
      ['signed/a.txt', null],
      ['signed/none.txt', 'Either the object does not exist or you do not have access to it'],
    ])
    expect(await (await fetch(many.data![0].signedUrl!)).text()).toBe('signed a')

    const up = await files.createSignedUploadUrl('signed/up.txt')
    expect(up.error).toBeNull()
    expect((await files.uploadToSignedUrl('signed/up.txt', up.data!.token, new Blob(['via signed url']))).error).toBeNull()
    expect(await text((await files.download('signed/up.txt')).data)).toBe('via signed url')
    const twice = await files.uploadToSignedUrl('signed/up.txt', up.data!.token, new Blob(['again']))
    expect(twice.error).toMatchObject({ status: 409 })
  })

  it('enforces a bucket’s MIME types (wildcards) and size limit; serves a public bucket without a key', async () => {
    const images = admin.storage.from('images')
    expect((await images.upload('ok.png', new Blob(['png'], { type: 'image/png' }))).error).toBeNull()
    const wrong = await images.upload('no.txt', new Blob(['text'], { type: 'text/plain' }))
    expect(wrong.error).toMatchObject({ status: 415, message: 'mime type text/plain is not supported' })
    const big = await images.upload('big.png', new Blob([new Uint8Array(2048)], { type: 'image/png' }))
    expect(big.error).toMatchObject({ status: 413, message: 'The object exceeded the maximum allowed size' })
    expect((await images.list()).data?.map((f) => f.name)).toEqual(['ok.png'])
    const pub = await fetch(images.getPublicUrl('ok.png').data.publicUrl)
    expect(pub.status).toBe(200)
    expect(await pub.text()).toBe('png')
    const notPublic = await fetch(storageUrl('/object/public/files/signed/a.txt'))
    expect(notPublic.status).toBe(404)
    expect(await notPublic.json()).toEqual({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' })
    const noKey = await fetch(storageUrl('/object/files/signed/a.txt'))
    expect(noKey.status).toBe(401)
    expect(await noKey.json()).toMatchObject({ statusCode: '401', error: 'Unauthorized' })
  })

  it("keeps the bytes in the project's object store, each version named by a row, and nothing unfinished", async () => {
    // The store this run's project asked for: the S3-compatible server in server-s3, the disk elsewhere.
    expect(s.objects.kind).toBe(inject('storageS3Url') ? 's3' : 'disk')
    expect(await storageLeftovers(s, ref)).toEqual([])
    expect((await s.objects.stored(ref)).length).toBeGreaterThan(0)
  })
})

describe('row level security on storage.objects', () => {
  const alice = '11111111-1111-4111-8111-111111111111'
  const bob = '22222222-2222-4222-8222-222222222222'

  beforeAll(async () => {
    await admin.storage.createBucket('homes')
    await ownerSql(`
      create policy "own folder read" on storage.objects for select to authenticated
        using (bucket_id = 'homes' and (storage.foldername(name))[1] = auth.uid()::text);
      create policy "own folder write" on storage.objects for insert to authenticated
        with check (bucket_id = 'homes' and (storage.foldername(name))[1] = auth.uid()::text);`)
  })

  it('lets each user write and read only their own folder; service_role sees all', async () => {
    const asAlice = client(keys.anon, await userToken(alice)).storage.from('homes')
    const asBob = client(keys.anon, await userToken(bob)).storage.from('homes')
    expect((await asAlice.upload(`${alice}/note.txt`, new Blob(['alice']))).error).toBeNull()
    expect((await asBob.upload(`${bob}/note.txt`, new Blob(['bob']))).error).toBeNull()
    const intrusion = await asBob.upload(`${alice}/evil.txt`, new Blob(['bob was here']))
    expect(intrusion.error).toMatchObject({ status: 403, message: 'new row violates row-level security policy' })

    expect(await text((await asAlice.download(`${alice}/note.txt`)).data)).toBe('alice')
    expect((await asBob.download(`${alice}/note.txt`)).error).toBeTruthy()
    expect((await asBob.list(alice)).data).toEqual([])
    expect((await asBob.createSignedUrl(`${alice}/note.txt`, 60)).error).toMatchObject({ status: 404 })
    expect((await asAlice.list(alice)).data?.map((f) => f.name)).toEqual(['note.txt'])
    // No delete policy: nothing is removed, not even one's own.
    expect((await asAlice.remove([`${alice}/note.txt`])).data).toEqual([])
    expect((await admin.storage.from('homes').list('')).data?.map((f) => f.name).sort()).toEqual([alice, bob].sort())
    const owner = await s.projectDbs.transaction(ref, { role: 'service_role' }, (tx) =>
      tx.query<{ owner: string; owner_id: string }>(`select owner::text, owner_id from storage.objects where name = $1`, [`${alice}/note.txt`]),
    )
    expect(owner.rows).toEqual([{ owner: alice, owner_id: alice }])
    // Anonymous callers are neither user.
    expect((await client(keys.anon).storage.from('homes').list(alice)).data).toEqual([])
  })
})

describe('usage', () => {
  it("counts the bytes of the project's objects as its storage size", async () => {
    const { rows } = await s.db.query<{ slug: string }>('select o.slug from organizations o join projects p on p.organization_id = o.id where p.ref = $1', [ref])
    const stored = await s.projectDbs.transaction(ref, { role: 'service_role' }, (tx) =>
      tx.query<{ bytes: number }>(`select sum((metadata->>'size')::bigint)::float8 as bytes from storage.objects`),
    )
    const bytes = Number(stored.rows[0].bytes)
    expect(bytes).toBeGreaterThan(0)
    const cookie = await s.signIn(OWNER)
    const day = s.clock.now().toISOString().slice(0, 10)
    const query = new URLSearchParams({ project_ref: ref, start: day, end: day })
    const res = await fetch(`${origin}/platform/organizations/${rows[0].slug}/usage?${query}`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const usage = OrgUsageResponse.parse(await res.json()).usages.find((u) => u.metric === 'STORAGE_SIZE')!
    expect(Math.round(usage.usage * BYTES_PER_GB)).toBe(bytes)
  })
})
