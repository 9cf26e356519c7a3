import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { restoringMachine } from '../machines/restoring.machine'
import { restoringActors } from '../src/api/live/lifecycle'
import type { ProjectStatus } from '../src/contracts/common'
import { RestoringPage } from '../src/views/project/lifecycle/RestoringPage'
import { REF } from '../tests/fixtures'
import { type InternalEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

const STATUS_URL = /^\/platform\/projects\/[a-z]{20}\/status$/
const RESTORE_STATUS_URL = /^\/platform\/projects\/[a-z]{20}\/restore\/status$/
const since = new Date(0).toISOString()
/** Spec: the status read at once, then every 4 s; each request's slot (time-out) is 2 s. */
const BEAT = 4_000
const SLOT = 2_000
/** Every status answer comes this late: a slow platform must not stretch the beat, nor a change of phase. */
const ANSWER_AFTER = 1_500
const BEAT_EDGE: InternalEvent = { type: 'xstate.after.pollInterval.restoring.watching.polling' }

const done = (status: ProjectStatus): InternalEvent => ({ type: 'xstate.done.actor.fetchProjectStatus', output: { status } })
const failedRequest: InternalEvent = { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') }

function modelFor(opened: ProjectStatus) {
  return modelOf(restoringMachine, {
    input: { ref: REF, status: opened, since },
    events: (snapshot) => {
      if (snapshot.matches({ watching: { polling: { unconfirmed: 'requesting' } } })) {
        return [done('ACTIVE_HEALTHY'), done('RESTORING'), done('RESTORATION_FAILED'), failedRequest, { type: 'xstate.after.requestTimeout.restoring.watching.polling.unconfirmed.requesting' }]
      }
      if (snapshot.matches({ watching: { polling: { confirmed: 'requesting' } } })) {
        return [done('ACTIVE_HEALTHY'), done('RESTORING'), done('RESTORATION_FAILED'), failedRequest, { type: 'xstate.after.requestTimeout.restoring.watching.polling.confirmed.requesting' }]
      }
      if (snapshot.matches({ watching: { polling: { unconfirmed: 'settled' } } })) return [BEAT_EDGE]
      if (snapshot.matches({ watching: { polling: { confirmed: 'settled' } } })) return [BEAT_EDGE]
      if (snapshot.matches('readingFailure')) {
        return [
          { type: 'xstate.done.actor.fetchRestoreStatus', output: { status: 'RESTORATION_FAILED', error: 'disk full' } },
          { type: 'xstate.error.actor.fetchRestoreStatus', error: new Error('Request failed with status 500') },
          { type: 'xstate.after.requestTimeout.restoring.readingFailure' },
        ]
      }
      if (snapshot.matches('complete')) return [{ type: 'project.return' }]
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}

const OPENED: ProjectStatus[] = ['RESTORING', 'INACTIVE', 'RESTORATION_FAILED']
/** Opened before RESTORING is seen, slow answers through both phases: the beat must hold across the change. */
const beatWalk = modelFor('INACTIVE').getPathsFromEvents(
  [done('ACTIVE_HEALTHY'), BEAT_EDGE, done('RESTORING'), BEAT_EDGE, failedRequest, BEAT_EDGE, { type: 'xstate.after.requestTimeout.restoring.watching.polling.confirmed.requesting' }, BEAT_EDGE, done('ACTIVE_HEALTHY')],
  // The walk starts from the started machine's snapshot: the graph utilities' own start leaves `opening` unresolved.
  { fromState: createActor(restoringMachine, { input: { ref: REF, status: 'INACTIVE', since } }).getSnapshot() },
)
const paths = [...OPENED.flatMap((opened) => modelFor(opened).getShortestPaths()), ...beatWalk]
const openedWith = (path: (typeof paths)[number]) => path.steps[0].state.context.status

const platform = usePlatform()

describe('restoring model', () => {
  it('the paths reach every state and every transition', () => {
    // `opening` is the transient initial state, resolved in the init step: each opened status takes one branch.
    const startsIn = Object.fromEntries(OPENED.map((opened) => [opened, JSON.stringify(paths.find((p) => openedWith(p) === opened)!.steps[0].state.value)]))
    expect(startsIn).toEqual({
      RESTORATION_FAILED: '"readingFailure"',
      RESTORING: '{"watching":{"polling":{"confirmed":"requesting"}}}',
      INACTIVE: '{"watching":{"polling":{"unconfirmed":"requesting"}}}',
    })
    expect(missingCoverage(restoringMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(`${openedWith(path)}: ${describePath(path)}`, async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const actor = createActor(restoringMachine.provide({ actors: restoringActors, actions: { refreshProject, refreshProjectList } }), {
        input: { ref: REF, status: openedWith(path), since },
      }).start()
      render(<RestoringPage actor={actor} projectName="Analytics" />)
      const { server } = platform
      const heading = (name: string) => expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument()
      const inProgress = (pending: boolean) => {
        heading('Restoration in progress')
        expect(screen.getByText(/Running for/)).toBeInTheDocument()
        expect(screen.queryByRole('button', { name: 'Return to project' })).toBeNull()
        expect(server.isPending(STATUS_URL)).toBe(pending)
      }

      await path.test({
        states: {
          'watching.polling.unconfirmed.requesting': () => inProgress(true),
          'watching.polling.unconfirmed.settled': () => inProgress(false),
          'watching.polling.confirmed.requesting': () => inProgress(true),
          'watching.polling.confirmed.settled': () => inProgress(false),
          readingFailure: () => {
            expect(screen.queryByRole('heading', { name: 'Restoration complete!' })).toBeNull()
            expect(server.isPending(RESTORE_STATUS_URL)).toBe(true)
          },
          failed: (state) => {
            heading('Restoration failed')
            const error = state.context.error
            expect(screen.getByRole('alert')).toHaveTextContent(error ?? 'no error message was recorded')
            const link = screen.getByRole('link', { name: 'Contact support' })
            const href = new URL(link.getAttribute('href')!, 'http://localhost')
            expect(href.pathname).toBe('/support/new')
            expect(href.searchParams.get('category')).toBe('Database_unresponsive')
            expect(href.searchParams.get('ref')).toBe(REF)
            expect(server.pending).toHaveLength(0)
          },
          complete: () => {
            heading('Restoration complete!')
            expect(screen.getByRole('button', { name: 'Return to project' })).toBeEnabled()
            expect(server.pending).toHaveLength(0)
          },
          returning: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
          },
        },
        events: {
          'xstate.after.pollInterval.restoring.watching.polling': () => platform.nextBeat(STATUS_URL, BEAT),
          'xstate.after.requestTimeout.restoring.watching.polling.unconfirmed.requesting': () => platform.advance(SLOT),
          'xstate.after.requestTimeout.restoring.watching.polling.confirmed.requesting': () => platform.advance(SLOT),
          'xstate.after.requestTimeout.restoring.readingFailure': () => platform.advance(SLOT),
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
          'xstate.done.actor.fetchRestoreStatus': async (step) => {
            server.json(RESTORE_STATUS_URL, outputOf<unknown>(step))
            await platform.settle()
          },
          'xstate.error.actor.fetchRestoreStatus': async () => {
            server.json(RESTORE_STATUS_URL, { message: 'Internal server error' }, 500)
            await platform.settle()
          },
          'project.return': async () => {
            await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Return to project' })))
          },
        },
      })
      // However late the answers, whatever became of them, and across the change of phase: on the beat.
      platform.expectBeat(STATUS_URL, BEAT, 0)
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
