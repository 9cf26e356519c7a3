import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { connectingMachine } from '../machines/connecting.machine'
import { liveConnectingMachine } from '../src/api/live/connecting'
import type { Project } from '../src/contracts/projects'
import { ConnectingPage } from '../src/views/project/lifecycle/ConnectingPage'
import { makeProject } from '../tests/fixtures'
import { createControlledFetch, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const LIVE_URL = /\/platform\/projects\/[a-z]{20}\/live$/
const REST_URL = /\/platform\/projects\/[a-z]{20}\/api\/rest$/
const REST_SCHEMA = { swagger: '2.0', info: { title: 'REST', version: '12.2.0' }, host: 'localhost', basePath: '/', paths: {}, definitions: {} }

const PROJECTS: Record<string, Project> = {
  'kps-v3.8.6': makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: 'kps-v3.8.6', status_changed_at: '2026-11-21T10:00:00.000Z' }),
  'kps unknown': makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: null, status_changed_at: '2026-11-21T10:00:00.000Z' }),
  'no REST URL': makeProject({ postgrestStatus: 'OFFLINE', restUrl: '', status_changed_at: '2026-11-21T10:00:00.000Z' }),
}

function modelFor(project: Project) {
  return modelOf(connectingMachine, {
    input: { project },
    events: (snapshot: AnyMachineSnapshot): EventObject[] => {
      if (snapshot.matches({ testing: 'waiting' })) return [{ type: 'xstate.after.pollInterval.connecting.testing.waiting' }]
      if (snapshot.matches({ testing: 'probing' })) {
        return [
          { type: 'xstate.done.actor.testConnectivity', output: { ok: true } } as EventObject,
          { type: 'xstate.error.actor.testConnectivity', error: new Error('The project API server is offline') } as EventObject,
          { type: 'xstate.after.requestTimeout.connecting.testing.probing' },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}

const cases = Object.entries(PROJECTS).flatMap(([name, project]) => modelFor(project).getShortestPaths().map((path) => ({ name, project, path })))

let server: ReturnType<typeof createControlledFetch>
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T10:00:30.000Z') })
  server = createControlledFetch()
  vi.stubGlobal('fetch', server.fetch)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('connecting model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(connectingMachine, cases.map((c) => c.path))).toEqual({ states: [], transitions: [] })
  })

  for (const { name, project, path } of cases) {
    it(`${name}: ${describePath(path)}`, async () => {
      const markOnline = vi.fn()
      const refreshProject = vi.fn()
      const actor = createActor(
        liveConnectingMachine.provide({ actions: { markOnline: (_, params) => markOnline(params), refreshProject } }),
        { input: { project } },
      )
      actor.start()
      render(<ConnectingPage actor={actor} projectName="Analytics" />)
      const endpoint = project.kpsVersion === 'kps-v3.8.6' ? LIVE_URL : REST_URL
      const other = endpoint === LIVE_URL ? REST_URL : LIVE_URL
      const screenUp = () => {
        expect(screen.getByRole('heading', { level: 1, name: 'Connecting to project' })).toBeInTheDocument()
        expect(screen.getByText(/please wait 2 minutes before opening a support ticket/)).toBeInTheDocument()
        expect(screen.getByText((_, el) => el?.tagName === 'P' && /^Running for \d+ s$/.test(el.textContent ?? ''))).toBeInTheDocument()
        expect(server.isPending(other)).toBe(false)
      }

      await path.test({
        states: {
          noRestUrl: () => {
            screenUp()
            expect(server.log).toHaveLength(0)
          },
          'testing.waiting': () => {
            screenUp()
            expect(server.isPending(endpoint)).toBe(false)
            expect(markOnline).not.toHaveBeenCalled()
          },
          'testing.probing': () => {
            screenUp()
            expect(server.isPending(endpoint)).toBe(true)
          },
          connected: () => {
            expect(markOnline).toHaveBeenCalledTimes(1)
            expect(markOnline.mock.calls[0][0].project).toEqual({ ...project, postgrestStatus: 'ONLINE' })
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(server.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.after.pollInterval.connecting.testing.waiting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(4_000))
          },
          'xstate.after.requestTimeout.connecting.testing.probing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(2_000))
          },
          'xstate.done.actor.testConnectivity': async () => {
            server.json(endpoint, endpoint === LIVE_URL ? { status: 'ok' } : REST_SCHEMA)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.error.actor.testConnectivity': async () => {
            server.json(endpoint, { message: 'The project API server is offline' }, 503)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
