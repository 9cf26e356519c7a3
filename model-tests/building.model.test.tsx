import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { buildingMachine } from '../machines/building.machine'
import { buildingActors } from '../src/api/live/lifecycle'
import { BuildingPage } from '../src/views/project/lifecycle/BuildingPage'
import { REF } from '../tests/fixtures'
import { type InternalEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

const STATUS_URL = /\/platform\/projects\/[a-z]{20}\/status$/
/** Spec: a status request every 4 s, the first 4 s in; each request's slot (time-out) is 2 s. */
const BEAT = 4_000
const SLOT = 2_000
/** Every answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 1_500

function modelFor(status: 'COMING_UP' | 'UNKNOWN') {
  return modelOf(buildingMachine, {
    input: { ref: REF, status, since: new Date(0).toISOString() },
    events: (snapshot) => {
      if (snapshot.matches({ polling: 'settled' })) return [{ type: 'xstate.after.pollInterval.building.polling' }]
      if (snapshot.matches({ polling: 'requesting' })) {
        return [
          { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'COMING_UP' } },
          { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'ACTIVE_HEALTHY' } },
          { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') },
          { type: 'xstate.after.requestTimeout.building.polling.requesting' },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}

const BEAT_EDGE: InternalEvent = { type: 'xstate.after.pollInterval.building.polling' }
/** A walk through every outcome of a request, each followed by the next beat: the beat must hold through them all. */
const beatWalk = modelFor('COMING_UP').getPathsFromEvents([
  BEAT_EDGE,
  { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'COMING_UP' } },
  BEAT_EDGE,
  { type: 'xstate.after.requestTimeout.building.polling.requesting' },
  BEAT_EDGE,
  { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') },
  BEAT_EDGE,
  { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'ACTIVE_HEALTHY' } },
  // From the started machine's snapshot: the graph utilities' getPathsFromEvents does not pass the model's input.
], { fromState: createActor(buildingMachine, { input: { ref: REF, status: 'COMING_UP', since: new Date(0).toISOString() } }).getSnapshot() })
const paths = [...modelFor('COMING_UP').getShortestPaths(), ...modelFor('UNKNOWN').getShortestPaths(), ...beatWalk]
const initialStatusOf = (path: (typeof paths)[number]) => path.steps[0].state.context.status

const platform = usePlatform()

describe('building model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(buildingMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(`${initialStatusOf(path)}: ${describePath(path)}`, async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const initialStatus = initialStatusOf(path)
      const actor = createActor(buildingMachine.provide({ actors: buildingActors, actions: { refreshProject, refreshProjectList } }), {
        input: { ref: REF, status: initialStatus, since: new Date(0).toISOString() },
      })
      actor.start()
      render(<BuildingPage actor={actor} projectName="Analytics" />)
      // The title follows the last status read: an UNKNOWN project reported COMING_UP is being set up.
      const titleOf = (state: AnyMachineSnapshot) =>
        state.context.status === 'UNKNOWN' ? 'Initiating project set up' : 'Setting up project'

      const { server } = platform
      await path.test({
        states: {
          'polling.settled': (state) => {
            expect(screen.getByRole('heading', { level: 1, name: titleOf(state) })).toBeInTheDocument()
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          'polling.requesting': (state) => {
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
          'xstate.after.pollInterval.building.polling': () => platform.nextBeat(STATUS_URL, BEAT),
          'xstate.after.requestTimeout.building.polling.requesting': () => platform.advance(SLOT),
          'xstate.done.actor.fetchProjectStatus': async (step) => {
            await platform.advance(ANSWER_AFTER)
            server.json(STATUS_URL, outputOf<unknown>(step))
            await platform.settle()
          },
          'xstate.error.actor.fetchProjectStatus': async () => {
            await platform.advance(ANSWER_AFTER)
            server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await platform.settle()
          },
        },
      })
      // However late the answers and whatever became of them, the requests went out exactly on the beat.
      platform.expectBeat(STATUS_URL, BEAT)
      // The screen shows the machine: after every step the actor is where the model says.
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
