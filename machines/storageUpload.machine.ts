/**
 * One file's upload in the file browser: its bytes sent with progress (the `sendFile` actor reports `upload.progressed`
 * as bytes leave, then `upload.finished` or `upload.failed`), cancellable while it runs, retried after a failure.
 * Invariants: leaving `uploading` stops the transfer (the actor's cleanup cancels it, so nothing is stored); the
 * parent hears `upload.stored` exactly once per stored file, so it can list the folder again.
 */
import { assign, fromCallback, sendParent, setup, type SnapshotFrom } from 'xstate'

/** What the machine needs of the project's storage API; opaque here (the live actor knows its shape). */
export interface UploadTarget {
  connection: { url: string; key: string }
  bucket: string
  /** The object's full path in the bucket. */
  path: string
  file: Blob
}

export type UploadReport =
  | { type: 'upload.progressed'; loaded: number; total: number }
  | { type: 'upload.finished' }
  | { type: 'upload.failed'; message: string }

export type UploadEvent = UploadReport | { type: 'upload.cancel' } | { type: 'upload.retry' }

interface Context extends UploadTarget {
  loaded: number
  total: number
  error: string | null
}

export const storageUploadMachine = setup({
  types: {
    input: {} as UploadTarget,
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
}).createMachine({
  id: 'storageUpload',
  context: ({ input }) => ({ ...input, loaded: 0, total: input.file.size, error: null }),
  initial: 'uploading',
  states: {
    uploading: {
      entry: assign({ loaded: 0, error: null }),
      invoke: {
        id: 'sendFile',
        src: 'sendFile',
        input: ({ context }) => ({ connection: context.connection, bucket: context.bucket, path: context.path, file: context.file }),
      },
      on: {
        'upload.progressed': { actions: assign(({ event }) => ({ loaded: event.loaded, total: event.total })) },
        'upload.finished': { target: 'stored', actions: [assign(({ context }) => ({ loaded: context.total })), 'tellStored'] },
        'upload.failed': { target: 'failed', actions: assign(({ event }) => ({ error: event.message })) },
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
  phase: 'uploading' | 'failed' | 'stored' | 'cancelled'
  error: string | null
}

export function selectUploadView(snapshot: SnapshotFrom<typeof storageUploadMachine>): UploadView {
  const { path, loaded, total, error } = snapshot.context
  const phase = snapshot.matches('uploading') ? 'uploading' : snapshot.matches('failed') ? 'failed' : snapshot.matches('stored') ? 'stored' : 'cancelled'
  const percent = phase === 'stored' ? 100 : total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0
  return { name: path.split('/').pop() ?? path, path, percent, phase, error }
}
