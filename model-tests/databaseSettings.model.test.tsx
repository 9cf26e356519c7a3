import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { databaseSettingsMachine } from '../machines/databaseSettings.machine'
import type { DatabaseConnection } from '../src/contracts/settings'
import { DatabaseSettings } from '../src/views/project/settings/SettingsPages'
import { ProjectActorContext } from '../src/views/shell/projectActor'
import { makeProject, REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'

const REQUEST_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS
const STRONG = 'Kitchen-Drawer-42'
const ev = eventFor(databaseSettingsMachine)
const WEAK = 'kitchen'

const PGLITE: DatabaseConnection = {
  engine: 'pglite',
  server_version: '18.1',
  database: 'postgres',
  user: 'postgres',
  host: null,
  port: null,
  connection_string: null,
  pooler: { enabled: false },
  max_connections: 100,
  size_bytes: 9 * 1024 * 1024,
}
/** The same embedded database with the platform's Postgres port listening: that is how clients connect. */
const PGLITE_PORT: DatabaseConnection = {
  ...PGLITE,
  user: `postgres.${REF}`,
  host: '127.0.0.1',
  port: 54322,
  connection_string: `postgresql://postgres.${REF}:[YOUR-PASSWORD]@127.0.0.1:54322/postgres?sslmode=disable`,
  pooler: { enabled: true },
}

const model = modelOf(databaseSettingsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchDatabaseConnection', output: PGLITE },
        { type: 'xstate.done.actor.fetchDatabaseConnection', output: PGLITE_PORT },
        { type: 'xstate.error.actor.fetchDatabaseConnection', error: new Error('The project is paused: restore it to use its database') },
        { type: 'xstate.after.requestTimeout.databaseSettings.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'settings.retry' }]
    // The password reset is the same on either engine: walked from the PGlite page only.
    if (snapshot.context.connection?.engine !== 'pglite') return []
    if (snapshot.matches({ loaded: 'idle' })) return [ev({ type: 'password.open' })]
    if (snapshot.matches({ loaded: 'editingPassword' })) {
      const { password } = snapshot.context
      return [
        ...(password === '' ? [ev({ type: 'password.change', password: WEAK })] : []),
        ...(password !== STRONG ? [ev({ type: 'password.change', password: STRONG })] : []),
        ...(password === STRONG ? [ev({ type: 'password.save' })] : []),
        ev({ type: 'password.cancel' }),
      ]
    }
    if (snapshot.matches({ loaded: 'resettingPassword' })) {
      return [
        { type: 'xstate.done.actor.resetDatabasePassword', output: { message: 'Database password updated' } },
        { type: 'xstate.error.actor.resetDatabasePassword', error: new Error("You do not have permission to reset this project's database password") },
        { type: 'xstate.after.requestTimeout.databaseSettings.loaded.resettingPassword' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(
      snapshot,
      event,
      `${snapshot.context.connection?.engine ?? ''}|${snapshot.context.password}|${snapshot.context.resetError ?? ''}|${snapshot.context.notice ?? ''}`,
    ),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

/** A project actor stand-in: the page reads the project from it for its links. */
function projectActorOf() {
  const project = makeProject()
  const snapshot = { context: { project } }
  return { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe() {} }) } as never
}

/** The dialog's code loads with its first opening: loaded here once, so under fake timers it opens in a tick. */
beforeAll(async () => {
  await import('../src/views/shell/ModalDialog')
})

/** Lets the dialog's lazy code and React settle under fake timers; the dialog, once shown. */
async function shownDialog() {
  for (let i = 0; i < 20 && !screen.queryByRole('dialog'); i++) await act(() => vi.advanceTimersByTimeAsync(0))
  return screen.getByRole('dialog', { name: 'Reset database password' })
}

describe('database settings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(databaseSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<DatabaseConnection, { ref: string }>('fetchDatabaseConnection')
      const reset = deferredActor<{ message: string }, { ref: string; password: string }>('resetDatabasePassword')
      const actor = runPath(
        createActor(databaseSettingsMachine.provide({ actors: { fetchDatabaseConnection: fetch.logic, resetDatabasePassword: reset.logic } }), {
          input: { ref: REF },
        }).start(),
      )
      const dialog = () => screen.getByRole('dialog', { name: 'Reset database password' })
      const passwordBox = () => within(dialog()).getByLabelText('New password')
      render(
        <ProjectActorContext.Provider value={projectActorOf()}>
          <DatabaseSettings actor={actor} />
        </ProjectActorContext.Provider>,
      )

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Database settings' })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Retrieving database settings…')
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent(snapshot.context.error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            // While the dialog is open the page behind it is hidden from assistive technology: checked when idle.
            if (!snapshot.matches({ loaded: 'idle' })) return
            const connection = snapshot.context.connection!
            const region = within(screen.getByRole('region', { name: 'Connection' }))
            expect(region.getAllByText(connection.database).length).toBeGreaterThan(0)
            if (connection.connection_string === null) {
              expect(region.getByText('None: nothing listens for connections')).toBeInTheDocument()
              expect(region.getByText('None: every connection goes straight to the database')).toBeInTheDocument()
              expect(screen.getByText(/embedded in the platform/)).toBeInTheDocument()
            } else {
              expect(region.getByText(connection.connection_string)).toBeInTheDocument()
              expect(region.getByText('54322')).toBeInTheDocument()
              expect(region.getByText('Enabled: the platform\u2019s Postgres port routes by user name')).toBeInTheDocument()
              expect(screen.getByText(/Connect with the database password/)).toBeInTheDocument()
              expect(screen.queryByText(/embedded in the platform/)).toBeNull()
            }
            expect(screen.getByRole('link', { name: 'SQL Editor' })).toHaveAttribute('href', `/project/${REF}/sql/new`)
            expect(within(screen.getByRole('region', { name: 'Database password' })).getByRole('button', { name: 'Reset database password' })).toBeEnabled()
          },
          'loaded.idle': async (snapshot) => {
            await act(() => vi.advanceTimersByTimeAsync(0))
            expect(screen.queryByRole('dialog')).toBeNull()
            if (snapshot.context.notice) expect(screen.getByRole('status')).toHaveTextContent('Database password reset: connect with the new one from now on.')
            else expect(screen.queryByRole('status')).toBeNull()
          },
          'loaded.editingPassword': async (snapshot) => {
            await shownDialog()
            const { password, resetError } = snapshot.context
            expect(passwordBox()).toHaveValue(password)
            expect(passwordBox()).toHaveAttribute('type', 'password')
            expect(passwordBox()).toBeEnabled()
            const save = within(dialog()).getByRole('button', { name: 'Reset password' })
            if (password === STRONG) {
              expect(save).toBeEnabled()
              expect(passwordBox()).toHaveAccessibleDescription(/This password is strong enough/)
            } else {
              expect(save).toBeDisabled()
              expect(passwordBox()).toHaveAccessibleDescription(password === '' ? 'Enter a database password.' : 'Use at least 12 characters (7 so far).')
            }
            if (resetError) expect(within(dialog()).getByRole('alert')).toHaveTextContent(resetError)
            else expect(within(dialog()).queryByRole('alert')).toBeNull()
          },
          'loaded.resettingPassword': async () => {
            expect(passwordBox()).toBeDisabled()
            expect(within(dialog()).getByRole('button', { name: 'Resetting password…' })).toBeDisabled()
            expect(reset.pending.at(-1)?.input).toEqual({ ref: REF, password: STRONG })
          },
        },
        events: {
          'xstate.done.actor.fetchDatabaseConnection': async (step) => fetch.resolve(outputOf<DatabaseConnection>(step)),
          'xstate.error.actor.fetchDatabaseConnection': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.databaseSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'password.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Reset database password' }))
          },
          'password.change': async (step) => {
            fireEvent.change(within(await shownDialog()).getByLabelText('New password'), { target: { value: step.event.password } })
          },
          'password.save': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset password' }))
          },
          'password.cancel': async () => {
            fireEvent.click(within(await shownDialog()).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.resetDatabasePassword': async (step) => reset.resolve(outputOf<{ message: string }>(step)),
          'xstate.error.actor.resetDatabasePassword': async (step) => reset.reject(errorOf(step)),
          'xstate.after.requestTimeout.databaseSettings.loaded.resettingPassword': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'settings.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
