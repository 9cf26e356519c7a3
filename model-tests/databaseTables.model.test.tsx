import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { databaseTablesMachine } from '../machines/databaseTables.machine'
import type { DatabaseTable } from '../src/contracts/database'
import { DatabaseTables } from '../src/views/project/database/DatabaseTablesPage'
import { REF } from '../tests/fixtures'
import { CUSTOMERS, TABLES } from '../tests/fixtures.database'
import { type ModelEvent, describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'

const REQUEST_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS
const contextOf = (snapshot: SnapshotFrom<typeof databaseTablesMachine>) => snapshot.context

const model = modelOf(databaseTablesMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const answers = (id: string, state: string): Array<ModelEvent<typeof databaseTablesMachine>> => [
      // A refresh brings a changed list (a table was created meanwhile).
      { type: `xstate.done.actor.${id}`, output: state === 'loading' ? [CUSTOMERS] : TABLES },
      { type: `xstate.error.actor.${id}`, error: new Error('Internal server error') },
      { type: `xstate.after.requestTimeout.databaseTables.${state}` },
    ]
    if (snapshot.matches('loading')) return answers('listTables', 'loading')
    if (snapshot.matches('failed')) return [{ type: 'tables.retry' }]
    if (snapshot.matches('loaded')) return [{ type: 'tables.refresh' }]
    if (snapshot.matches('refreshing')) return answers('listTables', 'refreshing')
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}|${contextOf(snapshot).tables.length}`),
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('database tables model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(databaseTablesMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<DatabaseTable[], { ref: string }>('listTables')
      const actor = createActor(databaseTablesMachine.provide({ actors: { listTables: list.logic } }), { input: { ref: REF } }).start()
      runPath(actor)
      render(<DatabaseTables actor={actor} />)
      const tablesShown = (snapshot: AnyMachineSnapshot) => {
        for (const table of contextOf(snapshot).tables) {
          const card = screen.getByRole('region', { name: table.name })
          expect(within(card).getAllByRole('row')).toHaveLength(table.columns.length + 1)
        }
        if (!contextOf(snapshot).tables.some((table) => table.name === 'orders')) expect(screen.queryByRole('region', { name: 'orders' })).toBeNull()
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Database' })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Loading tables…')
            expect(list.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load tables')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
            expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull()
          },
          loaded: (snapshot) => {
            tablesShown(snapshot)
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
            const error = contextOf(snapshot).error
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(`Failed to refresh: ${error}`)
            else expect(screen.queryByRole('alert')).toBeNull()
          },
          refreshing: (snapshot) => {
            tablesShown(snapshot)
            expect(screen.getByRole('button', { name: 'Refreshing…' })).toBeDisabled()
            expect(screen.queryByRole('alert')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.listTables': async (step) => list.resolve(outputOf<DatabaseTable[]>(step)),
          'xstate.error.actor.listTables': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.databaseTables.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.after.requestTimeout.databaseTables.refreshing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'tables.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'tables.refresh': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
          },
        },
      })
    })
  }
})
