import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { assign, createActor } from 'xstate'
import { elapsedMachine } from '../machines/elapsed.machine'
import { ElapsedNotice } from '../src/views/project/lifecycle/ElapsedNotice'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

const START = Date.parse('2026-11-21T12:00:00Z')
const OVERDUE_AFTER = 2_000
const SUPPORT = '/support/new?category=Database_unresponsive'

// The graph is walked with a clock that moves exactly one tick per tick, as fake timers do in the real view.
const modelMachine = elapsedMachine.provide({ actions: { readClock: assign({ now: ({ context }) => context.now + 1_000 }) } })
const inputs = [
  { since: new Date(START).toISOString(), overdueAfterMs: OVERDUE_AFTER },
  { since: new Date(START - 60_000).toISOString(), overdueAfterMs: OVERDUE_AFTER },
]

function pathsFor(input: (typeof inputs)[number]) {
  vi.useFakeTimers({ now: START })
  const model = modelOf(modelMachine, {
    input,
    events: (snapshot) =>
      snapshot.matches('onTime')
        ? [{ type: 'xstate.after.tick.elapsed.onTime' }]
        : snapshot.matches('overdue')
          ? [{ type: 'xstate.after.tick.elapsed.overdue' }]
          : [],
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
  const paths = model.getShortestPaths().map((path) => ({ path, input }))
  vi.useRealTimers()
  return paths
}
const cases = inputs.flatMap(pathsFor)

beforeEach(() => vi.useFakeTimers({ now: START }))
afterEach(() => vi.useRealTimers())

describe('elapsed model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(elapsedMachine, cases.map((c) => c.path))).toEqual({ states: [], transitions: [] })
  })

  for (const { path, input } of cases) {
    it(`since ${input.since}: ${describePath(path)}`, async () => {
      const actor = createActor(elapsedMachine, { input }).start()
      render(<ElapsedNotice actor={actor} supportHref={SUPPORT} />)
      const tick = async () => {
        await act(() => vi.advanceTimersByTimeAsync(1_000))
      }
      await path.test({
        states: {
          onTime: (state) => {
            const seconds = Math.round((state.context.now - Date.parse(input.since)) / 1000)
            expect(screen.getByText(`${seconds} s`)).toBeInTheDocument()
            expect(screen.queryByRole('alert')).toBeNull()
          },
          overdue: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('This is taking longer than usual.')
            expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', SUPPORT)
          },
        },
        events: {
          'xstate.after.tick.elapsed.onTime': tick,
          'xstate.after.tick.elapsed.overdue': tick,
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
