import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { pausingMachine } from '../machines/pausing.machine'
import { livePausingMachine } from '../src/api/live/pausing'
import { PausingPage } from '../src/views/project/lifecycle/PausingPage'
import { REF } from '../tests/fixtures'
import { createControlledFetch, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const STATUS_URL = /\/platform\/projects\/[a-z]{20}\/status$/

const model = modelOf(pausingMachine, {
  input: { ref: REF, since: new Date(0).toISOString() },
  events: (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.matches({ waiting: 'delaying' })) return [{ type: 'xstate.after.initialDelay.pausing.waiting.delaying' }]
    if (snapshot.matches({ waiting: { polling: 'requesting' } })) {
      return [
        { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'PAUSING' } } as EventObject,
        { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'INACTIVE' } } as EventObject,
        { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') } as EventObject,
        { type: 'xstate.after.pollInterval.pausing.waiting.polling' },
      ]
    }
    if (snapshot.matches({ waiting: { polling: 'settled' } })) return [{ type: 'xstate.after.pollInterval.pausing.waiting.polling' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

let server: ReturnType<typeof createControlledFetch>
beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
  server = createControlledFetch()
  vi.stubGlobal('fetch', server.fetch)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('pausing model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(pausingMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const actor = createActor(livePausingMachine.provide({ actions: { refreshProject, refreshProjectList } }), {
        input: { ref: REF, since: new Date(0).toISOString() },
      }).start()
      render(<PausingPage actor={actor} projectName="Analytics" />)
      const waitingScreen = () => {
        expect(screen.getByRole('heading', { level: 1, name: 'Pausing project' })).toBeInTheDocument()
        expect(screen.getByText(/Running for/)).toBeInTheDocument()
        expect(refreshProject).not.toHaveBeenCalled()
      }

      await path.test({
        states: {
          'waiting.delaying': () => {
            waitingScreen()
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          'waiting.polling.requesting': () => {
            waitingScreen()
            expect(server.isPending(STATUS_URL)).toBe(true)
          },
          'waiting.polling.settled': () => {
            waitingScreen()
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          paused: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
            expect(server.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.after.initialDelay.pausing.waiting.delaying': async () => {
            await act(() => vi.advanceTimersByTimeAsync(4_000))
          },
          'xstate.after.pollInterval.pausing.waiting.polling': async () => {
            await act(() => vi.advanceTimersByTimeAsync(2_000))
          },
          'xstate.done.actor.fetchProjectStatus': async (step) => {
            server.json(STATUS_URL, (step.event as unknown as { output: unknown }).output)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.error.actor.fetchProjectStatus': async () => {
            server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
