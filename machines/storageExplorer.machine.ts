/**
 * Storage › a bucket's files: the storage API found (the project's URL and service key) with the bucket's settings,
 * then two regions side by side — `listing`, the current folder (opened by breadcrumbs or a folder, filtered by a
 * search listed once the typing pauses), and `panel`, what the person is doing with it (a file's details and preview, a new folder, rename/move,
 * delete, 'Get URL', the bucket's settings). Uploads are child machines (storageUpload), one per file, spawned here.
 * The folder shows as a list, or as columns (the platform's Miller columns: the bucket's root, then each folder of the
 * path to its right, the open folder last); the columns to the left are the listings read on the way, kept until a
 * folder outside the path is opened.
 * A member without the service key browses and downloads only: every change is guarded by `mayWrite`.
 * Invariants: a change that lands lists the folder again (`folder.reload`), and so does every stored upload, without
 * closing what the panel shows; a failed change keeps its dialog open with storage's message as it is; a read
 * unanswered after requestTimeout is abandoned (its signal aborted) and reported like a failure.
 */
import { and, assign, enqueueActions, fromPromise, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import type { Bucket } from '../src/contracts/storage'
import { publicObjectUrl } from '../src/contracts/endpoints/storageObjects'
import type { BucketSettingsBody, ObjectInfo, StorageListItem } from '../src/contracts/storageObjects'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'
import { EMPTY_DRAFT, SIZE_UNITS, createBodyOf, type BucketDraft, type DraftErrors } from './storageBuckets.machine'
import { storageUploadMachine, type UploadTarget } from './storageUpload.machine'

/**
 * The project's storage as the member reaches it: with the service key (every change offered), or without it
 * (`key: null`: a member who may not read the key browses and downloads only, through the platform's reads).
 */
export type Connection = UploadTarget['connection'] | { url: string; key: null; ref: string }

/** What the details panel shows of a file: its facts, a short-lived signed URL (preview, download), a text's start. */
export interface Preview {
  info: ObjectInfo
  url: string
  text: string | null
}

/** The expiries 'Get URL' offers for a private bucket's signed URL, in seconds. */
export const URL_EXPIRIES = [
  { seconds: 60 * 60, label: '1 hour' },
  { seconds: 24 * 60 * 60, label: '1 day' },
  { seconds: 7 * 24 * 60 * 60, label: '1 week' },
  { seconds: 30 * 24 * 60 * 60, label: '1 month' },
  { seconds: 365 * 24 * 60 * 60, label: '1 year' },
] as const

/** How the open folder is shown: a table, or the columns of each folder on the path. */
export type Layout = 'list' | 'columns'

/** A folder listed on the way to the open one: its path ('' for the root) and what it held. */
export interface FolderColumn {
  path: string
  items: StorageListItem[]
}

/** Whether `folder` lies on the way to `path` (strictly above it). */
export const isAbove = (folder: string, path: string) => (folder === '' ? path !== '' : path.startsWith(`${folder}/`))

/** Entries to delete: files by path, folders with everything under them. */
export type DeleteEntry = { path: string; folder: boolean }

interface Context {
  ref: string
  bucketId: string
  connection: Connection | null
  bucket: Bucket | null
  connectError: string | null
  /** The open folder: '' is the bucket's root, else a path without a trailing slash. */
  path: string
  search: string
  items: StorageListItem[]
  layout: Layout
  /** The listings of the folders above the open one, root first (the columns to its left). */
  columns: FolderColumn[]
  listError: string | null
  /** Names in the open folder ticked for deletion. */
  selected: string[]
  uploads: Array<ActorRefFrom<typeof storageUploadMachine>>
  /** The entry the panel is about (a name in the open folder). */
  focus: string | null
  /** Whether the entry being renamed is a folder (every object under it moves). */
  focusIsFolder: boolean
  /** The text typed in the new folder or rename dialog. */
  draft: string
  panelError: string | null
  deleting: DeleteEntry[]
  expiry: number
  url: string | null
  preview: Preview | null
  settings: BucketDraft
}

export type StorageExplorerEvent =
  | { type: 'explorer.retry' }
  | { type: 'listing.retry' }
  | { type: 'folder.open'; path: string }
  | { type: 'folder.reload' }
  | { type: 'layout.change'; layout: Layout }
  | { type: 'search.change'; text: string }
  | { type: 'item.toggle'; name: string }
  | { type: 'selection.clear' }
  | { type: 'files.add'; files: File[] }
  | { type: 'upload.stored'; path: string }
  | { type: 'uploads.clear' }
  | { type: 'item.open'; name: string }
  | { type: 'details.close' }
  | { type: 'folder.new' }
  | { type: 'folder.edit'; name: string }
  | { type: 'folder.submit' }
  | { type: 'folder.cancel' }
  | { type: 'item.rename'; name: string }
  | { type: 'rename.edit'; to: string }
  | { type: 'rename.submit' }
  | { type: 'rename.cancel' }
  | { type: 'item.delete'; name: string }
  | { type: 'selection.delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'url.open'; name: string }
  | { type: 'url.expiry'; seconds: number }
  | { type: 'url.sign' }
  | { type: 'url.close' }
  | { type: 'settings.open' }
  | { type: 'settings.edit'; draft: Partial<BucketDraft> }
  | { type: 'settings.save' }
  | { type: 'settings.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** The full path of a name in a folder. */
export const pathIn = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`)

/** A folder or file name as typed: what is wrong with it, or null. */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'A name is required'
  if (trimmed.split('/').some((part) => part === '' || part === '.' || part === '..')) return "A path cannot have empty, '.' or '..' parts"
  if (/[\\\u0000]/.test(trimmed)) return 'A name cannot contain a backslash or a NUL character'
  if (new TextEncoder().encode(trimmed).length > 1024) return 'A path must be at most 1,024 bytes'
  return null
}

/** What is wrong with a rename's new path, or null: a name's rules, and a folder cannot move inside itself. */
export function renameProblem(from: string, to: string, folder: boolean): string | null {
  const problem = nameProblem(to)
  if (problem) return problem
  if (folder && `${to.trim()}/`.startsWith(`${from}/`)) return 'A folder cannot move inside itself'
  return null
}

/** The settings dialog's fields for a bucket as it is. */
export function draftOfBucket(bucket: Bucket): BucketDraft {
  const limit = bucket.file_size_limit
  let sizeLimit = ''
  let sizeUnit: BucketDraft['sizeUnit'] = 'MB'
  if (limit !== null) {
    const factors = { bytes: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const
    const unit = [...SIZE_UNITS].reverse().find((u) => limit % factors[u] === 0) ?? 'bytes'
    sizeLimit = String(limit / factors[unit])
    sizeUnit = unit
  }
  return { ...EMPTY_DRAFT, name: bucket.name, public: bucket.public, mimeTypes: (bucket.allowed_mime_types ?? []).join(', '), sizeLimit, sizeUnit }
}

/** The settings request of a draft, or what is wrong with it (the same rules as creating a bucket). */
export function settingsBodyOf(draft: BucketDraft): { ok: true; body: BucketSettingsBody } | { ok: false; errors: DraftErrors } {
  const made = createBodyOf(draft)
  if (!made.ok) return made
  return {
    ok: true,
    body: { public: made.body.public ?? false, file_size_limit: made.body.file_size_limit ?? null, allowed_mime_types: made.body.allowed_mime_types ?? null },
  }
}


export const storageExplorerMachine = setup({
  types: {
    input: {} as { ref: string; bucketId: string },
    context: {} as Context,
    events: {} as StorageExplorerEvent,
  },
  actors: {
    connectStorage: fromPromise<{ connection: Connection; bucket: Bucket }, { ref: string; bucketId: string }>(async () => {
      throw new Error('connectStorage not provided')
    }),
    listFolder: fromPromise<StorageListItem[], { connection: Connection; bucket: string; path: string; search: string }>(async () => {
      throw new Error('listFolder not provided')
    }),
    loadPreview: fromPromise<Preview, { connection: Connection; bucket: string; path: string }>(async () => {
      throw new Error('loadPreview not provided')
    }),
    createFolder: fromPromise<void, { connection: Connection; bucket: string; path: string }>(async () => {
      throw new Error('createFolder not provided')
    }),
    moveObject: fromPromise<void, { connection: Connection; bucket: string; from: string; to: string; folder: boolean }>(async () => {
      throw new Error('moveObject not provided')
    }),
    removeObjects: fromPromise<void, { connection: Connection; bucket: string; entries: DeleteEntry[] }>(async () => {
      throw new Error('removeObjects not provided')
    }),
    signUrl: fromPromise<string, { connection: Connection; bucket: string; path: string; expiresIn: number }>(async () => {
      throw new Error('signUrl not provided')
    }),
    updateBucket: fromPromise<void, { connection: Connection; bucket: string; body: BucketSettingsBody }>(async () => {
      throw new Error('updateBucket not provided')
    }),
    storageUpload: storageUploadMachine,
  },
  actions: {
    storePanelError: assign((_, params: { error: string }) => ({ panelError: params.error })),
    reloadFolder: raise({ type: 'folder.reload' }),
  },
  guards: {
    isPublic: ({ context }) => context.bucket?.public === true,
    mayWrite: ({ context }) => context.connection !== null && context.connection.key !== null,
    isFolderNameValid: ({ context }) => nameProblem(context.draft) === null,
    isRenameValid: ({ context }) => {
      const from = pathIn(context.path, context.focus ?? '')
      return renameProblem(from, context.draft, context.focusIsFolder) === null && context.draft.trim() !== from
    },
    hasSelection: ({ context }) => context.selected.length > 0,
    isSettingsValid: ({ context }) => settingsBodyOf(context.settings).ok,
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
    // Typing in the search box lists the folder once the typing pauses, not once per key.
    searchDebounce: 300,
  },
}).createMachine({
  id: 'storageExplorer',
  context: ({ input }) => ({
    ref: input.ref,
    bucketId: input.bucketId,
    connection: null,
    bucket: null,
    connectError: null,
    path: '',
    search: '',
    items: [],
    layout: 'list',
    columns: [],
    listError: null,
    selected: [],
    uploads: [],
    focus: null,
    focusIsFolder: false,
    draft: '',
    panelError: null,
    deleting: [],
    expiry: URL_EXPIRIES[0].seconds,
    url: null,
    preview: null,
    settings: EMPTY_DRAFT,
  }),
  initial: 'connecting',
  states: {
    connecting: {
      invoke: {
        id: 'connectStorage',
        src: 'connectStorage',
        input: ({ context }) => ({ ref: context.ref, bucketId: context.bucketId }),
        onDone: { target: 'browsing', actions: assign(({ event }) => ({ connection: event.output.connection, bucket: event.output.bucket, connectError: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ connectError: messageOf(event.error, 'Failed to open the bucket') })) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ connectError: TIMED_OUT }) } },
    },
    failed: {
      on: { 'explorer.retry': 'connecting' },
    },
    browsing: {
      type: 'parallel',
      on: {
        'files.add': {
          guard: 'mayWrite',
          actions: assign(({ context, event, spawn }) => ({
            uploads: [
              ...context.uploads,
              ...event.files.map((file) =>
                spawn('storageUpload', {
                  input: {
                    // mayWrite let only a connection with the key in.
                    connection: { url: context.connection!.url, key: context.connection!.key ?? '' },
                    bucket: context.bucketId,
                    path: pathIn(context.path, file.name),
                    file,
                    exists: context.items.some((item) => item.id !== null && item.name === file.name),
                  },
                }),
              ),
            ],
          })),
        },
        'upload.stored': { actions: 'reloadFolder' },
        'uploads.clear': {
          actions: enqueueActions(({ context, enqueue }) => {
            const running = context.uploads.filter((upload) => ['uploading', 'failed', 'conflict'].some((state) => upload.getSnapshot().matches(state as never)))
            for (const upload of context.uploads) if (!running.includes(upload)) enqueue.stopChild(upload)
            enqueue.assign({ uploads: running })
          }),
        },
      },
      states: {
        listing: {
          initial: 'loading',
          on: {
            'folder.open': {
              target: '.loading',
              actions: assign(({ context, event }) => {
                // Keep what was read above the new folder; what it held itself is read again.
                const kept = [...context.columns, { path: context.path, items: context.items }].filter((column) => isAbove(column.path, event.path))
                return { path: event.path, search: '', selected: [], columns: kept }
              }),
            },
            'folder.reload': { target: '.loading' },
            'layout.change': { actions: assign(({ event }) => ({ layout: event.layout })) },
            // Each key restarts the pause (re-entering `debouncing`); the list shown stays until the pause ends.
            'search.change': { target: '.debouncing', reenter: true, actions: assign(({ event }) => ({ search: event.text, selected: [] })) },
          },
          states: {
            debouncing: {
              after: { searchDebounce: 'loading' },
            },
            loading: {
              invoke: {
                id: 'listFolder',
                src: 'listFolder',
                input: ({ context }) => ({ connection: context.connection!, bucket: context.bucketId, path: context.path, search: context.search }),
                onDone: {
                  target: 'ready',
                  actions: assign(({ context, event }) => ({
                    items: event.output,
                    listError: null,
                    selected: context.selected.filter((name) => event.output.some((item) => item.name === name)),
                  })),
                },
                onError: { target: 'failed', actions: assign(({ event }) => ({ listError: messageOf(event.error, 'Failed to list the folder') })) },
              },
              after: { requestTimeout: { target: 'failed', actions: assign({ listError: TIMED_OUT }) } },
            },
            ready: {
              on: {
                'item.toggle': {
                  guard: 'mayWrite',
                  actions: assign(({ context, event }) => ({
                    selected: context.selected.includes(event.name) ? context.selected.filter((n) => n !== event.name) : [...context.selected, event.name],
                  })),
                },
                'selection.clear': { actions: assign({ selected: [] }) },
              },
            },
            failed: {
              on: { 'listing.retry': 'loading' },
            },
          },
        },
        panel: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'item.open': { target: 'details', actions: assign(({ event }) => ({ focus: event.name, panelError: null, preview: null })) },
                'folder.new': { guard: 'mayWrite', target: 'newFolder', actions: assign({ draft: '', panelError: null }) },
                'item.rename': { guard: 'mayWrite', target: 'renaming', actions: assign(({ context, event }) => ({ focus: event.name, focusIsFolder: entryOf(context, event.name).folder, draft: pathIn(context.path, event.name), panelError: null })) },
                'item.delete': { guard: 'mayWrite', target: 'deleting', actions: assign(({ context, event }) => ({ deleting: [entryOf(context, event.name)], panelError: null })) },
                'selection.delete': { guard: and(['mayWrite', 'hasSelection']), target: 'deleting', actions: assign(({ context }) => ({ deleting: context.selected.map((name) => entryOf(context, name)), panelError: null })) },
                'url.open': [
                  {
                    guard: 'isPublic',
                    target: 'url.ready',
                    actions: assign(({ context, event }) => ({ focus: event.name, panelError: null, url: publicObjectUrl(context.connection!.url, context.bucketId, pathIn(context.path, event.name)) })),
                  },
                  { target: 'url.choosing', actions: assign(({ event }) => ({ focus: event.name, panelError: null, url: null, expiry: URL_EXPIRIES[0].seconds })) },
                ],
                'settings.open': { guard: 'mayWrite', target: 'settings', actions: assign(({ context }) => ({ settings: draftOfBucket(context.bucket!), panelError: null })) },
              },
            },
            details: {
              initial: 'loading',
              // What the rows offer stays open beside a file's details: another file, a dialog (the details give way).
              on: {
                'details.close': { target: 'idle', actions: assign({ focus: null, preview: null }) },
                'item.open': { target: 'details', reenter: true, actions: assign(({ event }) => ({ focus: event.name, panelError: null, preview: null })) },
                'folder.new': { guard: 'mayWrite', target: 'newFolder', actions: assign({ draft: '', panelError: null }) },
                'item.rename': { guard: 'mayWrite', target: 'renaming', actions: assign(({ context, event }) => ({ focus: event.name, focusIsFolder: entryOf(context, event.name).folder, draft: pathIn(context.path, event.name), panelError: null })) },
                'item.delete': { guard: 'mayWrite', target: 'deleting', actions: assign(({ context, event }) => ({ deleting: [entryOf(context, event.name)], panelError: null })) },
                'url.open': [
                  {
                    guard: 'isPublic',
                    target: 'url.ready',
                    actions: assign(({ context, event }) => ({ focus: event.name, panelError: null, url: publicObjectUrl(context.connection!.url, context.bucketId, pathIn(context.path, event.name)) })),
                  },
                  { target: 'url.choosing', actions: assign(({ event }) => ({ focus: event.name, panelError: null, url: null, expiry: URL_EXPIRIES[0].seconds })) },
                ],
                'settings.open': { guard: 'mayWrite', target: 'settings', actions: assign(({ context }) => ({ settings: draftOfBucket(context.bucket!), panelError: null })) },
              },
              states: {
                loading: {
                  invoke: {
                    id: 'loadPreview',
                    src: 'loadPreview',
                    input: ({ context }) => ({ connection: context.connection!, bucket: context.bucketId, path: pathIn(context.path, context.focus ?? '') }),
                    onDone: { target: 'ready', actions: assign(({ event }) => ({ preview: event.output })) },
                    onError: { target: 'failed', actions: { type: 'storePanelError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to read the file') }) } },
                  },
                },
                ready: {},
                failed: {},
              },
            },
            newFolder: {
              initial: 'editing',
              states: {
                editing: {
                  on: {
                    'folder.edit': { actions: assign(({ event }) => ({ draft: event.name })) },
                    'folder.submit': { guard: 'isFolderNameValid', target: 'submitting', actions: assign({ panelError: null }) },
                    'folder.cancel': { target: '#storageExplorer.browsing.panel.idle' },
                  },
                },
                submitting: {
                  invoke: {
                    id: 'createFolder',
                    src: 'createFolder',
                    input: ({ context }) => ({ connection: context.connection!, bucket: context.bucketId, path: pathIn(context.path, context.draft.trim()) }),
                    onDone: { target: '#storageExplorer.browsing.panel.idle', actions: 'reloadFolder' },
                    onError: { target: 'editing', actions: { type: 'storePanelError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to create the folder') }) } },
                  },
                },
              },
            },
            renaming: {
              initial: 'editing',
              states: {
                editing: {
                  on: {
                    'rename.edit': { actions: assign(({ event }) => ({ draft: event.to })) },
                    'rename.submit': { guard: 'isRenameValid', target: 'submitting', actions: assign({ panelError: null }) },
                    'rename.cancel': { target: '#storageExplorer.browsing.panel.idle' },
                  },
                },
                submitting: {
                  invoke: {
                    id: 'moveObject',
                    src: 'moveObject',
                    input: ({ context }) => ({
                      connection: context.connection!,
                      bucket: context.bucketId,
                      from: pathIn(context.path, context.focus ?? ''),
                      to: context.draft.trim(),
                      folder: context.focusIsFolder,
                    }),
                    onDone: { target: '#storageExplorer.browsing.panel.idle', actions: 'reloadFolder' },
                    onError: {
                      target: 'editing',
                      // A folder's move may have moved some objects before it failed: the list shows where each is.
                      actions: [{ type: 'storePanelError', params: ({ context, event }) => ({ error: messageOf(event.error, context.focusIsFolder ? 'Failed to move the folder' : 'Failed to move the file') }) }, 'reloadFolder'],
                    },
                  },
                },
              },
            },
            deleting: {
              initial: 'confirming',
              states: {
                confirming: {
                  on: {
                    'delete.confirm': { target: 'submitting', actions: assign({ panelError: null }) },
                    'delete.cancel': { target: '#storageExplorer.browsing.panel.idle', actions: assign({ deleting: [] }) },
                  },
                },
                submitting: {
                  invoke: {
                    id: 'removeObjects',
                    src: 'removeObjects',
                    input: ({ context }) => ({ connection: context.connection!, bucket: context.bucketId, entries: context.deleting }),
                    onDone: { target: '#storageExplorer.browsing.panel.idle', actions: [assign({ deleting: [], selected: [] }), 'reloadFolder'] },
                    onError: { target: 'confirming', actions: { type: 'storePanelError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to delete') }) } },
                  },
                },
              },
            },
            url: {
              initial: 'choosing',
              on: { 'url.close': { target: 'idle', actions: assign({ url: null, focus: null }) } },
              states: {
                choosing: {
                  on: {
                    'url.expiry': { actions: assign(({ event }) => ({ expiry: event.seconds })) },
                    'url.sign': { target: 'signing', actions: assign({ panelError: null }) },
                  },
                },
                signing: {
                  invoke: {
                    id: 'signUrl',
                    src: 'signUrl',
                    input: ({ context }) => ({ connection: context.connection!, bucket: context.bucketId, path: pathIn(context.path, context.focus ?? ''), expiresIn: context.expiry }),
                    onDone: { target: 'ready', actions: assign(({ event }) => ({ url: event.output })) },
                    onError: { target: 'choosing', actions: { type: 'storePanelError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to sign the URL') }) } },
                  },
                },
                ready: {},
              },
            },
            settings: {
              initial: 'editing',
              states: {
                editing: {
                  on: {
                    'settings.edit': { actions: assign(({ context, event }) => ({ settings: { ...context.settings, ...event.draft, name: context.settings.name } })) },
                    'settings.save': { guard: 'isSettingsValid', target: 'saving', actions: assign({ panelError: null }) },
                    'settings.cancel': { target: '#storageExplorer.browsing.panel.idle' },
                  },
                },
                saving: {
                  invoke: {
                    id: 'updateBucket',
                    src: 'updateBucket',
                    input: ({ context }) => {
                      const made = settingsBodyOf(context.settings)
                      // The guard let only a valid draft in; the fallback keeps the types whole.
                      return { connection: context.connection!, bucket: context.bucketId, body: made.ok ? made.body : { public: false, file_size_limit: null, allowed_mime_types: null } }
                    },
                    onDone: {
                      target: '#storageExplorer.browsing.panel.idle',
                      actions: assign(({ context }) => {
                        const made = settingsBodyOf(context.settings)
                        return made.ok && context.bucket ? { bucket: { ...context.bucket, ...made.body } } : {}
                      }),
                    },
                    onError: { target: 'editing', actions: { type: 'storePanelError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save the settings') }) } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
})

function entryOf(context: Context, name: string): DeleteEntry {
  const item = context.items.find((i) => i.name === name)
  return { path: pathIn(context.path, name), folder: item ? item.id === null : false }
}

export type ExplorerSnapshot = SnapshotFrom<typeof storageExplorerMachine>

export type PanelView =
  | { kind: 'none' }
  | { kind: 'details'; name: string; phase: 'loading' | 'ready' | 'failed'; preview: Preview | null; error: string | null }
  | { kind: 'newFolder'; draft: string; problem: string | null; submitting: boolean; error: string | null }
  | { kind: 'rename'; name: string; folder: boolean; draft: string; problem: string | null; submitting: boolean; error: string | null }
  | { kind: 'delete'; entries: DeleteEntry[]; submitting: boolean; error: string | null }
  | { kind: 'url'; name: string; phase: 'choosing' | 'signing' | 'ready'; isPublic: boolean; expiry: number; url: string | null; error: string | null }
  | { kind: 'settings'; draft: BucketDraft; errors: DraftErrors; saving: boolean; error: string | null }

export type ExplorerView =
  | { phase: 'connecting' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'browsing'
      bucket: Bucket
      /** Changes are offered (the member holds the service key); otherwise browse and download only. */
      writable: boolean
      path: string
      /** The breadcrumbs: the bucket, then each folder of the path with the path that opens it. */
      crumbs: Array<{ label: string; path: string }>
      search: string
      layout: Layout
      /**
       * In the columns layout, the folders above the open one, root first: each with its label, what it held and the
       * name of its folder that is open (the next column). The open folder itself is `listing`.
       */
      columns: Array<{ path: string; label: string; items: StorageListItem[]; open: string }>
      listing: { phase: 'loading' | 'ready' | 'failed'; items: StorageListItem[]; error: string | null }
      selected: string[]
      panel: PanelView
    }

export function selectExplorerView(snapshot: ExplorerSnapshot): ExplorerView {
  const c = snapshot.context
  if (snapshot.matches('connecting')) return { phase: 'connecting' }
  if (snapshot.matches('failed') || !c.bucket) return { phase: 'failed', error: c.connectError ?? 'Failed to open the bucket' }
  const parts = c.path === '' ? [] : c.path.split('/')
  const crumbs = [{ label: c.bucket.name, path: '' }, ...parts.map((part, i) => ({ label: part, path: parts.slice(0, i + 1).join('/') }))]
  const listingPhase = snapshot.matches({ browsing: { listing: 'loading' } }) ? 'loading' : snapshot.matches({ browsing: { listing: 'failed' } }) ? 'failed' : 'ready'
  return {
    phase: 'browsing',
    bucket: c.bucket,
    writable: c.connection !== null && c.connection.key !== null,
    path: c.path,
    crumbs,
    search: c.search,
    layout: c.layout,
    columns:
      c.layout === 'columns'
        ? crumbs.slice(0, -1).flatMap((crumb, i) => {
            const column = c.columns.find((listed) => listed.path === crumb.path)
            return column ? [{ path: crumb.path, label: crumb.label, items: column.items, open: crumbs[i + 1].label }] : []
          })
        : [],
    listing: { phase: listingPhase, items: c.items, error: c.listError },
    selected: c.selected,
    panel: panelOf(snapshot),
  }
}

function panelOf(snapshot: ExplorerSnapshot): PanelView {
  const c = snapshot.context
  const at = (state: string) => snapshot.matches({ browsing: { panel: state } } as never)
  const sub = (state: string, inner: string) => snapshot.matches({ browsing: { panel: { [state]: inner } } } as never)
  if (at('details')) {
    return { kind: 'details', name: c.focus ?? '', phase: sub('details', 'loading') ? 'loading' : sub('details', 'failed') ? 'failed' : 'ready', preview: c.preview, error: c.panelError }
  }
  if (at('newFolder')) return { kind: 'newFolder', draft: c.draft, problem: nameProblem(c.draft), submitting: sub('newFolder', 'submitting'), error: c.panelError }
  if (at('renaming')) {
    const problem = renameProblem(pathIn(c.path, c.focus ?? ''), c.draft, c.focusIsFolder)
    return { kind: 'rename', name: c.focus ?? '', folder: c.focusIsFolder, draft: c.draft, problem, submitting: sub('renaming', 'submitting'), error: c.panelError }
  }
  if (at('deleting')) return { kind: 'delete', entries: c.deleting, submitting: sub('deleting', 'submitting'), error: c.panelError }
  if (at('url')) {
    const phase = sub('url', 'choosing') ? 'choosing' : sub('url', 'signing') ? 'signing' : 'ready'
    return { kind: 'url', name: c.focus ?? '', phase, isPublic: c.bucket?.public === true, expiry: c.expiry, url: c.url, error: c.panelError }
  }
  if (at('settings')) {
    const made = settingsBodyOf(c.settings)
    return { kind: 'settings', draft: c.settings, errors: made.ok ? {} : made.errors, saving: sub('settings', 'saving'), error: c.panelError }
  }
  return { kind: 'none' }
}

export const selectUploads = (snapshot: ExplorerSnapshot) => snapshot.context.uploads

/** What each row of the folder offers now. */
export interface RowActions {
  toggle: boolean
  open: boolean
  rename: boolean
  delete: boolean
  url: boolean
}

/**
 * What the folder's rows offer, asked once for all of them: no guard of these events reads the entry named, so every
 * row offers the same, and a scroll that brings rows into view asks the machine nothing.
 */
export const selectRowActions = (snapshot: ExplorerSnapshot): RowActions => ({
  toggle: snapshot.can({ type: 'item.toggle', name: '' }),
  open: snapshot.can({ type: 'item.open', name: '' }),
  rename: snapshot.can({ type: 'item.rename', name: '' }),
  delete: snapshot.can({ type: 'item.delete', name: '' }),
  url: snapshot.can({ type: 'url.open', name: '' }),
})

/** The same offer (selectRowActions makes a new object each time): the rows keep theirs. */
export const sameRowActions = (a: RowActions, b: RowActions) =>
  a.toggle === b.toggle && a.open === b.open && a.rename === b.rename && a.delete === b.delete && a.url === b.url

/** '1.5 MB' and the like (1024-based), for a file's size. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`
}
