import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { connectingMachine } from '../machines/connecting.machine'
import { connectingActors } from '../src/api/live/lifecycle'
import type { Project } from '../src/contracts/projects'
import { ConnectingPage } from '../src/views/project/lifecycle/ConnectingPage'
import { makeProject } from '../tests/fixtures'
import { type InternalEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { usePlatform } from './fakes'

const LIVE_URL = /\/platform\/projects\/[a-z]{20}\/live$/
const REST_URL = /\/platform\/projects\/[a-z]{20}\/api\/rest$/
/** Spec: a test every 4 s, the first 4 s in; each test's slot (time-out) is 2 s. */
const BEAT = 4_000
const SLOT = 2_000
/** Every answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 1_500
const REST_SCHEMA = { swagger: '2.0', info: { title: 'REST', version: '12.2.0' }, host: 'localhost', basePath: '/', paths: {}, definitions: {} }

const PROJECTS: Record<string, Project> = {
  'kps-v3.8.6': makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: 'kps-v3.8.6', status_changed_at: '2026-11-21T10:00:00.000Z' }),
  'kps unknown': makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: null, status_changed_at: '2026-11-21T10:00:00.000Z' }),
  'no REST URL': makeProject({ postgrestStatus: 'OFFLINE', restUrl: '', status_changed_at: '2026-11-21T10:00:00.000Z' }),
}

const BEAT_EDGE: InternalEvent = { type: 'xstate.after.pollInterval.connecting.testing.polling' }

function modelFor(project: Project) {
  return modelOf(connectingMachine, {
    input: { project },
    events: (snapshot) => {
      if (snapshot.matches({ testing: { polling: 'settled' } })) return [BEAT_EDGE]
      if (snapshot.matches({ testing: { polling: 'requesting' } })) {
        return [
          { type: 'xstate.done.actor.testConnectivity', output: { ok: true } },
          { type: 'xstate.error.actor.testConnectivity', error: new Error('The project API server is offline') },
          { type: 'xstate.after.requestTimeout.connecting.testing.polling.requesting' },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}

/** A walk through every outcome of a test, each followed by the next beat: the beat must hold through them all. */
const beatWalk = modelFor(PROJECTS['kps-v3.8.6']).getPathsFromEvents(
  [
    BEAT_EDGE,
    { type: 'xstate.error.actor.testConnectivity', error: new Error('The project API server is offline') },
    BEAT_EDGE,
    { type: 'xstate.after.requestTimeout.connecting.testing.polling.requesting' },
    BEAT_EDGE,
    { type: 'xstate.done.actor.testConnectivity', output: { ok: true } },
  ],
  // From the started machine's snapshot: the graph utilities' own start leaves `checking` unresolved.
  { fromState: createActor(connectingMachine, { input: { project: PROJECTS['kps-v3.8.6'] } }).getSnapshot() },
)
const cases = [
  ...Object.entries(PROJECTS).flatMap(([name, project]) => modelFor(project).getShortestPaths().map((path) => ({ name, project, path }))),
  ...beatWalk.map((path) => ({ name: 'kps-v3.8.6', project: PROJECTS['kps-v3.8.6'], path })),
]

const platform = usePlatform({ now: Date.parse('2026-11-21T10:00:30.000Z') })

describe('connecting model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(connectingMachine, cases.map((c) => c.path))).toEqual({ states: [], transitions: [] })
  })

  for (const { name, project, path } of cases) {
    it(`${name}: ${describePath(path)}`, async () => {
      const markOnline = vi.fn()
      const refreshProject = vi.fn()
      const actor = createActor(
        connectingMachine.provide({ actors: connectingActors, actions: { markOnline: (_, params) => markOnline(params), refreshProject } }),
        { input: { project } },
      )
      actor.start()
      render(<ConnectingPage actor={actor} projectName="Analytics" />)
      const { server } = platform
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
          'testing.polling.settled': () => {
            screenUp()
            expect(server.isPending(endpoint)).toBe(false)
            expect(markOnline).not.toHaveBeenCalled()
          },
          'testing.polling.requesting': () => {
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
          'xstate.after.pollInterval.connecting.testing.polling': () => platform.nextBeat(endpoint, BEAT),
          'xstate.after.requestTimeout.connecting.testing.polling.requesting': () => platform.advance(SLOT),
          'xstate.done.actor.testConnectivity': async () => {
            await platform.advance(ANSWER_AFTER)
            server.json(endpoint, endpoint === LIVE_URL ? { status: 'ok' } : REST_SCHEMA)
            await platform.settle()
          },
          'xstate.error.actor.testConnectivity': async () => {
            await platform.advance(ANSWER_AFTER)
            server.json(endpoint, { message: 'The project API server is offline' }, 503)
            await platform.settle()
          },
        },
      })
      // However late the answers and whatever became of them, the tests went out exactly on the beat.
      platform.expectBeat(endpoint, BEAT)
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
