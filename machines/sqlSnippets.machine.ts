/**
 * The SQL Editor's saved queries and history: the project's snippets the person sees (theirs and those shared with
 * the project) and their last runs, read when the page opens. Save names the editor's text (private or shared);
 * rename, favourite, share (or make private again) and delete change one snippet, delete after a confirmation. Each change answers the snippet as
 * the platform keeps it, which replaces the one on screen; a failed change keeps the list and says why.
 * Invariants: one change at a time; the history is read again after each run (`history.refresh`) without hiding
 * the list; only the author (the snippet's owner is the session's account) renames, edits, shares or deletes a
 * snippet, as the platform refuses anyone else — a favourite is each person's own.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Snippet } from '../src/contracts/snippets'
import type { SqlHistoryEntry } from '../src/contracts/sqlEditor'

export interface SnippetDraft {
  name: string
  sql: string
  visibility: 'user' | 'project'
}
export type SnippetChange = { name?: string; sql?: string; favorite?: boolean; visibility?: 'user' | 'project' }

interface Context {
  ref: string
  /** The signed-in person's account id (null before the session is known: then nothing is theirs). */
  accountId: number | null
  snippets: Snippet[]
  history: SqlHistoryEntry[]
  /** Why the list could not be read, or why the last change failed. */
  error: string | null
  /** The snippet being renamed or waiting for its deletion's confirmation. */
  target: Snippet | null
}

export type SqlSnippetsEvent =
  | { type: 'retry' }
  | { type: 'save.start' }
  | { type: 'save.cancel' }
  | { type: 'snippet.save'; draft: SnippetDraft }
  | { type: 'rename.start'; id: string }
  | { type: 'rename.cancel' }
  | { type: 'snippet.rename'; name: string }
  | { type: 'snippet.favourite'; id: string; favorite: boolean }
  | { type: 'snippet.share'; id: string; visibility: 'user' | 'project' }
  | { type: 'snippet.update'; id: string; sql: string }
  | { type: 'delete.start'; id: string }
  | { type: 'delete.cancel' }
  | { type: 'delete.confirm' }
  | { type: 'history.refresh' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'The request failed')

/** Favourites first, then by name, as the platform lists them. */
function sorted(snippets: Snippet[]): Snippet[] {
  return [...snippets].sort((a, b) => Number(b.favorite) - Number(a.favorite) || a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
}
const upsert = (list: Snippet[], snippet: Snippet) => sorted([...list.filter((s) => s.id !== snippet.id), snippet])

/** The snippet is listed and the person is its author. */
const authored = (context: Pick<Context, 'snippets' | 'accountId'>, id: string) =>
  context.accountId !== null && context.snippets.some((s) => s.id === id && s.owner.id === context.accountId)

export const sqlSnippetsMachine = setup({
  types: {
    input: {} as { ref: string; accountId: number | null },
    context: {} as Context,
    events: {} as SqlSnippetsEvent,
    children: {} as {
      loadSnippets: 'loadSnippets'
      createSnippet: 'createSnippet'
      updateSnippet: 'updateSnippet'
      deleteSnippet: 'deleteSnippet'
      loadHistory: 'loadHistory'
    },
  },
  actors: {
    loadSnippets: fromPromise<{ snippets: Snippet[]; history: SqlHistoryEntry[] }, { ref: string }>(async () => {
      throw new Error('loadSnippets not provided')
    }),
    createSnippet: fromPromise<Snippet, { ref: string; draft: SnippetDraft }>(async () => {
      throw new Error('createSnippet not provided')
    }),
    updateSnippet: fromPromise<Snippet, { ref: string; id: string; change: SnippetChange }>(async () => {
      throw new Error('updateSnippet not provided')
    }),
    deleteSnippet: fromPromise<void, { ref: string; id: string }>(async () => {
      throw new Error('deleteSnippet not provided')
    }),
    loadHistory: fromPromise<SqlHistoryEntry[], { ref: string }>(async () => {
      throw new Error('loadHistory not provided')
    }),
  },
  actions: {
    storeSnippet: assign(({ context }, params: { snippet: Snippet }) => ({ snippets: upsert(context.snippets, params.snippet), error: null, target: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
  },
  guards: {
    /** The snippet is on the list (a stale click on one just deleted does nothing). */
    listed: ({ context }, params: { id: string }) => context.snippets.some((s) => s.id === params.id),
    /** Listed and the person's own: the platform answers anyone else's change with 403. */
    authored: ({ context }, params: { id: string }) => authored(context, params.id),
    named: (_, params: { name: string }) => params.name.trim() !== '',
  },
}).createMachine({
  id: 'sqlSnippets',
  context: ({ input }) => ({ ref: input.ref, accountId: input.accountId, snippets: [], history: [], error: null, target: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSnippets',
        src: 'loadSnippets',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'ready', actions: assign({ snippets: ({ event }) => sorted(event.output.snippets), history: ({ event }) => event.output.history, error: null }) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'save.start': { target: 'naming', actions: assign({ error: null }) },
            'rename.start': {
              guard: { type: 'authored', params: ({ event }) => ({ id: event.id }) },
              target: 'renaming',
              actions: assign({ target: ({ context, event }) => context.snippets.find((s) => s.id === event.id) ?? null, error: null }),
            },
            'delete.start': {
              guard: { type: 'authored', params: ({ event }) => ({ id: event.id }) },
              target: 'confirmingDelete',
              actions: assign({ target: ({ context, event }) => context.snippets.find((s) => s.id === event.id) ?? null, error: null }),
            },
            'snippet.favourite': {
              guard: { type: 'listed', params: ({ event }) => ({ id: event.id }) },
              target: 'updating',
              actions: assign({ target: ({ context, event }) => ({ ...context.snippets.find((s) => s.id === event.id)!, favorite: event.favorite }) }),
            },
            // Shared with the project's members, or private to its author again (the platform lets only the author).
            'snippet.share': {
              guard: { type: 'authored', params: ({ event }) => ({ id: event.id }) },
              target: 'updating',
              actions: assign({ target: ({ context, event }) => ({ ...context.snippets.find((s) => s.id === event.id)!, visibility: event.visibility }) }),
            },
            'snippet.update': {
              guard: { type: 'authored', params: ({ event }) => ({ id: event.id }) },
              target: 'updating',
              actions: assign({
                target: ({ context, event }) => ({ ...context.snippets.find((s) => s.id === event.id)!, content: { schema_version: '1.0', sql: event.sql } }),
              }),
            },
            'history.refresh': 'refreshing',
          },
        },
        naming: {
          on: {
            'snippet.save': { guard: { type: 'named', params: ({ event }) => ({ name: event.draft.name }) }, target: 'saving' },
            'save.cancel': 'idle',
          },
        },
        saving: {
          invoke: {
            id: 'createSnippet',
            src: 'createSnippet',
            input: ({ context, event }) => ({ ref: context.ref, draft: (event as Extract<SqlSnippetsEvent, { type: 'snippet.save' }>).draft }),
            onDone: { target: 'idle', actions: { type: 'storeSnippet', params: ({ event }) => ({ snippet: event.output }) } },
            onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        renaming: {
          on: {
            'snippet.rename': {
              guard: { type: 'named', params: ({ event }) => ({ name: event.name }) },
              target: 'updating',
              actions: assign({ target: ({ context, event }) => (context.target ? { ...context.target, name: event.name.trim() } : null) }),
            },
            'rename.cancel': { target: 'idle', actions: assign({ target: null }) },
          },
        },
        updating: {
          invoke: {
            id: 'updateSnippet',
            src: 'updateSnippet',
            input: ({ context }) => {
              const target = context.target!
              const before = context.snippets.find((s) => s.id === target.id)
              const change: SnippetChange = {}
              if (before?.name !== target.name) change.name = target.name
              if (before?.favorite !== target.favorite) change.favorite = target.favorite
              if (before?.visibility !== target.visibility && (target.visibility === 'user' || target.visibility === 'project')) change.visibility = target.visibility
              if (before?.content.sql !== target.content.sql) change.sql = target.content.sql
              return { ref: context.ref, id: target.id, change }
            },
            onDone: { target: 'idle', actions: { type: 'storeSnippet', params: ({ event }) => ({ snippet: event.output }) } },
            onError: { target: 'idle', actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, assign({ target: null })] },
          },
        },
        confirmingDelete: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: assign({ target: null }) },
          },
        },
        deleting: {
          invoke: {
            id: 'deleteSnippet',
            src: 'deleteSnippet',
            input: ({ context }) => ({ ref: context.ref, id: context.target!.id }),
            onDone: {
              target: 'idle',
              actions: assign({ snippets: ({ context }) => context.snippets.filter((s) => s.id !== context.target?.id), target: null, error: null }),
            },
            onError: { target: 'idle', actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, assign({ target: null })] },
          },
        },
        refreshing: {
          invoke: {
            id: 'loadHistory',
            src: 'loadHistory',
            input: ({ context }) => ({ ref: context.ref }),
            onDone: { target: 'idle', actions: assign({ history: ({ event }) => event.output }) },
            // The history on screen stays; the next run reads it again.
            onError: 'idle',
          },
        },
      },
    },
  },
})

type SqlSnippetsSnapshot = SnapshotFrom<typeof sqlSnippetsMachine>

export type SnippetsPhase = 'loading' | 'failed' | 'idle' | 'naming' | 'saving' | 'renaming' | 'updating' | 'confirmingDelete' | 'deleting' | 'refreshing'

export interface SqlSnippetsView {
  phase: SnippetsPhase
  snippets: Snippet[]
  history: SqlHistoryEntry[]
  error: string | null
  target: Snippet | null
  /** The ids of the snippets the person wrote: only these offer share, rename and delete. */
  authored: ReadonlySet<string>
}

export function selectSqlSnippetsView(snapshot: SqlSnippetsSnapshot): SqlSnippetsView {
  const { snippets, history, error, target } = snapshot.context
  const phase: SnippetsPhase =
    snapshot.matches('loading') ? 'loading'
    : snapshot.matches('failed') ? 'failed'
    : (Object.values(snapshot.value as Record<string, SnippetsPhase>)[0] ?? 'idle')
  return { phase, snippets, history, error, target, authored: new Set(snippets.filter((s) => authored(snapshot.context, s.id)).map((s) => s.id)) }
}
