/**
 * Table Editor CSV import: a chosen file streamed to the platform with its progress shown, then the rows inserted
 * or the file refused with its bad rows (nothing is half-imported: the platform imports all of it or none).
 * Invariants: one upload at a time; cancelling an upload aborts it (the invoked callback's cleanup) and nothing is
 * imported; a refusal keeps the bad rows to show until another file is chosen.
 */
import { assign, fromCallback, setup, type SnapshotFrom } from 'xstate'

export interface BadRow {
  line: number
  message: string
}

export interface UploadRequest {
  ref: string
  table: string
  file: Blob
}

/** What the upload tells the machine: its progress, then its one outcome. */
export type UploadReport =
  | { type: 'upload.progressed'; loaded: number; total: number }
  | { type: 'upload.finished'; inserted: number }
  | { type: 'upload.refused'; message: string; badRows: BadRow[] }

interface Context {
  ref: string
  table: string
  file: Blob | null
  fileName: string
  loaded: number
  total: number
  inserted: number
  error: string | null
  badRows: BadRow[]
}

export type ImportEvent = { type: 'file.chosen'; file: Blob; name: string } | { type: 'upload.cancel' } | UploadReport

export const tableImportMachine = setup({
  types: {
    input: {} as { ref: string; table: string },
    context: {} as Context,
    events: {} as ImportEvent,
    children: {} as { uploadCsv: 'uploadCsv' },
  },
  actors: {
    uploadCsv: fromCallback<ImportEvent, UploadRequest>(() => {
      throw new Error('uploadCsv not provided')
    }),
  },
}).createMachine({
  id: 'tableImport',
  context: ({ input }) => ({ ref: input.ref, table: input.table, file: null, fileName: '', loaded: 0, total: 0, inserted: 0, error: null, badRows: [] }),
  initial: 'idle',
  on: {
    'file.chosen': {
      target: '.uploading',
      reenter: true,
      actions: assign({
        file: ({ event }) => event.file,
        fileName: ({ event }) => event.name,
        loaded: 0,
        total: ({ event }) => event.file.size,
        error: null,
        badRows: [],
      }),
    },
  },
  states: {
    idle: {},
    uploading: {
      invoke: {
        id: 'uploadCsv',
        src: 'uploadCsv',
        input: ({ context }) => ({ ref: context.ref, table: context.table, file: context.file! }),
      },
      on: {
        'upload.progressed': { actions: assign({ loaded: ({ event }) => event.loaded, total: ({ event }) => event.total }) },
        'upload.finished': { target: 'imported', actions: assign({ inserted: ({ event }) => event.inserted, file: null }) },
        'upload.refused': { target: 'refused', actions: assign({ error: ({ event }) => event.message, badRows: ({ event }) => event.badRows, file: null }) },
        'upload.cancel': { target: 'idle', actions: assign({ file: null, loaded: 0 }) },
      },
    },
    imported: {},
    refused: {},
  },
})

type TableImportSnapshot = SnapshotFrom<typeof tableImportMachine>

export type TableImportView =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string; percent: number }
  | { phase: 'imported'; fileName: string; inserted: number }
  | { phase: 'refused'; fileName: string; error: string; badRows: BadRow[] }

export function selectTableImportView(snapshot: TableImportSnapshot): TableImportView {
  const { fileName, loaded, total, inserted, error, badRows } = snapshot.context
  if (snapshot.matches('uploading')) return { phase: 'uploading', fileName, percent: total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0 }
  if (snapshot.matches('imported')) return { phase: 'imported', fileName, inserted }
  if (snapshot.matches('refused')) return { phase: 'refused', fileName, error: error ?? 'The file was refused', badRows }
  return { phase: 'idle' }
}
