/**
 * Database › Tables: the tables of schema public with their columns (type, nullability, default), primary and
 * foreign keys and estimated rows. Refresh reads them again while the last list stays on screen; a failed refresh
 * keeps that list and says why. A request unanswered after requestTimeout is abandoned (its signal aborted) and
 * reported; a failed first load offers a retry.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DatabaseTable } from '../src/contracts/database'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

interface Context {
  ref: string
  tables: DatabaseTable[]
  error: string | null
}

type DatabaseTablesEvent = { type: 'tables.retry' } | { type: 'tables.refresh' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load tables')

export const databaseTablesMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as DatabaseTablesEvent,
    children: {} as { listTables: 'listTables' },
  },
  actors: {
    listTables: fromPromise<DatabaseTable[], { ref: string }>(async () => {
      throw new Error('listTables not provided')
    }),
  },
  actions: {
    storeTables: assign((_, params: { tables: DatabaseTable[] }) => ({ tables: params.tables, error: null })),
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'databaseTables',
  context: ({ input }) => ({ ref: input.ref, tables: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listTables',
        src: 'listTables',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: { type: 'storeTables', params: ({ event }) => ({ tables: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: {
      on: { 'tables.retry': 'loading' },
    },
    loaded: {
      on: { 'tables.refresh': { target: 'refreshing', actions: assign({ error: null }) } },
    },
    refreshing: {
      invoke: {
        id: 'listTables',
        src: 'listTables',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: { type: 'storeTables', params: ({ event }) => ({ tables: event.output }) } },
        onError: { target: 'loaded', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'loaded', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
  },
})

type DatabaseTablesView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; tables: DatabaseTable[]; refreshing: boolean; error: string | null }

export function selectDatabaseTablesView(snapshot: SnapshotFrom<typeof databaseTablesMachine>): DatabaseTablesView {
  const { tables, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load tables' }
  return { phase: 'loaded', tables, refreshing: snapshot.matches('refreshing'), error }
}
