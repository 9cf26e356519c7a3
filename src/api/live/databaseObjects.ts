/** The live actors of the Database section's object pages and the Policies page. */
import { fromPromise } from 'xstate'
import { databaseObjectsMachine, type ObjectsAnswer } from '../../../machines/databaseObjects.machine'
import { SCHEMA_KINDS, type ObjectChangeInput, type ObjectKind } from '../../contracts/databaseObjects'
import { applyDatabaseChange, listDatabaseObjects, listDatabaseSchemas, previewDatabaseChange } from '../calls/databaseObjects'

type Signal = { signal: AbortSignal }

export const liveDatabaseObjectsMachine = databaseObjectsMachine.provide({
  actors: {
    listObjects: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; kind: ObjectKind; schema: string } }): Promise<ObjectsAnswer> => {
      const perSchema = SCHEMA_KINDS.includes(input.kind)
      const [data, schemas] = await Promise.all([
        listDatabaseObjects(input.ref, input.kind, input.schema, { signal }),
        perSchema ? listDatabaseSchemas(input.ref, { signal }) : Promise.resolve([]),
      ])
      return { data, schemas }
    }),
    previewChange: fromPromise(({ input, signal }: Signal & { input: { ref: string; change: ObjectChangeInput } }) =>
      previewDatabaseChange(input.ref, input.change, { signal }).then((preview) => preview.sql),
    ),
    applyChange: fromPromise(({ input, signal }: Signal & { input: { ref: string; change: ObjectChangeInput } }) =>
      applyDatabaseChange(input.ref, input.change, { signal }),
    ),
  },
})
