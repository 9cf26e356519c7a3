import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { logTime, projectLogsMachine, type LogFilter } from '../machines/projectLogs.machine'
import type { RequestLogEntry } from '../src/contracts/measured'
import { Logs } from '../src/views/project/observability/LogsPage'
import { REF } from '../tests/fixtures'
import { LOG_ENTRIES } from '../tests/fixtures.usage'
import { type ModelEvent, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(projectLogsMachine)

const REQUEST_TIMEOUT = 10_000

const contextOf = (snapshot: SnapshotFrom<typeof projectLogsMachine>) => snapshot.context
const answerFor = (filter: LogFilter) => (filter === 'all' ? LOG_ENTRIES : LOG_ENTRIES.filter((e) => String(e.status)[0] === filter[0]))

const model = modelOf(projectLogsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const { filter } = contextOf(snapshot)
    const select: Array<ModelEvent<typeof projectLogsMachine>> = filter === 'all' ? [ev({ type: 'filter.select', filter: '4xx' })] : filter === '4xx' ? [ev({ type: 'filter.select', filter: '5xx' })] : []
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchRequestLog', output: answerFor(filter) },
        { type: 'xstate.error.actor.fetchRequestLog', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.projectLogs.loading' },
        ...select,
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'logs.refresh' }, ...select]
    if (snapshot.matches('loaded')) return [{ type: 'logs.refresh' }, ...select]
    return []
  },
  serializeState: (snapshot, event) => {
    const { filter, entries, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ filter, entries: entries.map((e) => e.id), error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

function shownEntries() {
  const table = screen.queryByRole('table', { name: 'Requests' })
  if (!table) return []
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].slice(0, 4).map((cell) => cell.textContent))
}
const expected = (entries: RequestLogEntry[]) => entries.map((e) => [logTime(e.at), String(e.status), e.method, e.path])

describe('projectLogs model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(projectLogsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<RequestLogEntry[], { ref: string; filter: LogFilter }>('fetchRequestLog')
      const actor = runPath(createActor(projectLogsMachine.provide({ actors: { fetchRequestLog: fetch.logic } }), { input: { ref: REF } }).start())
      render(<Logs actor={actor} />)

      await path.test({
        states: {
          loading: (snapshot) => {
            const { filter, entries } = contextOf(snapshot)
            expect(screen.getByRole('status')).toHaveTextContent(entries.length === 0 ? 'Loading logs…' : 'Refreshing…')
            expect(screen.getByRole('button', { name: 'Refreshing…' })).toBeDisabled()
            expect(screen.getByLabelText('Status')).toHaveValue(filter)
            // What was shown stays while the next read loads.
            expect(shownEntries()).toEqual(expected(entries))
            expect(fetch.pending.at(-1)?.input).toEqual({ ref: REF, filter })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load logs')
            expect(alert).toHaveTextContent(contextOf(snapshot).error ?? '')
            expect(screen.getByLabelText('Status')).toHaveValue(contextOf(snapshot).filter)
            expect(screen.queryByRole('table')).toBeNull()
          },
          loaded: (snapshot) => {
            const { filter, entries } = contextOf(snapshot)
            expect(screen.queryByRole('status')).toBeNull()
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
            expect(screen.getByLabelText('Status')).toHaveValue(filter)
            expect(shownEntries()).toEqual(expected(entries))
            if (entries.length === 0) expect(screen.getByText(`No ${filter} requests among the latest ones.`)).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.fetchRequestLog': async (step) => fetch.resolve(outputOf<RequestLogEntry[]>(step)),
          'xstate.error.actor.fetchRequestLog': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.projectLogs.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'logs.refresh': async () => {
            const alert = screen.queryByRole('alert')
            fireEvent.click(alert ? within(alert).getByRole('button', { name: 'Try again' }) : screen.getByRole('button', { name: 'Refresh' }))
          },
          'filter.select': async (step) => {
            fireEvent.change(screen.getByLabelText('Status'), { target: { value: step.event.filter } })
          },
        },
      })
    })
  }
})
