import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { projectListMachine, type ProjectListData } from '../machines/projectList.machine'
import { ProjectsPage } from '../src/views/projects/ProjectsPage'
import { ORGS, PROJECTS } from '../tests/fakePlatform'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

const DATA: ProjectListData = { organizations: ORGS, projects: PROJECTS }
const FAILURE = apiError('Database is down', 500)

const model = modelOf(projectListMachine, {
  events: (snapshot) => {
    if (snapshot.matches('loading') || snapshot.matches({ loaded: 'refreshing' })) {
      return [
        { type: 'xstate.done.actor.fetchProjects', output: DATA },
        { type: 'xstate.error.actor.fetchProjects', error: FAILURE },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'projects.retry' }, { type: 'projects.refresh' }]
    if (snapshot.matches({ loaded: 'idle' })) {
      return [{ type: 'projects.refresh' }, { type: 'projects.search', query: 'zzz' }]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}${snapshot.context.query}`),
})
const paths = model.getShortestPaths()

let stop: (() => void) | null = null
afterEach(() => stop?.())

describe('project list model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(projectListMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetchProjects = deferredActor<ProjectListData>('fetchProjects')
      const actor = createActor(projectListMachine.provide({ actors: { fetchProjects: fetchProjects.logic } })).start()
      stop = () => actor.stop()
      render(<ProjectsPage projectList={actor} />)
      const user = userEvent.setup()
      const query = () => actor.getSnapshot().context.query

      const listShown = () => {
        if (query() === '') {
          expect(screen.getByRole('region', { name: 'Demo Pro' })).toBeInTheDocument()
          expect(screen.getByRole('link', { name: /^Analytics / })).toBeInTheDocument()
          expect(screen.getByText('No projects found in this organization')).toBeInTheDocument()
        } else {
          expect(screen.getByText('No results found.')).toBeInTheDocument()
          expect(screen.queryByRole('link', { name: /^Analytics / })).not.toBeInTheDocument()
        }
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading projects…')).toBeInTheDocument()
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Database is down')
            expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'loaded.idle': () => {
            listShown()
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
          },
          'loaded.refreshing': () => {
            listShown()
            expect(screen.getByRole('button', { name: 'Refreshing…' })).toBeDisabled()
          },
        },
        events: {
          'xstate.done.actor.fetchProjects': async (step) => fetchProjects.resolve(outputOf<ProjectListData>(step)),
          'xstate.error.actor.fetchProjects': async (step) => fetchProjects.reject(errorOf(step)),
          'projects.retry': async () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'projects.refresh': async () => {
            const button = screen.queryByRole('button', { name: 'Refresh' })
            // From a failed load the refresh comes from elsewhere (a project that came up): the event itself.
            if (button) await user.click(button)
            else await act(async () => actor.send({ type: 'projects.refresh' }))
          },
          'projects.search': async (step) => {
            await user.type(screen.getByRole('searchbox', { name: 'Search for a project' }), step.event.query)
          },
        },
      })
    })
  }
})
