import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor } from 'xstate'
import { liveNewProjectMachine } from '../../src/api/live/newProject'
import { NewProjectForm } from '../../src/views/projects/NewProjectPage'
import { CREATED_PROJECT } from '../fixtures.database'
import { badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const CREATE_PATH = /^\/v1\/projects$/

useFakeClock(0)

const messages: Record<string, RegExp> = {
  'a body that is not JSON': /Failed to create project: Malformed response from \/v1\/projects: not JSON/,
  'a 500': /Failed to create project: Internal server error/,
  'a 500 that is not JSON': /Failed to create project: Request failed with status 500/,
  'a network failure': /Failed to create project: Unable to reach the server/,
  'a time-out': /did not answer within 15 s\. The project may still have been created/,
}
const cases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(messages),
  ['a created project without its ref', json({ ...CREATED_PROJECT, ref: undefined }, 201), /Failed to create project: Malformed response from \/v1\/projects at ref/],
  ['a ref that is not a project ref', json({ ...CREATED_PROJECT, ref: '../settings' }, 201), /Malformed response from \/v1\/projects at ref/],
  ['a 403 (a Read-only member)', json({ message: 'Forbidden' }, 403), /You do not have permission to create projects in this organization/],
  ['a 400 with its message', json({ message: 'Name is required' }, 400), /Failed to create project: Name is required/],
]

describe('Create a project under bad answers', () => {
  it.each(cases)('%s shows a clear error, keeps name and region, and Create works again', async (_, bad, message) => {
    const fetch = stubFetch({ polled: CREATE_PATH, answers: [bad], fallback: json(CREATED_PROJECT, 201) })
    const actor = createActor(liveNewProjectMachine, { input: { slug: 'demo-pro' } }).start()
    const location = memoryLocation({ path: '/new/demo-pro', record: true })
    render(
      <Router hook={location.hook}>
        <NewProjectForm newProject={actor} />
      </Router>,
    )
    fireEvent.change(screen.getByRole('textbox', { name: 'Project name' }), { target: { value: 'Recipes' } })
    fireEvent.change(screen.getByLabelText('Database password'), { target: { value: 'Kitchen-Drawer-42' } })
    fireEvent.change(screen.getByRole('combobox', { name: 'Region' }), { target: { value: 'sa-east-1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create new project' }))
    await act(() => vi.advanceTimersByTimeAsync(15_000))
    expect(screen.getByRole('alert')).toHaveTextContent(message)
    expect(screen.getByRole('textbox', { name: 'Project name' })).toHaveValue('Recipes')
    expect(screen.getByRole('combobox', { name: 'Region' })).toHaveValue('sa-east-1')
    expect(location.history).toEqual(['/new/demo-pro'])
    fireEvent.click(screen.getByRole('button', { name: 'Create new project' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(location.history?.at(-1)).toBe(`/project/${CREATED_PROJECT.ref}`)
    expect(fetch.calls).toHaveLength(2)
    actor.stop()
  })
})
