import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { projectReportsMachine, type ReportRange } from '../machines/projectReports.machine'
import type { DailyUsage } from '../src/contracts/measured'
import { Reports } from '../src/views/project/observability/ReportsPage'
import { REF } from '../tests/fixtures'
import { DAYS } from '../tests/fixtures.usage'
import { type ModelEvent, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(projectReportsMachine)

const REQUEST_TIMEOUT = 10_000
const INPUT = { ref: REF, organizationSlug: 'demo-free' }

const contextOf = (snapshot: SnapshotFrom<typeof projectReportsMachine>) => snapshot.context

const model = modelOf(projectReportsMachine, {
  input: INPUT,
  events: (snapshot) => {
    const { days } = contextOf(snapshot)
    const select: Array<ModelEvent<typeof projectReportsMachine>> = days === 7 ? [ev({ type: 'range.select', days: 30 })] : []
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchProjectDailyUsage', output: DAYS },
        ev({ type: 'xstate.done.actor.fetchProjectDailyUsage', output: DAYS.map((d) => ({ ...d, requests: 0, response_ms_avg: null })) }),
        { type: 'xstate.error.actor.fetchProjectDailyUsage', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.projectReports.loading' },
        ...select,
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'reports.refresh' }, ...select]
    if (snapshot.matches('loaded')) return [{ type: 'reports.refresh' }, ...select]
    return []
  },
  serializeState: (snapshot, event) => {
    const { days, data, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ days, requests: data.map((d) => d.requests), error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('projectReports model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(projectReportsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<DailyUsage[], typeof INPUT & { days: ReportRange }>('fetchProjectDailyUsage')
      const actor = runPath(createActor(projectReportsMachine.provide({ actors: { fetchProjectDailyUsage: fetch.logic } }), { input: INPUT }).start())
      render(<Reports actor={actor} />)
      const pressed = (days: ReportRange) => expect(screen.getByRole('button', { name: `Last ${days} days` })).toHaveAttribute('aria-pressed', 'true')

      await path.test({
        states: {
          loading: (snapshot) => {
            const { days } = contextOf(snapshot)
            expect(screen.getByRole('status')).toHaveTextContent('Loading reports…')
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled()
            expect(screen.queryByRole('img')).toBeNull()
            pressed(days)
            expect(fetch.pending.at(-1)?.input).toEqual({ ...INPUT, days })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load reports')
            expect(alert).toHaveTextContent(contextOf(snapshot).error ?? '')
            pressed(contextOf(snapshot).days)
          },
          loaded: (snapshot) => {
            const { days, data } = contextOf(snapshot)
            const total = data.reduce((sum, d) => sum + d.requests, 0)
            expect(screen.getByText(total === 0 ? `No requests reached the project's REST endpoint in the last ${days} days.` : `${total} requests in the last ${days} days.`)).toBeInTheDocument()
            expect(screen.getByRole('img', { name: /^REST requests per day from 2026-11-01 to 2026-11-03/ })).toBeInTheDocument()
            expect(screen.getByRole('img', { name: total === 0 ? 'Mean response time per day: nothing measured from 2026-11-01 to 2026-11-03' : /^Mean response time per day from 2026-11-01 to 2026-11-03: highest 150 ms/ })).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
            pressed(days)
          },
        },
        events: {
          'xstate.done.actor.fetchProjectDailyUsage': async (step) => fetch.resolve(outputOf<DailyUsage[]>(step)),
          'xstate.error.actor.fetchProjectDailyUsage': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.projectReports.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'reports.refresh': async () => {
            const alert = screen.queryByRole('alert')
            fireEvent.click(alert ? within(alert).getByRole('button', { name: 'Try again' }) : screen.getByRole('button', { name: 'Refresh' }))
          },
          'range.select': async (step) => {
            fireEvent.click(screen.getByRole('button', { name: `Last ${step.event.days} days` }))
          },
        },
      })
    })
  }
})
