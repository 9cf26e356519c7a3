import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import {
  EMPTY_DRAFT,
  createBodyOf,
  mimeTypesLabel,
  selectStorageBucketsView,
  sizeLimitLabel,
  storageBucketsMachine,
} from '../../machines/storageBuckets.machine'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import type { Bucket, CreateBucketBody } from '../../src/contracts/storage'
import { AVATARS, BUCKETS, LOCKED, RECEIPTS, TENANT_CONFIG_NOT_FOUND, createdBucket } from '../fixtures.storage'

const REF = 'abcdefghijklmnopqrst'

interface Run<I, O> {
  input: I
  signal: AbortSignal
  at: number
  resolve: (output: O) => void
  reject: (error: unknown) => void
}

const deferred = <I, O>(runs: Array<Run<I, O>>) =>
  fromPromise(({ input, signal }: { input: I; signal: AbortSignal }) => new Promise<O>((resolve, reject) => runs.push({ input, signal, at: Date.now(), resolve, reject })))

function start() {
  const lists: Array<Run<{ ref: string }, Bucket[]>> = []
  const creates: Array<Run<{ ref: string; body: CreateBucketBody }, Bucket>> = []
  const deletes: Array<Run<{ ref: string; id: string }, void>> = []
  const actor = createActor(
    storageBucketsMachine.provide({ actors: { listBuckets: deferred(lists), createBucket: deferred(creates), deleteBucket: deferred(deletes) } }),
    { input: { ref: REF, canManage: true } },
  ).start()
  const view = () => selectStorageBucketsView(actor.getSnapshot())
  const loaded = () => {
    const v = view()
    if (v.phase !== 'loaded') throw new Error(`not loaded: ${v.phase}`)
    return v
  }
  return { actor, lists, creates, deletes, view, loaded }
}

async function startLoaded(buckets: Bucket[] = BUCKETS) {
  const started = start()
  started.lists[0].resolve(buckets)
  await vi.advanceTimersByTimeAsync(0)
  return started
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('storage buckets machine: the list and its retry rule', () => {
  it("loads the project's buckets", async () => {
    const { lists, view } = start()
    expect(view()).toEqual({ phase: 'loading', retry: 0, lastError: null })
    expect(lists[0].input).toEqual({ ref: REF })
    lists[0].resolve(BUCKETS)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', buckets: BUCKETS, writable: true, create: null, remove: null })
  })

  it('a failing read is retried at most 3 times, 1 s, 2 s and 4 s after each failure, then shows the last message', async () => {
    const { lists, view } = start()
    for (let attempt = 0; attempt < 4; attempt++) {
      lists[attempt].reject(new Error(`Internal server error ${attempt + 1}`))
      await vi.advanceTimersByTimeAsync(0)
      if (attempt < 3) {
        expect(view()).toEqual({ phase: 'loading', retry: attempt + 1, lastError: `Internal server error ${attempt + 1}` })
        await vi.advanceTimersByTimeAsync(1000 * 2 ** attempt)
      }
    }
    expect(lists.map((run) => run.at)).toEqual([0, 1000, 3000, 7000])
    expect(view()).toEqual({ phase: 'failed', error: 'Internal server error 4', storageDisabled: false })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(lists).toHaveLength(4)
  })

  it("a retry that succeeds shows the buckets", async () => {
    const { lists, view } = start()
    lists[0].reject(new Error('Bad gateway'))
    await vi.advanceTimersByTimeAsync(1000)
    lists[1].resolve([AVATARS])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'loaded', buckets: [AVATARS] })
  })

  it("'Tenant config … not found' (storage disabled) is never retried and is shown as it is", async () => {
    const { lists, view } = start()
    lists[0].reject(new Error(TENANT_CONFIG_NOT_FOUND))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'failed', error: TENANT_CONFIG_NOT_FOUND, storageDisabled: true })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(lists).toHaveLength(1)
  })

  it('a Tenant config failure on a retry stops the retries there', async () => {
    const { lists, view } = start()
    lists[0].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(1000)
    lists[1].reject(new Error(TENANT_CONFIG_NOT_FOUND))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(lists).toHaveLength(2)
    expect(view()).toMatchObject({ phase: 'failed', storageDisabled: true })
  })

  it("a read unanswered for the project database's time-out is abandoned and counts as a failure: retried by the rule", async () => {
    const { lists, view } = start()
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS - 1)
    expect(lists[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(lists[0].signal.aborted).toBe(true)
    expect(view()).toEqual({ phase: 'loading', retry: 1, lastError: 'The request timed out' })
    await vi.advanceTimersByTimeAsync(1000)
    expect(lists).toHaveLength(2)
    // Every attempt times out: four requests, then failed.
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS + 2000 + PROJECT_DATABASE_TIMEOUT_MS + 4000 + PROJECT_DATABASE_TIMEOUT_MS)
    expect(lists).toHaveLength(4)
    expect(view()).toEqual({ phase: 'failed', error: 'The request timed out', storageDisabled: false })
  })

  it('Try again after a failure reads again with a fresh count of retries', async () => {
    const { actor, lists, view } = start()
    lists[0].reject(new Error(TENANT_CONFIG_NOT_FOUND))
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'buckets.retry' })
    expect(view()).toEqual({ phase: 'loading', retry: 0, lastError: TENANT_CONFIG_NOT_FOUND })
    lists[1].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'loading', retry: 1 })
  })

  it('a 403 (no project_storage:all) shows the server message once the rule has run its retries', async () => {
    const { lists, view } = start()
    const forbidden = Object.assign(new Error('You do not have permission to manage storage in this project'), { status: 403 })
    for (let attempt = 0; attempt < 4; attempt++) {
      lists[attempt].reject(forbidden)
      await vi.advanceTimersByTimeAsync(1000 * 2 ** attempt)
    }
    expect(view()).toEqual({ phase: 'failed', error: forbidden.message, storageDisabled: false })
  })
})

describe('storage buckets machine: create', () => {
  it('sends the typed bucket (types split and trimmed, the limit in bytes) and lists the created one', async () => {
    const { actor, creates, loaded } = await startLoaded()
    actor.send({ type: 'create.open' })
    expect(loaded().create).toEqual({ draft: EMPTY_DRAFT, errors: { name: 'Bucket name is required' }, submitting: false, error: null })
    expect(actor.getSnapshot().can({ type: 'create.submit' })).toBe(false)
    actor.send({ type: 'create.edit', draft: { name: 'photos', public: true, mimeTypes: ' image/png,image/* , ', sizeLimit: '2.5', sizeUnit: 'MB' } })
    expect(loaded().create?.errors).toEqual({})
    actor.send({ type: 'create.submit' })
    expect(loaded().create?.submitting).toBe(true)
    expect(actor.getSnapshot().can({ type: 'create.cancel' })).toBe(false)
    expect(creates[0].input).toEqual({
      ref: REF,
      body: { name: 'photos', public: true, allowed_mime_types: ['image/png', 'image/*'], file_size_limit: 2_621_440 },
    })
    const photos = createdBucket('photos', { public: true, allowed_mime_types: ['image/png', 'image/*'], file_size_limit: 2_621_440 })
    creates[0].resolve(photos)
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded()).toEqual({ phase: 'loaded', buckets: [...BUCKETS, photos], writable: true, create: null, remove: null })
    // The next dialog starts empty.
    actor.send({ type: 'create.open' })
    expect(loaded().create?.draft).toEqual(EMPTY_DRAFT)
  })

  it('empty types mean every type (null) and an empty limit means none (null)', async () => {
    const { actor, creates } = await startLoaded()
    actor.send({ type: 'create.open' })
    actor.send({ type: 'create.edit', draft: { name: 'docs', mimeTypes: ' , ', sizeLimit: '  ' } })
    actor.send({ type: 'create.submit' })
    expect(creates[0].input.body).toEqual({ name: 'docs', public: false, allowed_mime_types: null, file_size_limit: null })
  })

  it('a failed create keeps the dialog open with what was typed and the server message; it may be sent again', async () => {
    const { actor, creates, loaded } = await startLoaded()
    actor.send({ type: 'create.open' })
    const draft = { name: 'avatars', public: true, mimeTypes: 'image/png', sizeLimit: '10', sizeUnit: 'KB' as const }
    actor.send({ type: 'create.edit', draft })
    actor.send({ type: 'create.submit' })
    creates[0].reject(new Error('The resource already exists'))
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().create).toEqual({ draft, errors: {}, submitting: false, error: 'The resource already exists' })
    actor.send({ type: 'create.edit', draft: { name: 'avatars-2' } })
    expect(loaded().create?.error).toBe('The resource already exists')
    actor.send({ type: 'create.submit' })
    expect(loaded().create?.error).toBeNull()
    expect(creates[1].input.body).toMatchObject({ name: 'avatars-2', file_size_limit: 10_240 })
  })

  it('a create unanswered for the project database\'s time-out is abandoned; the dialog keeps the draft and says it timed out', async () => {
    const { actor, creates, loaded } = await startLoaded()
    actor.send({ type: 'create.open' })
    actor.send({ type: 'create.edit', draft: { name: 'slow' } })
    actor.send({ type: 'create.submit' })
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(creates[0].signal.aborted).toBe(true)
    expect(loaded().create).toMatchObject({ draft: { name: 'slow' }, submitting: false, error: 'The request timed out' })
  })

  it('Cancel closes the dialog without a request', async () => {
    const { actor, creates, loaded } = await startLoaded()
    actor.send({ type: 'create.open' })
    actor.send({ type: 'create.edit', draft: { name: 'later' } })
    actor.send({ type: 'create.cancel' })
    expect(loaded().create).toBeNull()
    expect(creates).toEqual([])
  })

  it('an invalid draft cannot be sent', async () => {
    const { actor, creates } = await startLoaded()
    actor.send({ type: 'create.open' })
    for (const draft of [{ name: 'a/b' }, { name: ' padded' }, { name: 'ok', mimeTypes: 'images' }, { name: 'ok', sizeLimit: '0' }, { name: 'ok', sizeLimit: '1.5', sizeUnit: 'bytes' as const }]) {
      actor.send({ type: 'create.edit', draft: { ...EMPTY_DRAFT, ...draft } })
      actor.send({ type: 'create.submit' })
    }
    expect(creates).toEqual([])
  })
})

describe('storage buckets machine: delete', () => {
  it('asks first; Delete removes the bucket from the list', async () => {
    const { actor, deletes, loaded } = await startLoaded()
    actor.send({ type: 'bucket.delete', id: 'receipts' })
    expect(loaded().remove).toEqual({ bucket: RECEIPTS, submitting: false, error: null })
    expect(deletes).toEqual([])
    actor.send({ type: 'delete.confirm' })
    expect(loaded().remove).toEqual({ bucket: RECEIPTS, submitting: true, error: null })
    expect(actor.getSnapshot().can({ type: 'delete.cancel' })).toBe(false)
    expect(deletes[0].input).toEqual({ ref: REF, id: 'receipts' })
    deletes[0].resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded()).toEqual({ phase: 'loaded', buckets: [AVATARS, LOCKED], writable: true, create: null, remove: null })
  })

  it('a failed delete keeps the dialog with the server message; Cancel keeps the bucket', async () => {
    const { actor, deletes, loaded } = await startLoaded()
    actor.send({ type: 'bucket.delete', id: 'avatars' })
    actor.send({ type: 'delete.confirm' })
    deletes[0].reject(new Error('Bucket avatars is not empty'))
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().remove).toEqual({ bucket: AVATARS, submitting: false, error: 'Bucket avatars is not empty' })
    actor.send({ type: 'delete.cancel' })
    expect(loaded()).toEqual({ phase: 'loaded', buckets: BUCKETS, writable: true, create: null, remove: null })
  })

  it('a delete unanswered for the project database\'s time-out is abandoned and reported in the dialog', async () => {
    const { actor, deletes, loaded } = await startLoaded()
    actor.send({ type: 'bucket.delete', id: 'locked' })
    actor.send({ type: 'delete.confirm' })
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(deletes[0].signal.aborted).toBe(true)
    expect(loaded().remove).toEqual({ bucket: LOCKED, submitting: false, error: 'The request timed out' })
  })

  it('one change at a time: no delete while the create dialog is open, no create while deleting', async () => {
    const { actor } = await startLoaded()
    actor.send({ type: 'create.open' })
    expect(actor.getSnapshot().can({ type: 'bucket.delete', id: 'avatars' })).toBe(false)
    actor.send({ type: 'create.cancel' })
    actor.send({ type: 'bucket.delete', id: 'avatars' })
    expect(actor.getSnapshot().can({ type: 'create.open' })).toBe(false)
  })
})

describe('the bucket rules', () => {
  it("MIME types: null is 'All types', [] is 'None', otherwise the list", () => {
    expect(mimeTypesLabel(null)).toBe('All types')
    expect(mimeTypesLabel([])).toBe('None')
    expect(mimeTypesLabel(['image/png', 'image/*'])).toBe('image/png, image/*')
  })

  it("size limit: null is 'No limit', otherwise in the largest unit it reaches", () => {
    expect(sizeLimitLabel(null)).toBe('No limit')
    expect(sizeLimitLabel(0)).toBe('0 bytes')
    expect(sizeLimitLabel(1)).toBe('1 byte')
    expect(sizeLimitLabel(1023)).toBe('1023 bytes')
    expect(sizeLimitLabel(1024)).toBe('1 KB')
    expect(sizeLimitLabel(1536)).toBe('1.5 KB')
    expect(sizeLimitLabel(50 * 1024 * 1024)).toBe('50 MB')
    expect(sizeLimitLabel(1.5 * 1024 ** 3)).toBe('1.5 GB')
    expect(sizeLimitLabel(5 * 1024 ** 4)).toBe('5120 GB')
  })

  it('a draft says which field breaks which rule', () => {
    const errorsOf = (draft: Partial<typeof EMPTY_DRAFT>) => {
      const made = createBodyOf({ ...EMPTY_DRAFT, ...draft })
      return made.ok ? {} : made.errors
    }
    expect(errorsOf({ name: '' })).toEqual({ name: 'Bucket name is required' })
    expect(errorsOf({ name: 'a/b' })).toEqual({ name: 'Bucket name cannot contain a slash' })
    expect(errorsOf({ name: 'x'.repeat(101) })).toEqual({ name: 'Bucket name must be at most 100 characters' })
    expect(errorsOf({ name: 'ok', mimeTypes: 'image/png, pictures' })).toEqual({ mimeTypes: "'pictures' is not a MIME type (like image/png or image/*)" })
    expect(errorsOf({ name: 'ok', sizeLimit: 'ten' })).toEqual({ sizeLimit: 'File size limit must be a positive number' })
    expect(errorsOf({ name: 'ok', sizeLimit: '-1' })).toEqual({ sizeLimit: 'File size limit must be a positive number' })
    expect(errorsOf({ name: 'ok', sizeLimit: '2.5', sizeUnit: 'bytes' })).toEqual({ sizeLimit: 'A limit in bytes must be a whole number' })
    expect(errorsOf({ name: 'ok', sizeLimit: '1e30', sizeUnit: 'GB' })).toEqual({ sizeLimit: 'File size limit is too large' })
    expect(createBodyOf({ ...EMPTY_DRAFT, name: 'ok', sizeLimit: '1', sizeUnit: 'GB' })).toEqual({
      ok: true,
      body: { name: 'ok', public: false, allowed_mime_types: null, file_size_limit: 1024 ** 3 },
    })
  })
})
