import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { restoringMachine } from '../machines/restoring.machine'
import { liveRestoringMachine } from '../src/api/live/restoring'
import type { ProjectStatus } from '../src/contracts/common'
import { RestoringPage } from '../src/views/project/lifecycle/RestoringPage'
import { REF } from '../tests/fixtures'
import { createControlledFetch, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const STATUS_URL = /^\/platform\/projects\/[a-z]{20}\/status$/
const RESTORE_STATUS_URL = /^\/platform\/projects\/[a-z]{20}\/restore\/status$/
const since = new Date(0).toISOString()

const done = (status: ProjectStatus) => ({ type: 'xstate.done.actor.fetchProjectStatus', output: { status } }) as EventObject
const failedRequest = { type: 'xstate.error.actor.fetchProjectStatus', error: new Error('Request failed with status 500') } as EventObject

function modelFor(opened: ProjectStatus) {
  return modelOf(restoringMachine, {
    input: { ref: REF, status: opened, since },
    events: (snapshot: AnyMachineSnapshot): EventObject[] => {
      if (snapshot.matches({ watching: { unconfirmed: 'requesting' } })) {
        return [done('ACTIVE_HEALTHY'), done('RESTORING'), done('RESTORATION_FAILED'), failedRequest, { type: 'xstate.after.requestTimeout.restoring.watching.unconfirmed.requesting' }]
      }
      if (snapshot.matches({ watching: { confirmed: 'requesting' } })) {
        return [done('ACTIVE_HEALTHY'), done('RESTORING'), done('RESTORATION_FAILED'), failedRequest, { type: 'xstate.after.requestTimeout.restoring.watching.confirmed.requesting' }]
      }
      if (snapshot.matches({ watching: { unconfirmed: 'settled' } })) return [{ type: 'xstate.after.pollInterval.restoring.watching.unconfirmed' }]
      if (snapshot.matches({ watching: { confirmed: 'settled' } })) return [{ type: 'xstate.after.pollInterval.restoring.watching.confirmed' }]
      if (snapshot.matches('readingFailure')) {
        return [
          { type: 'xstate.done.actor.fetchRestoreStatus', output: { status: 'RESTORATION_FAILED', error: 'disk full' } } as EventObject,
          { type: 'xstate.error.actor.fetchRestoreStatus', error: new Error('Request failed with status 500') } as EventObject,
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
const paths = OPENED.flatMap((opened) => modelFor(opened).getShortestPaths())
const openedWith = (path: (typeof paths)[number]) => (path.steps[0].state.context as { status: ProjectStatus }).status

let server: ReturnType<typeof createControlledFetch>
let lastPollAt = 0
beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
  server = createControlledFetch()
  vi.stubGlobal('fetch', (input: Request) => {
    if (STATUS_URL.test(new URL(input.url, 'http://localhost').pathname)) lastPollAt = Date.now()
    return server.fetch(input)
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('restoring model', () => {
  it('the paths reach every state and every transition', () => {
    // `opening` is the transient initial state, resolved in the init step: each opened status takes one branch.
    const startsIn = Object.fromEntries(OPENED.map((opened) => [opened, JSON.stringify(paths.find((p) => openedWith(p) === opened)!.steps[0].state.value)]))
    expect(startsIn).toEqual({
      RESTORATION_FAILED: '"readingFailure"',
      RESTORING: '{"watching":{"confirmed":"requesting"}}',
      INACTIVE: '{"watching":{"unconfirmed":"requesting"}}',
    })
    expect(missingCoverage(restoringMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(`${openedWith(path)}: ${describePath(path)}`, async () => {
      const refreshProject = vi.fn()
      const refreshProjectList = vi.fn()
      const actor = createActor(liveRestoringMachine.provide({ actions: { refreshProject, refreshProjectList } }), {
        input: { ref: REF, status: openedWith(path), since },
      }).start()
      render(<RestoringPage actor={actor} projectName="Analytics" />)
      const heading = (name: string) => expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument()
      const inProgress = (pending: boolean) => {
        heading('Restoration in progress')
        expect(screen.getByText(/Running for/)).toBeInTheDocument()
        expect(screen.queryByRole('button', { name: 'Return to project' })).toBeNull()
        expect(server.isPending(STATUS_URL)).toBe(pending)
      }

      await path.test({
        states: {
          'watching.unconfirmed.requesting': () => inProgress(true),
          'watching.unconfirmed.settled': () => inProgress(false),
          'watching.confirmed.requesting': () => inProgress(true),
          'watching.confirmed.settled': () => inProgress(false),
          readingFailure: () => {
            expect(screen.queryByRole('heading', { name: 'Restoration complete!' })).toBeNull()
            expect(server.isPending(RESTORE_STATUS_URL)).toBe(true)
          },
          failed: (state) => {
            heading('Restoration failed')
            const error = (state.context as { error: string | null }).error
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
          'xstate.after.pollInterval.restoring.watching.unconfirmed': async () => {
            await act(() => vi.advanceTimersByTimeAsync(lastPollAt + 4_000 - Date.now()))
          },
          'xstate.after.pollInterval.restoring.watching.confirmed': async () => {
            await act(() => vi.advanceTimersByTimeAsync(lastPollAt + 4_000 - Date.now()))
          },
          'xstate.after.requestTimeout.restoring.watching.unconfirmed.requesting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(2_000))
          },
          'xstate.after.requestTimeout.restoring.watching.confirmed.requesting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(2_000))
          },
          'xstate.after.requestTimeout.restoring.readingFailure': async () => {
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
          'xstate.done.actor.fetchRestoreStatus': async (step) => {
            server.json(RESTORE_STATUS_URL, (step.event as unknown as { output: unknown }).output)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.error.actor.fetchRestoreStatus': async () => {
            server.json(RESTORE_STATUS_URL, { message: 'Internal server error' }, 500)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'project.return': async () => {
            await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Return to project' })))
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
