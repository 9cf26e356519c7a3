/**
 * Storage buckets (rows of storage.buckets in each project's own database) through /platform/storage/{ref}/buckets:
 * the demo's buckets, create and delete with the name rules, permissions per role (every member reads: a Read-only
 * member browses a bucket's files and downloads them through a signed URL; changes need project_storage:all), the
 * project whose storage is not configured ('Tenant config … not found'), a non-member, a paused project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Bucket, BucketList, DeleteBucketResponse, isTenantConfigNotFound } from '../../src/contracts/storage'
import { MemberSignedUrl, StorageList } from '../../src/contracts/storageObjects'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
let developer: string
let readonly: string
let recipes: string
let storefront: string
let legacy: string
let paused: string
let foreign: string

const buckets = (ref: string) => `/platform/storage/${ref}/buckets`
const bucket = (ref: string, id: string) => `${buckets(ref)}/${encodeURIComponent(id)}`

async function list(ref: string, cookie = owner): Promise<BucketList> {
  const res = await s.request(buckets(ref), { headers: { cookie } })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return BucketList.parse(body)
}

const create = (ref: string, body: unknown, cookie = developer) => s.request(buckets(ref), json(body, { cookie }))
const remove = (ref: string, id: string, cookie = developer) => s.request(bucket(ref, id), { method: 'DELETE', headers: { cookie } })

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = (await res.json()) as { message: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
  return body
}

beforeAll(async () => {
  s = await startTestServer()
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  recipes = (await projectByName(s, 'Recipe Box')).ref
  storefront = (await projectByName(s, 'Acme Storefront')).ref
  legacy = (await projectByName(s, 'Legacy Blog')).ref
  paused = (await projectByName(s, 'Weekend Hackathon')).ref
  foreign = (await insertForeignOrganization(s.db)).ref
}, 120_000)
afterAll(() => s?.close())

describe('GET /platform/storage/{ref}/buckets', () => {
  it("lists the demo's buckets of Recipe Box from its database, by name, with their rules", async () => {
    const list1 = await list(recipes)
    expect(list1.map((b) => b.name)).toEqual(['drafts', 'recipe-photos'])
    const [drafts, photos] = list1
    expect(photos).toMatchObject({
      id: 'recipe-photos',
      owner: '',
      public: true,
      allowed_mime_types: ['image/png', 'image/jpeg', 'image/webp'],
      file_size_limit: 5 * 1024 * 1024,
    })
    expect(drafts).toMatchObject({ id: 'drafts', public: false, allowed_mime_types: null, file_size_limit: null })
    expect(Number.isNaN(Date.parse(photos.created_at))).toBe(false)
  })

  it("lists Acme Storefront's own buckets (each project's database holds its own)", async () => {
    const list2 = await list(storefront, developer)
    expect(list2.map(({ name, public: isPublic, allowed_mime_types, file_size_limit }) => ({ name, isPublic, allowed_mime_types, file_size_limit }))).toEqual([
      { name: 'invoices', isPublic: false, allowed_mime_types: ['application/pdf'], file_size_limit: 10 * 1024 * 1024 },
      { name: 'product-images', isPublic: true, allowed_mime_types: ['image/*'], file_size_limit: null },
    ])
  })

  it('answers no-store, as every API answer', async () => {
    const res = await s.request(buckets(recipes), { headers: { cookie: owner } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('needs a session', async () => {
    expect((await s.request(buckets(recipes))).status).toBe(401)
  })
})

describe('POST and DELETE /platform/storage/{ref}/buckets', () => {
  it('creates a private bucket with no limits by default (the name is the id), lists it, deletes it', async () => {
    const res = await create(recipes, { name: 'menus' })
    expect(res.status).toBe(201)
    const made = Bucket.parse(await res.json())
    expect(made).toMatchObject({ id: 'menus', name: 'menus', owner: '', public: false, allowed_mime_types: null, file_size_limit: null })
    expect((await list(recipes)).map((b) => b.id)).toEqual(['drafts', 'menus', 'recipe-photos'])

    const gone = await remove(recipes, 'menus')
    expect(gone.status).toBe(200)
    expect(DeleteBucketResponse.parse(await gone.json())).toEqual({ message: 'Successfully deleted' })
    expect((await list(recipes)).map((b) => b.id)).toEqual(['drafts', 'recipe-photos'])
  })

  it('keeps public, an empty list of types (none allowed) and a size limit as given', async () => {
    const res = await create(storefront, { name: 'locked', public: true, allowed_mime_types: [], file_size_limit: 1024 }, owner)
    expect(res.status).toBe(201)
    expect(Bucket.parse(await res.json())).toMatchObject({ public: true, allowed_mime_types: [], file_size_limit: 1024 })
    const listed = (await list(storefront)).find((b) => b.id === 'locked')
    expect(listed).toMatchObject({ public: true, allowed_mime_types: [], file_size_limit: 1024 })
    expect((await remove(storefront, 'locked', owner)).status).toBe(200)
  })

  it('takes names with spaces, quotes and unicode, and deletes them by their URL-encoded id', async () => {
    const name = `Rezept "Fotos" – d'été 🍰`
    const res = await create(recipes, { name })
    expect(res.status).toBe(201)
    expect(Bucket.parse(await res.json()).id).toBe(name)
    expect((await list(recipes)).some((b) => b.id === name)).toBe(true)
    expect((await remove(recipes, name)).status).toBe(200)
    expect((await list(recipes)).some((b) => b.id === name)).toBe(false)
  })

  it('a name already taken answers 409 and changes nothing', async () => {
    const body = await expectError(
      await create(recipes, { name: 'drafts', public: true }),
      409,
      "The resource already exists: this project has a bucket named 'drafts'",
    )
    expect(body).toMatchObject({ code: 'Duplicate' })
    expect((await list(recipes)).find((b) => b.id === 'drafts')?.public).toBe(false)
  })

  it.each([
    ['an empty name', { name: '' }, 'name: Bucket name is required'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name: Bucket name must be at most 100 characters'],
    ['a slash', { name: 'photos/2024' }, 'name: Bucket name cannot contain a slash'],
    ['leading spaces', { name: ' photos' }, 'name: Bucket name cannot start or end with spaces'],
    ['no name', { public: true }, /^name: /],
    ['a MIME type that is not one', { name: 'ok', allowed_mime_types: ['png'] }, 'allowed_mime_types.0: Not a MIME type'],
    ['a size limit of 0', { name: 'ok', file_size_limit: 0 }, /^file_size_limit: /],
    ['a fractional size limit', { name: 'ok', file_size_limit: 1.5 }, /^file_size_limit: /],
    ['public as a string', { name: 'ok', public: 'yes' }, /^public: /],
  ])('refuses %s with 400', async (_, body, message) => {
    await expectError(await create(recipes, body), 400, message)
  })

  it('a name of exactly 100 characters is fine', async () => {
    const name = 'n'.repeat(100)
    expect((await create(recipes, { name })).status).toBe(201)
    expect((await remove(recipes, name)).status).toBe(200)
  })

  it('refuses a body that is not JSON with 415', async () => {
    const res = await s.request(buckets(recipes), {
      method: 'POST',
      headers: { cookie: developer, 'content-type': 'text/plain' },
      body: 'name=photos',
    })
    await expectError(res, 415, /must be JSON/)
  })

  it('deleting a bucket that does not exist answers 404', async () => {
    await expectError(await remove(recipes, 'nope'), 404, "Bucket not found: this project has no bucket 'nope'")
  })
})

describe('who may use buckets', () => {
  it('a Read-only member reads the buckets but gets 403 on creating and deleting (project_storage:all)', async () => {
    const message = "You need the project_storage:all permission to use this project's storage"
    expect((await list(recipes, readonly)).map((b) => b.id)).toEqual(['drafts', 'recipe-photos'])
    await expectError(await create(recipes, { name: 'sneaky' }, readonly), 403, message)
    await expectError(await remove(recipes, 'drafts', readonly), 403, message)
    expect((await list(recipes)).map((b) => b.id)).toEqual(['drafts', 'recipe-photos'])
  })

  it("a Read-only member browses a bucket's folders and downloads a file by a signed URL, but holds no key to change one", async () => {
    const { rows } = await s.db.query<{ id: number }>('select id from projects where ref = $1', [recipes])
    const keys = (await findProjectKeys(s.db, rows[0].id))!
    const gateway = (p: string, key: string, init: RequestInit = {}) =>
      s.request(`/p/${recipes}/storage/v1${p}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } })
    expect((await gateway('/object/drafts/menu/soup du jour.txt', keys.service_role_key, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'lentils' })).status).toBe(200)
    const objects = (id: string, body: unknown) => s.request(`${bucket(recipes, id)}/objects/list`, json(body, { cookie: readonly }))
    const options = { limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' }, search: '' }

    const root = await objects('drafts', { path: '', options })
    expect(root.status).toBe(200)
    expect(StorageList.parse(await root.json()).map((item) => [item.name, item.id === null])).toContainEqual(['menu', true])
    const menu = StorageList.parse(await (await objects('drafts', { path: 'menu', options: { ...options, search: 'soup' } })).json())
    expect(menu.map((item) => item.name)).toEqual(['soup du jour.txt'])

    const signed = await s.request(`${bucket(recipes, 'drafts')}/objects/sign`, json({ path: 'menu/soup du jour.txt', expiresIn: 60 }, { cookie: readonly }))
    expect(signed.status).toBe(200)
    const { signedUrl } = MemberSignedUrl.parse(await signed.json())
    const url = new URL(signedUrl)
    expect(url.pathname).toBe(`/p/${recipes}/storage/v1/object/sign/drafts/menu/soup%20du%20jour.txt`)
    const download = await s.request(`${url.pathname}${url.search}`, { headers: { range: 'bytes=0-3' } })
    expect(download.status).toBe(206)
    expect(await download.text()).toBe('lent')

    // The platform gives a Read-only member the anon key only; with it, a change is refused by the service (no
    // policy lets anon write), whatever the dashboard offers.
    const api = (await (await s.request(`/platform/props/project/${recipes}/api`, { headers: { cookie: readonly } })).json()) as { autoApiService: { serviceApiKey?: string } }
    expect(api.autoApiService.serviceApiKey).toBeUndefined()
    const upload = await gateway('/object/drafts/menu/sneaky.txt', keys.anon_key, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
    expect(upload.status).toBe(403)
    const move = await gateway('/object/move', keys.anon_key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bucketId: 'drafts', sourceKey: 'menu/soup du jour.txt', destinationKey: 'gone.txt' }) })
    // anon sees no row to move (no policy): the object is not found for it.
    expect(move.status).toBe(404)
    const removed = await gateway('/object/drafts', keys.anon_key, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefixes: ['menu/soup du jour.txt'] }) })
    expect(await removed.json()).toEqual([])
    expect(StorageList.parse(await (await objects('drafts', { path: 'menu', options })).json()).map((item) => item.name)).toEqual(['soup du jour.txt'])
    expect((await gateway('/object/drafts', keys.service_role_key, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefixes: ['menu/soup du jour.txt'] }) })).status).toBe(200)
  })

  it('refuses a bad object path (400), an unknown bucket or object (404) and a non-member (404) on the member reads', async () => {
    const options = { limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' }, search: '' }
    await expectError(await s.request(`${bucket(recipes, 'drafts')}/objects/sign`, json({ path: 'a/../b', expiresIn: 60 }, { cookie: readonly })), 400, /'\.' or '\.\.'/)
    await expectError(await s.request(`${bucket(recipes, 'drafts')}/objects/sign`, json({ path: 'nope.txt', expiresIn: 60 }, { cookie: readonly })), 404, /no object 'nope.txt'/)
    await expectError(await s.request(`${bucket(recipes, 'drafts')}/objects/sign`, json({ path: 'x', expiresIn: 0 }, { cookie: readonly })), 400, /expiresIn/)
    await expectError(await s.request(`${bucket(recipes, 'nope')}/objects/list`, json({ path: '', options }, { cookie: readonly })), 404, "Bucket not found: this project has no bucket 'nope'")
    await expectError(await s.request(`${bucket(recipes, 'drafts')}/objects/list`, json({ path: '' }, { cookie: readonly })), 400, /options/)
    await expectError(await s.request(`${bucket(foreign, 'drafts')}/objects/list`, json({ path: '', options }, { cookie: owner })), 404, 'Project not found')
  })

  it('a person outside the organization gets 404 Project not found, as for an unknown ref; a bad ref 400', async () => {
    for (const ref of [foreign, 'aaaaaaaaaaaaaaaaaaaa']) {
      await expectError(await s.request(buckets(ref), { headers: { cookie: owner } }), 404, 'Project not found')
      await expectError(await create(ref, { name: 'x' }, owner), 404, 'Project not found')
      await expectError(await remove(ref, 'x', owner), 404, 'Project not found')
    }
    await expectError(await s.request(buckets('Not_A_Ref'), { headers: { cookie: owner } }), 400, 'Project ref is required')
  })
})

describe('a project whose storage is not configured (Legacy Blog)', () => {
  it("answers 404 'Tenant config for <ref> not found' on all three, which the dashboard does not retry", async () => {
    const message = `Tenant config for ${legacy} not found`
    const answers = [
      await s.request(buckets(legacy), { headers: { cookie: owner } }),
      await create(legacy, { name: 'photos' }, owner),
      await remove(legacy, 'photos', owner),
    ]
    for (const res of answers) {
      const body = await expectError(res, 404, message)
      expect(isTenantConfigNotFound(body.message)).toBe(true)
    }
  })

  it('still answers 403 first to a Read-only member who tries a change', async () => {
    expect((await create(legacy, { name: 'photos' }, readonly)).status).toBe(403)
    expect((await s.request(buckets(legacy), { headers: { cookie: readonly } })).status).toBe(404)
  })
})

describe('a project that is not ACTIVE_HEALTHY', () => {
  it('a paused project answers 409 as the database endpoints do, on all three', async () => {
    const message = 'The project is paused: restore it to use its database'
    for (const res of [
      await s.request(buckets(paused), { headers: { cookie: owner } }),
      await create(paused, { name: 'x' }, owner),
      await remove(paused, 'x', owner),
    ]) {
      const body = await expectError(res, 409, message)
      expect(body).toMatchObject({ code: 'project_not_active' })
    }
  })

  it("keeps a project's buckets through a pause: 409 while INACTIVE, listed again once ACTIVE_HEALTHY", async () => {
    expect((await create(storefront, { name: 'kept' }, owner)).status).toBe(201)
    expect((await s.request(`/dev/projects/${storefront}/status`, json({ status: 'INACTIVE' }))).status).toBe(200)
    await expectError(await s.request(buckets(storefront), { headers: { cookie: owner } }), 409, /is paused/)
    expect((await s.request(`/dev/projects/${storefront}/status`, json({ status: 'UPGRADING' }))).status).toBe(200)
    await expectError(
      await s.request(buckets(storefront), { headers: { cookie: owner } }),
      409,
      'The project is UPGRADING: its database can be used once it is ACTIVE_HEALTHY',
    )
    expect((await s.request(`/dev/projects/${storefront}/status`, json({ status: 'ACTIVE_HEALTHY' }))).status).toBe(200)
    expect((await list(storefront)).map((b) => b.id)).toEqual(['invoices', 'kept', 'product-images'])
    expect((await remove(storefront, 'kept', owner)).status).toBe(200)
  })
})
