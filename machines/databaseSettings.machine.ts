/**
 * Settings › Database: how the project's database is reached (GET /platform/projects/{ref}/settings/database), as
 * the platform reads it from the database itself — engine, host and port (none on PGlite), database, user,
 * connection string without the password, pooler, size.
 * Once loaded, 'Reset database password' opens a dialog: a new password meeting the rule (dbPassword.ts), then
 * PATCH /v1/projects/{ref}/database/password; the old one stops working at once.
 * Invariants: a request unanswered after requestTimeout is abandoned and reported; a failed load offers a retry; a
 * failed reset keeps the dialog and what was typed; the password leaves the context when the dialog closes.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DatabaseConnection } from '../src/contracts/settings'
import { passwordProblem } from './dbPassword'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

interface Context {
  ref: string
  connection: DatabaseConnection | null
  error: string | null
  password: string
  resetError: string | null
  /** Said after a reset until the dialog opens again. */
  notice: string | null
}

type DatabaseSettingsEvent =
  | { type: 'settings.retry' }
  | { type: 'password.open' }
  | { type: 'password.change'; password: string }
  | { type: 'password.save' }
  | { type: 'password.cancel' }

export const PASSWORD_RESET_NOTICE = 'Database password reset: connect with the new one from now on.'

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to retrieve the database settings')

export const databaseSettingsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as DatabaseSettingsEvent,
    children: {} as { fetchDatabaseConnection: 'fetchDatabaseConnection'; resetDatabasePassword: 'resetDatabasePassword' },
  },
  actors: {
    fetchDatabaseConnection: fromPromise<DatabaseConnection, { ref: string }>(async () => {
      throw new Error('fetchDatabaseConnection not provided')
    }),
    resetDatabasePassword: fromPromise<{ message: string }, { ref: string; password: string }>(async () => {
      throw new Error('resetDatabasePassword not provided')
    }),
  },
  guards: {
    isStrongPassword: ({ context }) => passwordProblem(context.password) === null,
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'databaseSettings',
  context: ({ input }) => ({ ref: input.ref, connection: null, error: null, password: '', resetError: null, notice: null }),
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
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'password.open': { target: 'editingPassword', actions: assign({ password: '', resetError: null, notice: null }) } },
        },
        editingPassword: {
          on: {
            'password.change': { actions: assign({ password: ({ event }) => event.password }) },
            'password.save': { guard: 'isStrongPassword', target: 'resettingPassword', actions: assign({ resetError: null }) },
            'password.cancel': { target: 'idle', actions: assign({ password: '' }) },
          },
        },
        resettingPassword: {
          invoke: {
            id: 'resetDatabasePassword',
            src: 'resetDatabasePassword',
            input: ({ context }) => ({ ref: context.ref, password: context.password }),
            onDone: { target: 'idle', actions: assign({ password: '', notice: PASSWORD_RESET_NOTICE }) },
            onError: {
              target: 'editingPassword',
              actions: assign(({ event }) => ({ resetError: event.error instanceof Error && event.error.message ? event.error.message : 'Failed to reset the password' })),
            },
          },
          after: {
            requestTimeout: { target: 'editingPassword', actions: assign({ resetError: 'The request timed out: the password may have been reset, try again' }) },
          },
        },
      },
    },
  },
})

export type DatabaseSettingsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; connection: DatabaseConnection; reset: PasswordResetView }

export interface PasswordResetView {
  open: boolean
  saving: boolean
  password: string
  problem: string | null
  error: string | null
  notice: string | null
}

export function selectDatabaseSettingsView(snapshot: SnapshotFrom<typeof databaseSettingsMachine>): DatabaseSettingsView {
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || snapshot.context.connection === null) {
    return { phase: 'failed', error: snapshot.context.error ?? 'Failed to retrieve the database settings' }
  }
  const { password, resetError, notice } = snapshot.context
  const saving = snapshot.matches({ loaded: 'resettingPassword' })
  return {
    phase: 'loaded',
    connection: snapshot.context.connection,
    reset: { open: saving || snapshot.matches({ loaded: 'editingPassword' }), saving, password, problem: passwordProblem(password), error: resetError, notice },
  }
}

export const selectCanSavePassword = (snapshot: SnapshotFrom<typeof databaseSettingsMachine>) => snapshot.can({ type: 'password.save' })
