import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { databaseSettingsMachine } from '../machines/databaseSettings.machine'
import type { DatabaseConnection } from '../src/contracts/projectSettings'
import { DatabaseSettings } from '../src/views/project/settings/SettingsPages'
import { ProjectActorContext } from '../src/views/shell/projectActor'
import { makeProject, REF } from '../tests/fixtures'
import { deferredActor, describePath, keyByIncomingEdge, missingCoverage, modelOf, usePathClock } from './support'

const REQUEST_TIMEOUT = 10_000

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
const POSTGRES: DatabaseConnection = {
  ...PGLITE,
  engine: 'postgres',
  server_version: '15.8',
  database: `dashboard_p_${REF}`,
  user: 'dashboard_p_owner',
  host: '127.0.0.1',
  port: 5432,
  connection_string: `postgresql://dashboard_p_owner:[YOUR-PASSWORD]@127.0.0.1:5432/dashboard_p_${REF}`,
}

const model = modelOf(databaseSettingsMachine, {
  input: { ref: REF },
  events: (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchDatabaseConnection', output: PGLITE } as EventObject,
        { type: 'xstate.done.actor.fetchDatabaseConnection', output: POSTGRES } as EventObject,
        { type: 'xstate.error.actor.fetchDatabaseConnection', error: new Error('The project is paused: restore it to use its database') } as EventObject,
        { type: 'xstate.after.requestTimeout.databaseSettings.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'settings.retry' }]
    return []
  },
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(snapshot as AnyMachineSnapshot, event as EventObject | undefined, (event as { output?: DatabaseConnection } | undefined)?.output?.engine ?? ''),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

/** A project actor stand-in: the page reads the project from it for its links. */
function projectActorOf() {
  const project = makeProject()
  const snapshot = { context: { project } }
  return { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe() {} }) } as never
}

describe('database settings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(databaseSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<DatabaseConnection, { ref: string }>('fetchDatabaseConnection')
      const actor = runPath(createActor(databaseSettingsMachine.provide({ actors: { fetchDatabaseConnection: fetch.logic } }), { input: { ref: REF } }).start())
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
            expect(alert).toHaveTextContent((snapshot.context as { error: string }).error)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            const connection = (snapshot.context as { connection: DatabaseConnection }).connection
            const region = within(screen.getByRole('region', { name: 'Connection' }))
            expect(region.getAllByText(connection.database).length).toBeGreaterThan(0)
            expect(region.getByText('None: every connection goes straight to the database')).toBeInTheDocument()
            if (connection.connection_string === null) {
              expect(region.getByText('None: nothing listens for connections')).toBeInTheDocument()
              expect(screen.getByText(/embedded in the platform/)).toBeInTheDocument()
            } else {
              expect(region.getByText(connection.connection_string)).toBeInTheDocument()
              expect(region.getByText('5432')).toBeInTheDocument()
            }
            expect(screen.getByRole('link', { name: 'SQL Editor' })).toHaveAttribute('href', `/project/${REF}/sql/new`)
          },
        },
        events: {
          'xstate.done.actor.fetchDatabaseConnection': async (step) => fetch.resolve((step.event as unknown as { output: DatabaseConnection }).output),
          'xstate.error.actor.fetchDatabaseConnection': async (step) => fetch.reject((step.event as unknown as { error: unknown }).error),
          'xstate.after.requestTimeout.databaseSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            fetch.pending.splice(0)
          },
          'settings.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
