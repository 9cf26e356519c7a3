/**
 * The live actors of the SQL Editor: runs, the completion catalog, the text remembered per project in the browser's
 * storage (this device only, so a reload keeps what was typed), the clipboard and file downloads of results.
 */
import { fromPromise } from 'xstate'
import { sqlEditorMachine, type RunInput } from '../../../machines/sqlEditor.machine'
import { QueryError } from '../../contracts/database'
import { getSqlCompletions, getSqlUsers, runSql } from '../calls/sqlEditor'
import { saveAsFile } from './saveFile'

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
    runSql: fromPromise(async ({ input, signal }: Signal & { input: RunInput }) => {
      try {
        return await runSql(
          input.ref,
          {
            query: input.query,
            role: input.role,
            ...(input.role === 'authenticated' && input.userId ? { user_id: input.userId } : {}),
            row_limit: input.rowLimit,
            ...(input.explain ? { explain: true } : {}),
          },
          { signal },
        )
      } catch (error) {
        throw withQueryFields(error)
      }
    }),
    // sql-formatter is most of a formatting's weight and few sessions format: its chunk loads on the first Format.
    formatSql: fromPromise(async ({ input }: { input: { query: string } }) => {
      const { formatDialect, postgresql } = await import('sql-formatter')
      return { from: input.query, formatted: formatDialect(input.query, { dialect: postgresql, keywordCase: 'lower' }) }
    }),
    loadCatalog: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => {
      const [completions, users] = await Promise.all([getSqlCompletions(input.ref, { signal }), getSqlUsers(input.ref, { signal })])
      return { completions, users: users.users }
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
    // A refused clipboard (no permission, insecure origin) leaves the value on screen to copy by hand.
    copyText: (_, params) => {
      void navigator.clipboard?.writeText(params.text).catch(() => undefined)
    },
    download: (_, params) => saveAsFile({ fileName: params.filename, mediaType: params.mediaType, content: params.text }),
  },
})
