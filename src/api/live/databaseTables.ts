/** The live actor of the Database page: the tables of schema public with their columns and keys. */
import { fromPromise } from 'xstate'
import { databaseTablesMachine } from '../../../machines/databaseTables.machine'
import { listTables } from '../calls/database'

type Signal = { signal: AbortSignal }

export const liveDatabaseTablesMachine = databaseTablesMachine.provide({
  actors: {
    listTables: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listTables(input.ref, { signal })),
  },
})
