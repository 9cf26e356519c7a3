/** The live actors of the Table Editor's grid, form and CSV import. */
import { fromCallback, fromPromise } from 'xstate'
import { tableFormMachine, type DefinitionRequest, type FormData } from '../../../machines/tableForm.machine'
import { tableGridMachine, type ReferenceSearch, type RowsRequest, type UpdateRequest, type Row } from '../../../machines/tableGrid.machine'
import { tableImportMachine, type ImportEvent, type UploadRequest } from '../../../machines/tableImport.machine'
import { alterTable, createTable, deleteRows, getRows, getTableDefinition, getTableReferences, insertRow, updateRow, uploadCsv } from '../calls/tableEditor'

type Signal = { signal: AbortSignal }

export const liveTableGridMachine = tableGridMachine.provide({
  actors: {
    getRows: fromPromise(({ input, signal }: Signal & { input: RowsRequest }) =>
      getRows(input.ref, input.table, { sort: input.query.sort, filters: input.query.filters, offset: input.query.page * input.query.pageSize, limit: input.query.pageSize }, { signal }),
    ),
    updateRow: fromPromise(({ input, signal }: Signal & { input: UpdateRequest }) =>
      updateRow(input.ref, input.table, { key: input.key, previous: input.previous, values: input.values }, { signal }),
    ),
    insertRow: fromPromise(({ input, signal }: Signal & { input: { ref: string; table: string; values: Row } }) => insertRow(input.ref, input.table, input.values, { signal })),
    deleteRows: fromPromise(({ input, signal }: Signal & { input: { ref: string; table: string; keys: Row[] } }) => deleteRows(input.ref, input.table, input.keys, { signal })),
    // The referenced table's rows through the same rows route, in key order, its key or label containing the term.
    searchReference: fromPromise(({ input, signal }: Signal & { input: ReferenceSearch }) => {
      const { table, column, label } = input.reference
      return getRows(
        input.ref,
        table,
        {
          sort: [{ column, ascending: true }],
          filters: [],
          offset: input.offset,
          limit: input.limit,
          search: { term: input.term, columns: label === null ? [column] : [column, label] },
        },
        { signal },
      )
    }),
  },
})

const definitionCall = ({ input, signal }: Signal & { input: DefinitionRequest }) =>
  input.table === null ? createTable(input.ref, input.definition, input.run, { signal }) : alterTable(input.ref, input.table, input.definition, input.run, { signal })

export const liveTableFormMachine = tableFormMachine.provide({
  actors: {
    loadForm: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; table: string | null } }): Promise<FormData> => {
      const [definition, references] = await Promise.all([
        input.table === null ? null : getTableDefinition(input.ref, input.table, { signal }),
        getTableReferences(input.ref, { signal }),
      ])
      return { definition, references: references.tables }
    }),
    previewTable: fromPromise(definitionCall),
    runTable: fromPromise(definitionCall),
  },
})

export const liveTableImportMachine = tableImportMachine.provide({
  actors: {
    uploadCsv: fromCallback<ImportEvent, UploadRequest>(({ input, sendBack }) => {
      const abort = new AbortController()
      void uploadCsv(input.ref, input.table, input.file, (loaded, total) => sendBack({ type: 'upload.progressed', loaded, total }), abort.signal).then((outcome) =>
        sendBack(outcome.ok ? { type: 'upload.finished', inserted: outcome.inserted } : { type: 'upload.refused', message: outcome.message, badRows: outcome.badRows }),
      )
      return () => abort.abort()
    }),
  },
})
