import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { buildingMachine } from '../machines/building.machine'
import { liveBuildingMachine } from '../src/api/live/building'
import { BuildingPage } from '../src/views/project/lifecycle/BuildingPage'
import { REF } from '../tests/fixtures'
import { createControlledFetch, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const STATUS_URL = /\/platform\/projects\/[a-z]{20}\/status$/

function modelFor(status: 'COMING_UP' | 'UNKNOWN') {
  return modelOf(buildingMachine, {
    input: { ref: REF, status, since: new Date(0).toISOString() },
    events: (snapshot: AnyMachineSnapshot): EventObject[] => {
      if (snapshot.matches('waiting')) return [{ type: 'xstate.after.pollInterval.building.waiting' }]
      if (snapshot.matches('polling')) {
        return [
          { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'COMING_UP' } } as EventObject,
          { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'ACTIVE_HEALTHY' } } as EventObject,
          { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') } as EventObject,
          { type: 'xstate.after.requestTimeout.building.polling' },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}

const paths = [...modelFor('COMING_UP').getShortestPaths(), ...modelFor('UNKNOWN').getShortestPaths()]
const initialStatusOf = (path: (typeof paths)[number]) => (path.steps[0].state.context as { status: 'COMING_UP' | 'UNKNOWN' }).status

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

describe('building model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(buildingMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(`${initialStatusOf(path)}: ${describePath(path)}`, async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const initialStatus = initialStatusOf(path)
      const actor = createActor(liveBuildingMachine.provide({ actions: { refreshProject, refreshProjectList } }), {
        input: { ref: REF, status: initialStatus, since: new Date(0).toISOString() },
      })
      actor.start()
      render(<BuildingPage actor={actor} projectName="Analytics" />)
      // The title follows the last status read: an UNKNOWN project reported COMING_UP is being set up.
      const titleOf = (state: AnyMachineSnapshot) =>
        (state.context as { status: string }).status === 'UNKNOWN' ? 'Initiating project set up' : 'Setting up project'

      await path.test({
        states: {
          waiting: (state) => {
            expect(screen.getByRole('heading', { level: 1, name: titleOf(state) })).toBeInTheDocument()
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          polling: (state) => {
            expect(screen.getByRole('heading', { level: 1, name: titleOf(state) })).toBeInTheDocument()
            expect(server.isPending(STATUS_URL)).toBe(true)
          },
          healthy: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
            expect(server.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.after.pollInterval.building.waiting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(4_000))
          },
          'xstate.after.requestTimeout.building.polling': async () => {
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
      // The screen shows the machine: after every step the actor is where the model says.
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
