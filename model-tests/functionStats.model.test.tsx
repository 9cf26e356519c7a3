import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { functionStatsMachine, selectFunctionStatsView, STATS_PERIODS, type StatsInterval } from '../machines/functionStats.machine'
import type { CombinedStatsRow } from '../src/contracts/functions'
import { FunctionStats } from '../src/views/project/functions/FunctionStats'
import { REF } from '../tests/fixtures'
import { STATS as ROWS } from '../tests/fixtures.functionRuntime'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, type ModelEvent } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(functionStatsMachine)
const INPUT = { ref: REF, functionId: '9f0c1c2e-5d5e-4a47-9d55-3c1b6a0a8f01' }
const POLL = 5_000
const TIMEOUT = 4_000

const contextOf = (snapshot: SnapshotFrom<typeof functionStatsMachine>) => snapshot.context

const model = modelOf(functionStatsMachine, {
  input: INPUT,
  events: (snapshot) => {
    const { interval, rows, error } = contextOf(snapshot)
    const events: Array<ModelEvent<typeof functionStatsMachine>> = []
    const fresh = interval === '1hr' && rows === null && error === null
    if (snapshot.matches({ live: 'requesting' }) && (fresh || interval === '1day')) {
      events.push(
        { type: 'xstate.done.actor.fetchStats', output: ROWS },
        { type: 'xstate.done.actor.fetchStats', output: [] },
        { type: 'xstate.error.actor.fetchStats', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.statsRequestTimeout.functionStats.live.requesting' },
      )
    }
    if (snapshot.matches({ live: 'settled' }) && interval === '1hr' && (rows?.length ?? 0) > 0) {
      events.push({ type: 'xstate.after.statsPollInterval.functionStats.live' }, ev({ type: 'interval.select', interval: '1day' }))
    }
    if (snapshot.matches({ live: 'requesting' }) && fresh) events.push(ev({ type: 'interval.select', interval: '1day' }))
    return events
  },
  serializeState: (snapshot, event) => {
    const { interval, rows, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ interval, rows: rows?.length ?? null, error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('function stats model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(functionStatsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('fills the gaps of the answer with empty minutes and weighs the averages by invocations', () => {
    const actor = createActor(functionStatsMachine, { input: INPUT }).start()
    const view = selectFunctionStatsView({ ...actor.getSnapshot(), context: { ...actor.getSnapshot().context, rows: ROWS } } as SnapshotFrom<typeof functionStatsMachine>)
    actor.stop()
    expect(view.buckets).toHaveLength(60)
    expect(view.buckets.slice(-3).map((b) => [new Date(b.start).toISOString().slice(11, 16), b.ok, b.failed])).toEqual([
      ['08:00', 2, 1],
      ['08:01', 0, 0],
      ['08:02', 1, 0],
    ])
    expect(view.totals).toEqual({
      requests: 4,
      failed: 1,
      avgExecutionTime: 40,
      maxExecutionTime: 100,
      avgCpuTime: 20,
      maxCpuTime: 50,
      avgMemory: 45,
      avgHeapMemory: 9,
      avgExternalMemory: 3,
    })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<CombinedStatsRow[], typeof INPUT & { interval: StatsInterval }>('fetchStats')
      const actor = runPath(createActor(functionStatsMachine.provide({ actors: { fetchStats: fetch.logic } }), { input: INPUT }).start())
      render(<FunctionStats actor={actor} />)
      const pressed = (interval: StatsInterval) =>
        expect(screen.getByRole('button', { name: `Last ${STATS_PERIODS[interval].label}` })).toHaveAttribute('aria-pressed', 'true')
      const figures = (snapshot: SnapshotFrom<typeof functionStatsMachine>) => {
        const { rows, interval } = contextOf(snapshot)
        if (rows === null) {
          expect(screen.queryByText('Invocations in the period')).toBeNull()
          return
        }
        if (rows.length === 0) {
          expect(screen.getByText('0 (0 failed)')).toBeInTheDocument()
          expect(screen.getByText('No invocations in this period: the chart fills as the function is called.')).toBeInTheDocument()
          return
        }
        const unit = STATS_PERIODS[interval].unit
        expect(screen.getByText('4 (1 failed)')).toBeInTheDocument()
        expect(screen.getByText('20 ms on average, 50 ms at most')).toBeInTheDocument()
        expect(screen.getByText('45.0 MB on average (heap 9.0 MB, external 3.0 MB)')).toBeInTheDocument()
        expect(screen.getByRole('img', { name: new RegExp(`^Invocations per ${unit} from .* UTC: 4 calls, 1 failed, at most ${unit === 'minute' ? '3 in a' : '4 in an'} ${unit}$`) })).toBeInTheDocument()
      }

      await path.test({
        states: {
          'live.requesting': (snapshot) => {
            const { interval, rows, error } = contextOf(snapshot)
            pressed(interval)
            expect(fetch.pending.at(-1)?.input).toEqual({ ...INPUT, interval })
            if (rows === null && error === null) expect(screen.getByRole('status')).toHaveTextContent('Loading the figures…')
            else expect(screen.queryByRole('status')).toBeNull()
            figures(snapshot)
          },
          'live.settled': (snapshot) => {
            const { interval, error } = contextOf(snapshot)
            pressed(interval)
            expect(screen.queryByRole('status')).toBeNull()
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(error)
            else expect(screen.queryByRole('alert')).toBeNull()
            figures(snapshot)
          },
        },
        events: {
          'xstate.done.actor.fetchStats': async (step) => fetch.resolve(outputOf<CombinedStatsRow[]>(step)),
          'xstate.error.actor.fetchStats': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.statsRequestTimeout.functionStats.live.requesting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(TIMEOUT))
            expect(fetch.runs.at(-1)?.signal.aborted).toBe(true)
            expect(fetch.pending).toHaveLength(0)
          },
          'xstate.after.statsPollInterval.functionStats.live': async () => {
            const before = fetch.runs.length
            await act(() => vi.advanceTimersByTimeAsync(POLL))
            expect(fetch.runs.length).toBe(before + 1)
          },
          'interval.select': async (step) => {
            fireEvent.click(screen.getByRole('button', { name: `Last ${STATS_PERIODS[step.event.interval].label}` }))
          },
        },
      })
    })
  }
})
