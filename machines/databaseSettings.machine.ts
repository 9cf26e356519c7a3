/**
 * Settings › Database: how the project's database is reached (GET /platform/projects/{ref}/settings/database), as
 * the platform reads it from the database itself — engine, host and port (none on PGlite), database, user,
 * connection string without the password, pooler, size.
 * Invariants: a request unanswered after requestTimeout is abandoned and reported; a failed load offers a retry.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DatabaseConnection } from '../src/contracts/settings'

interface Context {
  ref: string
  connection: DatabaseConnection | null
  error: string | null
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to retrieve the database settings')

export const databaseSettingsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as { type: 'settings.retry' },
    children: {} as { fetchDatabaseConnection: 'fetchDatabaseConnection' },
  },
  actors: {
    fetchDatabaseConnection: fromPromise<DatabaseConnection, { ref: string }>(async () => {
      throw new Error('fetchDatabaseConnection not provided')
    }),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'databaseSettings',
  context: ({ input }) => ({ ref: input.ref, connection: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchDatabaseConnection',
        src: 'fetchDatabaseConnection',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ connection: event.output, error: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      after: {
        requestTimeout: { target: 'failed', actions: assign({ error: 'The request timed out' }) },
      },
    },
    failed: { on: { 'settings.retry': 'loading' } },
    loaded: {},
  },
})

export type DatabaseSettingsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; connection: DatabaseConnection }

export function selectDatabaseSettingsView(snapshot: SnapshotFrom<typeof databaseSettingsMachine>): DatabaseSettingsView {
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || snapshot.context.connection === null) {
    return { phase: 'failed', error: snapshot.context.error ?? 'Failed to retrieve the database settings' }
  }
  return { phase: 'loaded', connection: snapshot.context.connection }
}
