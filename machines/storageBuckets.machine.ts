/**
 * Storage › Buckets: the project's buckets, created from a dialog and deleted after a confirmation.
 * The list is read with the buckets query's retry rule (./bucketRetries: at most 3 retries, 1 s, 2 s, 4 s apart,
 * none when storage is disabled — 'Tenant config … not found'); a failed read shows the server's message as it is.
 * Who may change buckets comes in with the input (`canManage`, from the member's permissions the page already holds):
 * without it the page lists and opens buckets only, and the create and delete events are refused.
 * Invariants: one change at a time; what was typed in the create dialog survives a failed create (the dialog stays
 * open with the server's message); a failed delete keeps its dialog open with the message; a request unanswered
 * after requestTimeout is abandoned (its signal aborted) and reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Permission } from '../src/contracts/common'
import { CreateBucketBody, isTenantConfigNotFound, type Bucket } from '../src/contracts/storage'
import { bucketRetryDelay, shouldRetryBuckets } from './bucketRetries'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

export const SIZE_UNITS = ['bytes', 'KB', 'MB', 'GB'] as const
export type SizeUnit = (typeof SIZE_UNITS)[number]
const UNIT_BYTES: Record<SizeUnit, number> = { bytes: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }

/** The create dialog's fields as typed. */
export interface BucketDraft {
  name: string
  public: boolean
  /** Comma-separated; empty: every type. */
  mimeTypes: string
  /** A number in `sizeUnit`; empty: no limit. */
  sizeLimit: string
  sizeUnit: SizeUnit
}

export const EMPTY_DRAFT: BucketDraft = { name: '', public: false, mimeTypes: '', sizeLimit: '', sizeUnit: 'MB' }

export type DraftErrors = Partial<Record<'name' | 'mimeTypes' | 'sizeLimit', string>>

/** The request a draft makes, or what is wrong with it (the contract's rules, so the server would refuse it too). */
export function createBodyOf(draft: BucketDraft): { ok: true; body: CreateBucketBody } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {}
  const mimeTypes = draft.mimeTypes
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '')
  let fileSizeLimit: number | null = null
  if (draft.sizeLimit.trim() !== '') {
    const amount = Number(draft.sizeLimit.trim())
    const bytes = Math.round(amount * UNIT_BYTES[draft.sizeUnit])
    if (!Number.isFinite(amount) || amount <= 0 || bytes < 1) errors.sizeLimit = 'File size limit must be a positive number'
    else if (draft.sizeUnit === 'bytes' && !Number.isInteger(amount)) errors.sizeLimit = 'A limit in bytes must be a whole number'
    else if (!Number.isSafeInteger(bytes)) errors.sizeLimit = 'File size limit is too large'
    else fileSizeLimit = bytes
  }
  const body = { name: draft.name, public: draft.public, allowed_mime_types: mimeTypes.length === 0 ? null : mimeTypes, file_size_limit: fileSizeLimit }
  const parsed = CreateBucketBody.safeParse(body)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'name' ? 'name' : issue.path[0] === 'allowed_mime_types' ? 'mimeTypes' : 'sizeLimit'
      const message = field === 'mimeTypes' ? `'${mimeTypes[Number(issue.path[1])]}' is not a MIME type (like image/png or image/*)` : issue.message
      errors[field] ??= message
    }
  }
  return Object.keys(errors).length === 0 && parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors }
}

/**
 * Whether a member manages the project's storage from the dashboard: project_storage:all, and the service key (every
 * change inside a bucket goes through the storage API with it). A Read-only member or a Developer browses only.
 */
export function mayManageStorage(permissions: readonly Permission[]): boolean {
  return permissions.includes('project_storage:all') && permissions.includes('service_api_keys:read')
}

interface Context {
  ref: string
  canManage: boolean
  buckets: Bucket[]
  /** Retries of the current read so far (the rule allows 3). */
  retries: number
  loadError: string | null
  draft: BucketDraft
  createError: string | null
  deleteId: string | null
  deleteError: string | null
}

type StorageBucketsEvent =
  | { type: 'buckets.retry' }
  | { type: 'create.open' }
  | { type: 'create.edit'; draft: Partial<BucketDraft> }
  | { type: 'create.submit' }
  | { type: 'create.cancel' }
  | { type: 'bucket.delete'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const storageBucketsMachine = setup({
  types: {
    input: {} as { ref: string; canManage: boolean },
    context: {} as Context,
    events: {} as StorageBucketsEvent,
    children: {} as { listBuckets: 'listBuckets'; createBucket: 'createBucket'; deleteBucket: 'deleteBucket' },
  },
  actors: {
    listBuckets: fromPromise<Bucket[], { ref: string }>(async () => {
      throw new Error('listBuckets not provided')
    }),
    createBucket: fromPromise<Bucket, { ref: string; body: CreateBucketBody }>(async () => {
      throw new Error('createBucket not provided')
    }),
    deleteBucket: fromPromise<void, { ref: string; id: string }>(async () => {
      throw new Error('deleteBucket not provided')
    }),
  },
  actions: {
    storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
    countRetry: assign(({ context }) => ({ retries: context.retries + 1 })),
    storeCreateError: assign((_, params: { error: string }) => ({ createError: params.error })),
    storeDeleteError: assign((_, params: { error: string }) => ({ deleteError: params.error })),
  },
  guards: {
    mayRetry: ({ context }, params: { error: string }) => shouldRetryBuckets(context.retries, new Error(params.error)),
    isDraftValid: ({ context }) => createBodyOf(context.draft).ok,
    mayManage: ({ context }) => context.canManage,
  },
  delays: {
    // Buckets are rows of the project's own database, which the platform may have to open first.
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
    retryDelay: ({ context }) => bucketRetryDelay(context.retries),
  },
}).createMachine({
  id: 'storageBuckets',
  context: ({ input }) => ({
    ref: input.ref,
    canManage: input.canManage,
    buckets: [],
    retries: 0,
    loadError: null,
    draft: EMPTY_DRAFT,
    createError: null,
    deleteId: null,
    deleteError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listBuckets',
        src: 'listBuckets',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ buckets: event.output, loadError: null, retries: 0 })) },
        onError: [
          {
            guard: { type: 'mayRetry', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load buckets') }) },
            target: 'waitingToRetry',
            actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load buckets') }) },
          },
          { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load buckets') }) } },
        ],
      },
      after: {
        requestTimeout: [
          { guard: { type: 'mayRetry', params: { error: TIMED_OUT } }, target: 'waitingToRetry', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } },
          { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } },
        ],
      },
    },
    waitingToRetry: {
      entry: 'countRetry',
      after: { retryDelay: 'loading' },
    },
    failed: {
      on: { 'buckets.retry': { target: 'loading', actions: assign({ retries: 0 }) } },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'create.open': { guard: 'mayManage', target: 'creating', actions: assign({ draft: EMPTY_DRAFT, createError: null }) },
            'bucket.delete': { guard: 'mayManage', target: 'deleting', actions: assign(({ event }) => ({ deleteId: event.id, deleteError: null })) },
          },
        },
        creating: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'create.edit': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.draft } })) },
                'create.submit': { guard: 'isDraftValid', target: 'submitting', actions: assign({ createError: null }) },
                'create.cancel': { target: '#storageBuckets.loaded.idle' },
              },
            },
            submitting: {
              invoke: {
                id: 'createBucket',
                src: 'createBucket',
                input: ({ context }) => {
                  const made = createBodyOf(context.draft)
                  // The guard let only a valid draft in; the fallback keeps the types whole.
                  return { ref: context.ref, body: made.ok ? made.body : { name: context.draft.name } }
                },
                onDone: {
                  target: '#storageBuckets.loaded.idle',
                  actions: assign(({ context, event }) => ({
                    buckets: [...context.buckets.filter((bucket) => bucket.id !== event.output.id), event.output],
                    draft: EMPTY_DRAFT,
                  })),
                },
                onError: { target: 'editing', actions: { type: 'storeCreateError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to create bucket') }) } },
              },
              after: {
                requestTimeout: { target: 'editing', actions: { type: 'storeCreateError', params: { error: TIMED_OUT } } },
              },
            },
          },
        },
        deleting: {
          initial: 'confirming',
          states: {
            confirming: {
              on: {
                'delete.confirm': { target: 'submitting', actions: assign({ deleteError: null }) },
                'delete.cancel': { target: '#storageBuckets.loaded.idle', actions: assign({ deleteId: null, deleteError: null }) },
              },
            },
            submitting: {
              invoke: {
                id: 'deleteBucket',
                src: 'deleteBucket',
                input: ({ context }) => ({ ref: context.ref, id: context.deleteId ?? '' }),
                onDone: {
                  target: '#storageBuckets.loaded.idle',
                  actions: assign(({ context }) => ({ buckets: context.buckets.filter((bucket) => bucket.id !== context.deleteId), deleteId: null })),
                },
                onError: { target: 'confirming', actions: { type: 'storeDeleteError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to delete bucket') }) } },
              },
              after: {
                requestTimeout: { target: 'confirming', actions: { type: 'storeDeleteError', params: { error: TIMED_OUT } } },
              },
            },
          },
        },
      },
    },
  },
})

/** 'All types' for null (every type allowed), 'None' for [] (none allowed), otherwise the types. */
export function mimeTypesLabel(types: string[] | null): string {
  if (types === null) return 'All types'
  if (types.length === 0) return 'None'
  return types.join(', ')
}

/** 'No limit' for null, otherwise the size in the largest unit it reaches (1024-based), e.g. '50 MB', '1.5 GB'. */
export function sizeLimitLabel(bytes: number | null): string {
  if (bytes === null) return 'No limit'
  const unit = [...SIZE_UNITS].reverse().find((u) => bytes >= UNIT_BYTES[u]) ?? 'bytes'
  if (unit === 'bytes') return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const amount = Math.round((bytes / UNIT_BYTES[unit]) * 100) / 100
  return `${amount} ${unit}`
}

export type StorageBucketsView =
  | { phase: 'loading'; retry: number; lastError: string | null }
  | { phase: 'failed'; error: string; storageDisabled: boolean }
  | {
      phase: 'loaded'
      buckets: Bucket[]
      /** Create and delete are offered (otherwise the member browses only). */
      writable: boolean
      create: { draft: BucketDraft; errors: DraftErrors; submitting: boolean; error: string | null } | null
      remove: { bucket: Bucket; submitting: boolean; error: string | null } | null
    }

export function selectStorageBucketsView(snapshot: SnapshotFrom<typeof storageBucketsMachine>): StorageBucketsView {
  const { buckets, retries, loadError, draft, createError, deleteId, deleteError, canManage } = snapshot.context
  if (snapshot.matches('loading') || snapshot.matches('waitingToRetry')) return { phase: 'loading', retry: retries, lastError: loadError }
  if (snapshot.matches('failed')) {
    const error = loadError ?? 'Failed to load buckets'
    return { phase: 'failed', error, storageDisabled: isTenantConfigNotFound(error) }
  }
  const made = createBodyOf(draft)
  const deleted = buckets.find((bucket) => bucket.id === deleteId)
  return {
    phase: 'loaded',
    buckets,
    writable: canManage,
    create: snapshot.matches({ loaded: 'creating' })
      ? { draft, errors: made.ok ? {} : made.errors, submitting: snapshot.matches({ loaded: { creating: 'submitting' } }), error: createError }
      : null,
    remove:
      snapshot.matches({ loaded: 'deleting' }) && deleted
        ? { bucket: deleted, submitting: snapshot.matches({ loaded: { deleting: 'submitting' } }), error: deleteError }
        : null,
  }
}
