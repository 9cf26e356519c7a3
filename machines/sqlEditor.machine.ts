/**
 * SQL Editor: one query per project, kept as it is typed (persistQuery, the browser's storage) and read back when
 * the editor opens (loadSavedQuery), so a reload loses nothing. Run sends the whole text; the answer (columns, rows,
 * row count, time, whether it ran read-only) or the Postgres error (message, SQLSTATE, 1-based position in the text
 * that ran) replaces the previous outcome.
 * Invariants: a run, its failure or its time-out never changes the text; one run at a time; a run unanswered after
 * queryTimeout is abandoned (leaving `running` aborts its request) and reported as timed out.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { QueryResult } from '../src/contracts/database'

/** A failed run as the editor shows it: the Postgres error's fields when the server sent them. */
export interface QueryFailure {
  message: string
  code?: string
  /** 1-based character offset in the query that ran. */
  position?: number
  detail?: string
  hint?: string
}

interface Context {
  ref: string
  query: string
  /** The text of the last run (the error's position points into it, whatever was typed since). */
  ran: string
  result: QueryResult | null
  failure: QueryFailure | null
}

type SqlEditorEvent = { type: 'query.change'; query: string } | { type: 'query.run' }

const QUERY_TIMEOUT_MS = 20_000

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/** The fields of a failure, whatever threw it (the live actor throws the server's QueryError fields on an Error). */
export function failureOf(error: unknown): QueryFailure {
  if (!(error instanceof Error)) return { message: 'The query failed' }
  const fields = error as Error & Record<string, unknown>
  const position = typeof fields.position === 'number' && Number.isInteger(fields.position) && fields.position > 0 ? fields.position : undefined
  return {
    message: error.message || 'The query failed',
    code: optionalString(fields.code),
    position,
    detail: optionalString(fields.detail),
    hint: optionalString(fields.hint),
  }
}

export const sqlEditorMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as SqlEditorEvent,
    children: {} as { loadSavedQuery: 'loadSavedQuery'; runQuery: 'runQuery' },
  },
  actors: {
    loadSavedQuery: fromPromise<string | null, { ref: string }>(async () => {
      throw new Error('loadSavedQuery not provided')
    }),
    runQuery: fromPromise<QueryResult, { ref: string; query: string }>(async () => {
      throw new Error('runQuery not provided')
    }),
  },
  actions: {
    /** Provided by the app: remembers the text for this project (the browser's storage). */
    persistQuery: (_, _params: { ref: string; query: string }) => {},
    storeQuery: assign((_, params: { query: string }) => ({ query: params.query })),
    storeFailure: assign((_, params: { failure: QueryFailure }) => ({ failure: params.failure, result: null })),
  },
  guards: {
    hasQuery: ({ context }) => context.query.trim() !== '',
  },
  delays: {
    queryTimeout: QUERY_TIMEOUT_MS,
  },
}).createMachine({
  id: 'sqlEditor',
  context: ({ input }) => ({ ref: input.ref, query: '', ran: '', result: null, failure: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSavedQuery',
        src: 'loadSavedQuery',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'editing', actions: { type: 'storeQuery', params: ({ event }) => ({ query: event.output ?? '' }) } },
        // Nothing remembered (storage refused): start from an empty editor.
        onError: 'editing',
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'query.change': {
          actions: [
            { type: 'storeQuery', params: ({ event }) => ({ query: event.query }) },
            { type: 'persistQuery', params: ({ context, event }) => ({ ref: context.ref, query: event.query }) },
          ],
        },
      },
      states: {
        idle: {
          on: { 'query.run': { guard: 'hasQuery', target: 'running' } },
        },
        running: {
          entry: assign({ ran: ({ context }) => context.query }),
          invoke: {
            id: 'runQuery',
            src: 'runQuery',
            input: ({ context }) => ({ ref: context.ref, query: context.ran }),
            onDone: { target: 'succeeded', actions: assign({ result: ({ event }) => event.output, failure: null }) },
            onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ failure: failureOf(event.error) }) } },
          },
          after: {
            queryTimeout: {
              target: 'failed',
              actions: {
                type: 'storeFailure',
                params: {
                  failure: {
                    message: `The query did not answer within ${QUERY_TIMEOUT_MS / 1_000} s and was abandoned. Your query is still in the editor: run it again or make it faster.`,
                    code: 'client_timeout',
                  },
                },
              },
            },
          },
        },
        succeeded: {
          on: { 'query.run': { guard: 'hasQuery', target: 'running' } },
        },
        failed: {
          on: { 'query.run': { guard: 'hasQuery', target: 'running' } },
        },
      },
    },
  },
})

type SqlEditorSnapshot = SnapshotFrom<typeof sqlEditorMachine>

/** Where a 1-based character position falls in a text: its line and column (both 1-based) and that line. */
export function locate(text: string, position: number): { line: number; column: number; text: string } | null {
  // Postgres counts characters (code points), not UTF-16 units.
  const chars = Array.from(text)
  if (position < 1 || position > chars.length + 1) return null
  const before = chars.slice(0, position - 1).join('')
  const lines = before.split('\n')
  const line = lines.length
  const column = Array.from(lines[lines.length - 1]).length + 1
  return { line, column, text: text.split('\n')[line - 1] ?? '' }
}

export type SqlOutcome =
  | { kind: 'none' }
  | { kind: 'running' }
  | { kind: 'result'; result: QueryResult }
  | { kind: 'error'; failure: QueryFailure; at: { line: number; column: number; text: string } | null }

type SqlEditorView = { phase: 'loading' } | { phase: 'ready'; query: string; outcome: SqlOutcome }

export function selectSqlEditorView(snapshot: SqlEditorSnapshot): SqlEditorView {
  const { query, ran, result, failure } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  let outcome: SqlOutcome = { kind: 'none' }
  if (snapshot.matches({ editing: 'running' })) outcome = { kind: 'running' }
  else if (snapshot.matches({ editing: 'succeeded' }) && result) outcome = { kind: 'result', result }
  else if (snapshot.matches({ editing: 'failed' }) && failure) {
    outcome = { kind: 'error', failure, at: failure.position === undefined ? null : locate(ran, failure.position) }
  }
  return { phase: 'ready', query, outcome }
}

export const selectCanRun = (snapshot: SqlEditorSnapshot) => snapshot.can({ type: 'query.run' })
