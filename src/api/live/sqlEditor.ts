/**
 * The live actors of the SQL Editor: the query call, and the text remembered per project in the browser's storage
 * (this device only), so a reload keeps what was typed.
 */
import { fromPromise } from 'xstate'
import { sqlEditorMachine } from '../../../machines/sqlEditor.machine'
import { QueryError } from '../../contracts/database'
import { runQuery } from '../calls/database'

type Signal = { signal: AbortSignal }

const keyOf = (ref: string) => `supabase-sql-editor:${ref}`

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/**
 * A failed query answers with the Postgres error (QueryError: 400, or 408 for the server's time-out): its fields go
 * on the Error the machine sees, so the editor can show the SQLSTATE and point at the position. A failure without
 * such a body (network, client time-out, malformed answer) goes as is.
 */
function withQueryFields(error: unknown): unknown {
  if (!(error instanceof Error) || !('body' in error)) return error
  const parsed = QueryError.safeParse(error.body)
  return parsed.success ? Object.assign(new Error(parsed.data.message), parsed.data) : error
}

export const liveSqlEditorMachine = sqlEditorMachine.provide({
  actors: {
    loadSavedQuery: fromPromise(async ({ input }: { input: { ref: string } }) => storage()?.getItem(keyOf(input.ref)) ?? null),
    runQuery: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; query: string } }) => {
      try {
        return await runQuery(input.ref, { query: input.query }, { signal })
      } catch (error) {
        throw withQueryFields(error)
      }
    }),
  },
  actions: {
    // A full or refused storage only loses the copy, never the text on screen.
    persistQuery: (_, params) => {
      try {
        storage()?.setItem(keyOf(params.ref), params.query)
      } catch {
        // nothing to do: the editor still holds the text
      }
    },
  },
})
