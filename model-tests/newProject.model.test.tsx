import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { newProjectMachine, passwordProblem, type CreateProjectInput } from '../machines/newProject.machine'
import type { V1CreatedProject } from '../src/contracts/database'
import { NewProjectForm } from '../src/views/projects/NewProjectPage'
import { CREATED_PROJECT } from '../tests/fixtures.database'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(newProjectMachine)

const CREATE_TIMEOUT = 15_000
const STRONG = 'Kitchen-Drawer-42'
const WEAK = 'kitchen'
const contextOf = (snapshot: SnapshotFrom<typeof newProjectMachine>) => snapshot.context

const model = modelOf(newProjectMachine, {
  input: { slug: 'demo-pro' },
  events: (snapshot) => {
    const { name, region, password } = contextOf(snapshot)
    if (snapshot.matches('editing')) {
      return [
        ...(name === '' ? [ev({ type: 'project.name', name: 'Recipes' })] : []),
        ...(password === '' ? [ev({ type: 'project.password', password: WEAK })] : []),
        ...(password !== STRONG ? [ev({ type: 'project.password', password: STRONG })] : []),
        ...(region === 'us-east-1' ? [ev({ type: 'project.region', region: 'eu-west-1' })] : []),
        ...(name.trim() !== '' && passwordProblem(password) === null ? [ev({ type: 'project.create' })] : []),
      ]
    }
    if (snapshot.matches('creating')) {
      return [
        { type: 'xstate.done.actor.createProject', output: CREATED_PROJECT },
        { type: 'xstate.error.actor.createProject', error: apiError('Forbidden', 403) },
        { type: 'xstate.error.actor.createProject', error: apiError('Name is too long', 400) },
        { type: 'xstate.after.createTimeout.newProject.creating' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { name, region, error, password } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, `${name}|${password}|${region}|${error}`)
  },
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('new project model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(newProjectMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const create = deferredActor<V1CreatedProject, CreateProjectInput>('createProject')
      const refreshProjectList = vi.fn()
      const actor = createActor(newProjectMachine.provide({ actors: { createProject: create.logic }, actions: { refreshProjectList } }), {
        input: { slug: 'demo-pro' },
      }).start()
      runPath(actor)
      const location = memoryLocation({ path: '/new/demo-pro', record: true })
      render(
        <Router hook={location.hook}>
          <NewProjectForm newProject={actor} />
        </Router>,
      )
      const nameBox = () => screen.getByRole('textbox', { name: 'Project name' })
      const regionBox = () => screen.getByRole('combobox', { name: 'Region' })
      const passwordBox = () => screen.getByLabelText('Database password')
      /** What was typed is on screen in every state of the form. */
      const formShows = (snapshot: AnyMachineSnapshot) => {
        expect(nameBox()).toHaveValue(contextOf(snapshot).name)
        expect(passwordBox()).toHaveValue(contextOf(snapshot).password)
        expect(passwordBox()).toHaveAttribute('type', 'password')
        expect(regionBox()).toHaveValue(contextOf(snapshot).region)
      }

      await path.test({
        states: {
          editing: (snapshot) => {
            formShows(snapshot)
            expect(nameBox()).toBeEnabled()
            const button = screen.getByRole('button', { name: 'Create new project' })
            const { name, password } = contextOf(snapshot)
            if (name.trim() === '' || passwordProblem(password) !== null) expect(button).toBeDisabled()
            else expect(button).toBeEnabled()
            // The rule the password still misses is the field's description; a strong one is told so.
            if (password === '') expect(passwordBox()).toHaveAccessibleDescription('Enter a database password.')
            else if (password === WEAK) expect(passwordBox()).toHaveAccessibleDescription('Use at least 12 characters (7 so far).')
            else expect(passwordBox()).toHaveAccessibleDescription(/This password is strong enough/)
            const error = contextOf(snapshot).error
            if (error === null) expect(screen.queryByRole('alert')).toBeNull()
            else if (error.startsWith('You do not have permission')) expect(screen.getByRole('alert')).toHaveTextContent('You do not have permission to create projects in this organization')
            else if (error.includes('did not answer')) expect(screen.getByRole('alert')).toHaveTextContent('The project may still have been created')
            else expect(screen.getByRole('alert')).toHaveTextContent('Failed to create project: Name is too long')
            expect(refreshProjectList).not.toHaveBeenCalled()
            expect(location.history).toEqual(['/new/demo-pro'])
          },
          creating: (snapshot) => {
            formShows(snapshot)
            expect(nameBox()).toBeDisabled()
            expect(screen.getByRole('button', { name: 'Creating project…' })).toBeDisabled()
            expect(passwordBox()).toBeDisabled()
            expect(create.pending.at(-1)?.input).toEqual({ organizationSlug: 'demo-pro', name: 'Recipes', region: contextOf(snapshot).region, dbPass: STRONG })
          },
          created: () => {
            expect(location.history?.at(-1)).toBe(`/project/${CREATED_PROJECT.ref}`)
            expect(refreshProjectList).toHaveBeenCalledTimes(1)
          },
        },
        events: {
          'project.name': async (step) => {
            fireEvent.change(nameBox(), { target: { value: step.event.name } })
          },
          'project.password': async (step) => {
            fireEvent.change(passwordBox(), { target: { value: step.event.password } })
          },
          'project.region': async (step) => {
            fireEvent.change(regionBox(), { target: { value: step.event.region } })
          },
          'project.create': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Create new project' }))
          },
          'xstate.done.actor.createProject': async (step) => create.resolve(outputOf<V1CreatedProject>(step)),
          'xstate.error.actor.createProject': async (step) => create.reject(errorOf(step)),
          'xstate.after.createTimeout.newProject.creating': async () => {
            await act(() => vi.advanceTimersByTimeAsync(CREATE_TIMEOUT))
          },
        },
      })
    })
  }
})
