/**
 * One file's upload in the file browser: its bytes sent with progress (the `sendFile` actor reports `upload.progressed`
 * as bytes leave, then `upload.finished` or `upload.failed`), cancellable while it runs, retried after a failure.
 * A file whose name is taken (known from the folder's list, or answered 409 by the service) waits in `conflict`
 * until the person chooses to overwrite it (sent again with x-upsert, as the platform's dashboard does) or skips it.
 * Invariants: leaving `uploading` stops the transfer (the actor's cleanup cancels it, so nothing is stored); the
 * parent hears `upload.stored` exactly once per stored file, so it can list the folder again; nothing replaces an
 * object unless the person chose 'Overwrite'.
 */
import { assign, fromCallback, sendParent, setup, type SnapshotFrom } from 'xstate'

/** What the machine needs of the project's storage API; opaque here (the live actor knows its shape). */
export interface UploadTarget {
  connection: { url: string; key: string }
  bucket: string
  /** The object's full path in the bucket. */
  path: string
  file: Blob
  /** Replace an object of that name (x-upsert: true); otherwise the service refuses a taken name with 409. */
  upsert: boolean
}

export type UploadReport =
  | { type: 'upload.progressed'; loaded: number; total: number }
  | { type: 'upload.finished' }
  | { type: 'upload.failed'; message: string; conflict?: boolean }

export type UploadEvent = UploadReport | { type: 'upload.cancel' } | { type: 'upload.retry' } | { type: 'upload.overwrite' }

/** What the explorer starts an upload with: the target, and whether the folder already lists a file of that name. */
export interface UploadInput extends Omit<UploadTarget, 'upsert'> {
  exists: boolean
}

interface Context extends UploadTarget {
  exists: boolean
  loaded: number
  total: number
  error: string | null
}

export const storageUploadMachine = setup({
  types: {
    input: {} as UploadInput,
    context: {} as Context,
    events: {} as UploadEvent,
  },
  actors: {
    sendFile: fromCallback<UploadEvent, UploadTarget>(() => {
      throw new Error('sendFile not provided')
    }),
  },
  actions: {
    tellStored: sendParent(({ context }) => ({ type: 'upload.stored', path: context.path })),
  },
  guards: {
    isTaken: ({ context }) => context.exists,
    isConflict: (_, params: { conflict?: boolean }) => params.conflict === true,
  },
}).createMachine({
  id: 'storageUpload',
  context: ({ input }) => ({ connection: input.connection, bucket: input.bucket, path: input.path, file: input.file, exists: input.exists, upsert: false, loaded: 0, total: input.file.size, error: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isTaken', target: 'conflict' }, { target: 'uploading' }],
    },
    conflict: {
      on: {
        'upload.overwrite': { target: 'uploading', actions: assign({ upsert: true }) },
        'upload.cancel': { target: 'cancelled' },
      },
    },
    uploading: {
      entry: assign({ loaded: 0, error: null }),
      invoke: {
        id: 'sendFile',
        src: 'sendFile',
        input: ({ context }) => ({ connection: context.connection, bucket: context.bucket, path: context.path, file: context.file, upsert: context.upsert }),
      },
      on: {
        'upload.progressed': { actions: assign(({ event }) => ({ loaded: event.loaded, total: event.total })) },
        'upload.finished': { target: 'stored', actions: [assign(({ context }) => ({ loaded: context.total })), 'tellStored'] },
        'upload.failed': [
          // The name was taken meanwhile (another upload, another person): the same choice as a name listed.
          { guard: { type: 'isConflict', params: ({ event }) => ({ conflict: event.conflict }) }, target: 'conflict', actions: assign({ loaded: 0 }) },
          { target: 'failed', actions: assign(({ event }) => ({ error: event.message })) },
        ],
        'upload.cancel': { target: 'cancelled' },
      },
    },
    failed: {
      on: { 'upload.retry': { target: 'uploading' } },
    },
    stored: {},
    cancelled: {},
  },
})

export type UploadView = {
  name: string
  path: string
  /** 0–100. */
  percent: number
  phase: 'conflict' | 'uploading' | 'failed' | 'stored' | 'cancelled'
  error: string | null
}

export function selectUploadView(snapshot: SnapshotFrom<typeof storageUploadMachine>): UploadView {
  const { path, loaded, total, error } = snapshot.context
  const phase = snapshot.matches('conflict')
    ? 'conflict'
    : snapshot.matches('uploading') || snapshot.matches('checking')
      ? 'uploading'
      : snapshot.matches('failed')
        ? 'failed'
        : snapshot.matches('stored')
          ? 'stored'
          : 'cancelled'
  const percent = phase === 'stored' ? 100 : total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0
  return { name: path.split('/').pop() ?? path, path, percent, phase, error }
}
