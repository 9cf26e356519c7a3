import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { pausingMachine } from '../machines/pausing.machine'
import { pausingActors } from '../src/api/live/lifecycle'
import { PausingPage } from '../src/views/project/lifecycle/PausingPage'
import { REF } from '../tests/fixtures'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

const STATUS_URL = /\/platform\/projects\/[a-z]{20}\/status$/
/** Spec: the first poll 4 s in, then every 2 s; the 2 s beat is each request's slot. */
const FIRST = 4_000
const BEAT = 2_000
/** Every answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 1_500

const model = modelOf(pausingMachine, {
  input: { ref: REF, since: new Date(0).toISOString() },
  events: (snapshot) => {
    if (snapshot.matches({ waiting: 'delaying' })) return [{ type: 'xstate.after.initialDelay.pausing.waiting.delaying' }]
    if (snapshot.matches({ waiting: { polling: 'requesting' } })) {
      return [
        { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'PAUSING' } },
        { type: 'xstate.done.actor.fetchProjectStatus', output: { status: 'INACTIVE' } },
        { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') },
        { type: 'xstate.after.pollInterval.pausing.waiting.polling' },
      ]
    }
    if (snapshot.matches({ waiting: { polling: 'settled' } })) return [{ type: 'xstate.after.pollInterval.pausing.waiting.polling' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

const platform = usePlatform()

describe('pausing model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(pausingMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const actor = createActor(pausingMachine.provide({ actors: pausingActors, actions: { refreshProject, refreshProjectList } }), {
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
            expect(platform.server.isPending(STATUS_URL)).toBe(false)
          },
          'waiting.polling.requesting': () => {
            waitingScreen()
            expect(platform.server.isPending(STATUS_URL)).toBe(true)
          },
          'waiting.polling.settled': () => {
            waitingScreen()
            expect(platform.server.isPending(STATUS_URL)).toBe(false)
          },
          paused: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
            expect(platform.server.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.after.initialDelay.pausing.waiting.delaying': async () => {
            await platform.advance(4_000)
          },
          'xstate.after.pollInterval.pausing.waiting.polling': () => platform.nextBeat(STATUS_URL, BEAT, FIRST),
          'xstate.done.actor.fetchProjectStatus': async (step) => {
            await platform.advance(ANSWER_AFTER)
            platform.server.json(STATUS_URL, outputOf<unknown>(step))
            await platform.settle()
          },
          'xstate.error.actor.fetchProjectStatus': async () => {
            await platform.advance(ANSWER_AFTER)
            platform.server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await platform.settle()
          },
        },
      })
      // However late the answers and whatever became of them, the requests went out exactly on the beat.
      platform.expectBeat(STATUS_URL, BEAT, FIRST)
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
