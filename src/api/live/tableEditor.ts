/** The live actors of the Table Editor: the tables of schema public and a page of a table's rows. */
import { fromPromise } from 'xstate'
import { tableEditorMachine, type RowsRequest } from '../../../machines/tableEditor.machine'
import { getTableRows, listTables } from '../calls/database'

type Signal = { signal: AbortSignal }

export const liveTableEditorMachine = tableEditorMachine.provide({
  actors: {
    listTables: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listTables(input.ref, { signal })),
    getTableRows: fromPromise(({ input, signal }: Signal & { input: RowsRequest }) =>
      getTableRows(input.ref, input.table, { offset: input.offset, limit: input.limit }, { signal }),
    ),
  },
})
