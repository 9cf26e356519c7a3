/** The live actors of the SQL Editor's saved queries and history: the platform keeps both. */
import { fromPromise } from 'xstate'
import { sqlSnippetsMachine, type SnippetChange, type SnippetDraft } from '../../../machines/sqlSnippets.machine'
import { createSnippet, deleteSnippet, getSqlHistory, listSnippets, updateSnippet } from '../calls/sqlEditor'

type Signal = { signal: AbortSignal }

export const liveSqlSnippetsMachine = sqlSnippetsMachine.provide({
  actors: {
    loadSnippets: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => {
      const [list, history] = await Promise.all([listSnippets(input.ref, { signal }), getSqlHistory(input.ref, { signal })])
      return { snippets: list.data, history: history.runs }
    }),
    createSnippet: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; draft: SnippetDraft } }) =>
      createSnippet(input.ref, input.draft, { signal }),
    ),
    updateSnippet: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; id: string; change: SnippetChange } }) =>
      updateSnippet(input.ref, input.id, input.change, { signal }),
    ),
    deleteSnippet: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; id: string } }) => {
      await deleteSnippet(input.ref, input.id, { signal })
    }),
    loadHistory: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => (await getSqlHistory(input.ref, { signal })).runs),
  },
})
