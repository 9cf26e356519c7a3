import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { bucketRetryDelay } from '../machines/bucketRetries'
import { mimeTypesLabel, sizeLimitLabel, storageBucketsMachine, type BucketDraft } from '../machines/storageBuckets.machine'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'
import type { Bucket, CreateBucketBody } from '../src/contracts/storage'
import { StorageBuckets } from '../src/views/project/storage/StorageBucketsPage'
import { REF } from '../tests/fixtures'
import { BUCKETS, TENANT_CONFIG_NOT_FOUND, createdBucket } from '../tests/fixtures.storage'
import { coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(storageBucketsMachine)

const contextOf = (snapshot: SnapshotFrom<typeof storageBucketsMachine>) => snapshot.context

/** What a person types: a valid bucket, and the same with a name that breaks the no-slash rule. */
const VALID: BucketDraft = { name: 'photos', public: true, mimeTypes: 'image/png, image/*', sizeLimit: '2', sizeUnit: 'MB' }
const INVALID: BucketDraft = { ...VALID, name: 'photos/2024' }
const PHOTOS = createdBucket('photos', { public: true, allowed_mime_types: ['image/png', 'image/*'], file_size_limit: 2 * 1024 * 1024 })

const model = modelOf(storageBucketsMachine, {
  input: { ref: REF, canManage: true },
  events: (snapshot) => {
    const context = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.listBuckets', output: BUCKETS },
        { type: 'xstate.done.actor.listBuckets', output: [] },
        { type: 'xstate.error.actor.listBuckets', error: apiError('Internal server error', 500) },
        { type: 'xstate.error.actor.listBuckets', error: apiError(TENANT_CONFIG_NOT_FOUND, 404) },
        { type: 'xstate.after.requestTimeout.storageBuckets.loading' },
      ]
    }
    if (snapshot.matches('waitingToRetry')) return [{ type: 'xstate.after.retryDelay.storageBuckets.waitingToRetry' }]
    if (snapshot.matches('failed')) return [{ type: 'buckets.retry' }]
    if (snapshot.matches({ loaded: 'idle' })) {
      // One change per path, from the demo list (the empty list is only shown), keeps the graph small.
      const untouched = context.buckets.length === BUCKETS.length && context.buckets.every((b, i) => b.id === BUCKETS[i].id)
      return untouched ? [ev({ type: 'create.open' }), ev({ type: 'bucket.delete', id: 'receipts' })] : []
    }
    if (snapshot.matches({ loaded: { creating: 'editing' } })) {
      // Typing: a fresh draft may become either; an invalid one is corrected; after a failure it is sent again as is.
      const { draft, createError } = context
      const edits = createError !== null ? [] : draft.name === '' ? [VALID, INVALID] : draft.name === INVALID.name ? [VALID] : []
      return [...edits.map((edit) => (ev({ type: 'create.edit', draft: edit }))), ev({ type: 'create.submit' }), ev({ type: 'create.cancel' })]
    }
    if (snapshot.matches({ loaded: { creating: 'submitting' } })) {
      return [
        { type: 'xstate.done.actor.createBucket', output: PHOTOS },
        { type: 'xstate.error.actor.createBucket', error: apiError('The resource already exists', 409) },
        { type: 'xstate.after.requestTimeout.storageBuckets.loaded.creating.submitting' },
      ]
    }
    if (snapshot.matches({ loaded: { deleting: 'confirming' } })) return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }]
    if (snapshot.matches({ loaded: { deleting: 'submitting' } })) {
      return [
        { type: 'xstate.done.actor.deleteBucket' },
        { type: 'xstate.error.actor.deleteBucket', error: apiError('The bucket you tried to delete is not empty', 409) },
        { type: 'xstate.after.requestTimeout.storageBuckets.loaded.deleting.submitting' },
      ]
    }
    return []
  },
  // The whole context is part of a state's key: what each state shows depends on all of it (the retries so far, the
  // last error, the list, the draft), so two routes to one key always leave the same screen.
  serializeState: (snapshot, event) => {
    const { buckets, ...rest } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ ...rest, buckets: buckets.map((b) => b.id) }))
  },
})
const paths = coveringWalks(model)

/**
 * A member who may not manage storage (Read-only, or a Developer without the service key): the same list, and at the
 * loaded list the create and delete events are offered and refused — no path leaves `loaded.idle` by them.
 */
const readOnlyPaths = modelOf(storageBucketsMachine, { input: { ref: REF, canManage: false } }).getPathsFromEvents([
  { type: 'xstate.done.actor.listBuckets', output: BUCKETS },
  ev({ type: 'create.open' }),
  ev({ type: 'bucket.delete', id: 'receipts' }),
])

const runPath = usePathClock()

const dialog = (name: string) => screen.getByRole('dialog', { name })

describe('storage buckets model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(storageBucketsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('a member who may not manage storage reaches the list and nothing else', () => {
    expect(readOnlyPaths.map((path) => [path.state.value, path.steps.map((step) => step.event.type)])).toEqual([
      [{ loaded: 'idle' }, ['xstate.init', 'xstate.done.actor.listBuckets', 'create.open', 'bucket.delete']],
    ])
  })

  for (const path of readOnlyPaths) {
    it(`browse only: ${describePath(path)}`, async () => {
      const list = deferredActor<Bucket[], { ref: string }>('listBuckets')
      const create = deferredActor<Bucket, { ref: string; body: CreateBucketBody }>('createBucket')
      const remove = deferredActor<void, { ref: string; id: string }>('deleteBucket')
      const actor = runPath(
        createActor(storageBucketsMachine.provide({ actors: { listBuckets: list.logic, createBucket: create.logic, deleteBucket: remove.logic } }), {
          input: { ref: REF, canManage: false },
        }).start(),
      )
      render(<StorageBuckets actor={actor} />)
      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent(/^Loading buckets…$/)
            expect(list.pending).toHaveLength(1)
          },
          'loaded.idle': () => {
            expect(screen.getByRole('note')).toHaveTextContent('You can browse the buckets and download their files.')
            expect(screen.queryByRole('button', { name: 'New bucket' })).toBeNull()
            expect(screen.queryByRole('button', { name: /^Delete bucket/ })).toBeNull()
            const table = screen.getByRole('table', { name: 'Buckets' })
            expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'Access', 'Allowed MIME types', 'File size limit'])
            // Each bucket still opens its files.
            expect(within(table).getByRole('link', { name: 'receipts' })).toHaveAttribute('href', expect.stringContaining('/storage/buckets/receipts'))
            expect(actor.getSnapshot().can({ type: 'create.open' })).toBe(false)
            expect(actor.getSnapshot().can({ type: 'bucket.delete', id: 'receipts' })).toBe(false)
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(create.pending).toHaveLength(0)
            expect(remove.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.done.actor.listBuckets': async (step) => list.resolve(outputOf<Bucket[]>(step)),
          // Nothing on the page sends these: the machine is sent them directly, and refuses them.
          'create.open': async () => {
            actor.send({ type: 'create.open' })
          },
          'bucket.delete': async () => {
            actor.send({ type: 'bucket.delete', id: 'receipts' })
          },
        },
      })
      expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true)
    })
  }

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<Bucket[], { ref: string }>('listBuckets')
      const create = deferredActor<Bucket, { ref: string; body: CreateBucketBody }>('createBucket')
      const remove = deferredActor<void, { ref: string; id: string }>('deleteBucket')
      const actor = runPath(
        createActor(storageBucketsMachine.provide({ actors: { listBuckets: list.logic, createBucket: create.logic, deleteBucket: remove.logic } }), {
          input: { ref: REF, canManage: true },
        }).start(),
      )
      render(<StorageBuckets actor={actor} />)

      const loadingShown = (snapshot: AnyMachineSnapshot) => {
        const { retries, loadError } = contextOf(snapshot)
        expect(screen.getByRole('status')).toHaveTextContent(retries === 0 ? /^Loading buckets…$/ : `Loading buckets… (retry ${retries} of 3)`)
        if (loadError) expect(screen.getByText(`The last attempt failed: ${loadError}`)).toBeInTheDocument()
        expect(screen.queryByRole('alert')).toBeNull()
        expect(screen.queryByRole('button', { name: 'New bucket' })).toBeNull()
      }

      await path.test({
        states: {
          loading: (snapshot) => {
            loadingShown(snapshot)
            expect(list.pending).toHaveLength(1)
            expect(list.pending[0].input).toEqual({ ref: REF })
          },
          waitingToRetry: (snapshot) => {
            loadingShown(snapshot)
            expect(list.pending).toHaveLength(0)
          },
          failed: (snapshot) => {
            const { loadError } = contextOf(snapshot)
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent(loadError === TENANT_CONFIG_NOT_FOUND ? 'Storage is not enabled for this project' : 'Failed to load buckets')
            expect(alert).toHaveTextContent(loadError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'loaded.idle': (snapshot) => {
            const { buckets } = contextOf(snapshot)
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.queryByRole('note')).toBeNull()
            expect(screen.getByRole('button', { name: 'New bucket' })).toBeEnabled()
            if (buckets.length === 0) {
              expect(screen.getByText(/No buckets yet/)).toBeInTheDocument()
              return
            }
            const rows = within(screen.getByRole('table', { name: 'Buckets' })).getAllByRole('row').slice(1)
            expect(rows.map((row) => [...row.children].slice(0, 4).map((cell) => cell.textContent))).toEqual(
              buckets.map((b) => [b.name, b.public ? 'Public' : 'Private', mimeTypesLabel(b.allowed_mime_types), sizeLimitLabel(b.file_size_limit)]),
            )
          },
          'loaded.creating.editing': (snapshot) => {
            const { draft, createError } = contextOf(snapshot)
            const form = within(dialog('Create bucket'))
            expect(form.getByLabelText('Name')).toHaveValue(draft.name)
            expect(form.getByLabelText('Public bucket')).toHaveProperty('checked', draft.public)
            expect(form.getByLabelText('Allowed MIME types')).toHaveValue(draft.mimeTypes)
            expect(form.getByLabelText('File size limit')).toHaveValue(draft.sizeLimit)
            expect(form.getByLabelText('Size unit')).toHaveValue(draft.sizeUnit)
            expect(form.getByText('Comma-separated, like image/png, image/*. Leave empty to allow all types.')).toBeInTheDocument()
            expect(form.getByRole('button', { name: 'Create bucket' })).toHaveProperty('disabled', draft.name !== VALID.name)
            if (draft.name === INVALID.name) expect(form.getByText('Bucket name cannot contain a slash')).toBeInTheDocument()
            if (createError) expect(form.getByRole('alert')).toHaveTextContent(createError)
            else expect(form.queryByRole('alert')).toBeNull()
          },
          'loaded.creating.submitting': (snapshot) => {
            const form = within(dialog('Create bucket'))
            expect(form.getByRole('button', { name: 'Creating…' })).toBeDisabled()
            expect(form.getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(form.getByLabelText('Name')).toHaveValue(contextOf(snapshot).draft.name)
            expect(create.pending).toHaveLength(1)
            expect(create.pending[0].input).toEqual({
              ref: REF,
              body: { name: 'photos', public: true, allowed_mime_types: ['image/png', 'image/*'], file_size_limit: 2 * 1024 * 1024 },
            })
          },
          'loaded.deleting.confirming': (snapshot) => {
            const { deleteError } = contextOf(snapshot)
            const confirm = within(dialog('Delete bucket'))
            expect(confirm.getByText('receipts')).toBeInTheDocument()
            expect(confirm.getByRole('button', { name: 'Delete bucket' })).toBeEnabled()
            if (deleteError) expect(confirm.getByRole('alert')).toHaveTextContent(deleteError)
            else expect(confirm.queryByRole('alert')).toBeNull()
            expect(remove.pending).toHaveLength(0)
          },
          'loaded.deleting.submitting': () => {
            const confirm = within(dialog('Delete bucket'))
            expect(confirm.getByRole('button', { name: 'Deleting…' })).toBeDisabled()
            expect(confirm.getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(remove.pending.map((run) => run.input)).toEqual([{ ref: REF, id: 'receipts' }])
          },
        },
        events: {
          'xstate.done.actor.listBuckets': async (step) => list.resolve(outputOf<Bucket[]>(step)),
          'xstate.error.actor.listBuckets': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.storageBuckets.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
          },
          'xstate.after.retryDelay.storageBuckets.waitingToRetry': async () => {
            await act(() => vi.advanceTimersByTimeAsync(bucketRetryDelay(contextOf(actor.getSnapshot()).retries)))
          },
          'buckets.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'create.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'New bucket' }))
          },
          'create.edit': async (step) => {
            const draft = step.event.draft
            const form = within(dialog('Create bucket'))
            if (draft.name !== undefined) fireEvent.change(form.getByLabelText('Name'), { target: { value: draft.name } })
            if (draft.public !== undefined && draft.public !== contextOf(actor.getSnapshot()).draft.public) fireEvent.click(form.getByLabelText('Public bucket'))
            if (draft.mimeTypes !== undefined) fireEvent.change(form.getByLabelText('Allowed MIME types'), { target: { value: draft.mimeTypes } })
            if (draft.sizeLimit !== undefined) fireEvent.change(form.getByLabelText('File size limit'), { target: { value: draft.sizeLimit } })
            if (draft.sizeUnit !== undefined) fireEvent.change(form.getByLabelText('Size unit'), { target: { value: draft.sizeUnit } })
          },
          'create.submit': async () => {
            fireEvent.click(within(dialog('Create bucket')).getByRole('button', { name: 'Create bucket' }))
          },
          'create.cancel': async () => {
            fireEvent.click(within(dialog('Create bucket')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.createBucket': async () => create.resolve(PHOTOS),
          'xstate.error.actor.createBucket': async (step) => create.reject(errorOf(step)),
          'xstate.after.requestTimeout.storageBuckets.loaded.creating.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
          },
          'bucket.delete': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Delete bucket receipts' }))
          },
          'delete.confirm': async () => {
            fireEvent.click(within(dialog('Delete bucket')).getByRole('button', { name: 'Delete bucket' }))
          },
          'delete.cancel': async () => {
            fireEvent.click(within(dialog('Delete bucket')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.deleteBucket': async () => remove.resolve(undefined),
          'xstate.error.actor.deleteBucket': async (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.storageBuckets.loaded.deleting.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
          },
        },
      })
    })
  }
})
