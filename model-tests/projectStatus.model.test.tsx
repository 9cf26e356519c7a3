import { act, fireEvent, render, screen } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createActor, type EventFrom, type EventObject } from 'xstate'
import { resolveProjectPage, type ProjectPage } from '../machines/projectPage'
import { projectStatusMachine } from '../machines/projectStatus.machine'
import { liveProjectStatusMachine, loadLifecycleFlows } from '../src/api/live/projects'
import type { Project } from '../src/contracts/projects'
import { ProjectStatusGate } from '../src/views/project/lifecycle/ProjectStatusGate'
import { ProjectActorContext } from '../src/views/shell/projectActor'
import { makeProject, REF } from '../tests/fixtures'
import { type ModelEvent, describePath, errorOf, eventFor, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(projectStatusMachine)

const PROJECT_URL = /\/platform\/projects\/[a-z]{20}$/

const FIXTURES: Project[] = [
  makeProject({ status: 'ACTIVE_HEALTHY' }),
  makeProject({ status: 'INACTIVE' }),
  makeProject({ status: 'UPGRADING' }),
  makeProject({ status: 'PAUSING' }),
  makeProject({ status: 'RESTORING' }),
  makeProject({ status: 'COMING_UP' }),
  makeProject({ status: 'ACTIVE_HEALTHY', postgrestStatus: 'OFFLINE' }),
]
const SECTIONS = ['', 'editor', 'settings/general', 'reports']

const model = modelOf(projectStatusMachine, {
  input: { ref: REF, section: 'editor' },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        ...FIXTURES.map((output) => (ev({ type: 'xstate.done.actor.fetchProject', output }))),
        { type: 'xstate.error.actor.fetchProject', error: new Error('Request failed with status 500') },
        { type: 'xstate.error.actor.fetchProject', error: Object.assign(new Error('Project not found'), { status: 404 }) },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'project.retry' }]
    if (snapshot.matches('refreshing')) {
      return [
        ...FIXTURES.map((output) => (ev({ type: 'xstate.done.actor.refetchProject', output }))),
        { type: 'xstate.error.actor.refetchProject', error: new Error('Request failed with status 500') },
      ]
    }
    const pageEvents: Array<ModelEvent<typeof projectStatusMachine>> = [
      { type: 'project.refresh' },
      ...SECTIONS.map((section) => (ev({ type: 'route.changed', section }))),
      ...FIXTURES.map((project) => (ev({ type: 'project.updated', project }))),
    ]
    return snapshot.matches('building') ? [...pageEvents, ev({ type: 'projects.refresh' })] : pageEvents
  },
  // A vertex is a state, the project and route it holds, and the edge that led there: so the shortest paths
  // take every edge, not only reach every vertex.
  serializeState: (snapshot, event) => {
    const { project, section } = (snapshot).context as { project: Project | null; section: string }
    const summary = (e: any) => e && `${e.type}:${e.output?.status ?? e.project?.status ?? e.section ?? e.error?.status ?? ''}${e.output?.postgrestStatus ?? e.project?.postgrestStatus ?? ''}`
    return `${JSON.stringify(snapshot.value)}|${project ? `${project.status}/${project.postgrestStatus}` : '-'}|${section}|${summary(event)}`
  },
})

const paths = model.getShortestPaths()

const platform = usePlatform()
// The lifecycle flows' chunk, loaded once before the paths as the first project that needs it loads it in the app: the
// paths then step the machine and the platform, not a module load (tests/machines/lifecycleChunk.test.ts covers that).
beforeAll(() => loadLifecycleFlows())

const heading = (name: string) => {
  expect(screen.getByRole('heading', { level: 1, name })).toBeVisible()
}

/** What the person sees on each page of a loaded project. */
const PAGE_SCREENS: Record<ProjectPage, () => void> = {
  normal: () => expect(screen.getByText('Project page content')).toBeInTheDocument(),
  paused: () => heading('Project is paused'),
  upgrading: () => heading('Upgrading project'),
  pausing: () => heading('Pausing project'),
  connecting: () => heading('Connecting to project'),
  restoring: () => heading('Restoration in progress'),
  building: () => heading('Setting up project'),
}

describe('project status model', () => {
  it('the paths reach every state and every transition', () => {
    const missing = missingCoverage(projectStatusMachine, paths)
    expect(missing).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const refreshProjectList = vi.fn()
      const actor = createActor(liveProjectStatusMachine.provide({ actions: { refreshProjectList } }), { input: { ref: REF, section: 'editor' } })
      actor.start()
      render(
        <ProjectActorContext.Provider value={actor}>
          <ProjectStatusGate>
            <p>Project page content</p>
          </ProjectStatusGate>
        </ProjectActorContext.Provider>,
      )
      const respond = (body: unknown, status = 200) => async () => {
        platform.server.json(PROJECT_URL, body, status)
        await platform.settle()
      }
      const sendToActor = async (step: { event: EventFrom<typeof projectStatusMachine> }) => {
        await act(async () => actor.send(step.event))
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading project…')
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to load project')
            expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          notFound: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible()
            expect(screen.getByRole('link', { name: 'Back to your projects' })).toHaveAttribute('href', '/projects')
            expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
          },
          ...PAGE_SCREENS,
          refreshing: (state) => {
            // A refresh keeps the last page on screen: the page of the project it holds, never a loading screen.
            expect(screen.queryByText('Loading project…')).toBeNull()
            const { project, section } = state.context
            const page = resolveProjectPage(project!, section)
            // The upgrading and restoring pages are drawn by their flow, stopped while the project is read again:
            // meanwhile their page waits under its own name.
            if (page === 'upgrading') expect(screen.getByRole('status')).toHaveTextContent('Reading upgrade status…')
            else if (page === 'restoring') heading('Returning to project')
            else PAGE_SCREENS[page]()
          },
        },
        events: {
          'xstate.done.actor.fetchProject': async (step: { event: EventObject }) => respond(outputOf<unknown>(step))(),
          'xstate.error.actor.fetchProject': async (step: { event: EventObject }) =>
            errorOf(step).status === 404
              ? respond({ message: 'Project not found' }, 404)()
              : respond({ message: 'Internal server error' }, 500)(),
          'xstate.done.actor.refetchProject': async (step: { event: EventObject }) => respond(outputOf<unknown>(step))(),
          'xstate.error.actor.refetchProject': respond({ message: 'Internal server error' }, 500),
          'project.retry': async () => {
            await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })))
          },
          'route.changed': sendToActor,
          'project.refresh': sendToActor,
          'project.updated': sendToActor,
          'projects.refresh': async (step) => {
            await sendToActor(step)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
