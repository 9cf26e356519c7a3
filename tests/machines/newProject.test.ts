import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { createErrorOf, newProjectMachine, selectCanCreate, selectNewProjectView, type CreateProjectInput } from '../../machines/newProject.machine'
import type { V1CreatedProject } from '../../src/contracts/database'
import { sendUnchecked } from '../../model-tests/harness'
import { apiError, deferredActor, usePathClock } from '../../model-tests/fakes'

const CREATED: V1CreatedProject = {
  id: '9',
  ref: 'zyxwvutsrqponmlkjihg',
  organization_id: '2',
  organization_slug: 'demo-pro',
  name: 'Recipes',
  region: 'eu-west-1',
  created_at: '2026-11-23T10:00:00.000Z',
  status: 'COMING_UP',
}

function start() {
  const create = deferredActor<V1CreatedProject, CreateProjectInput>('createProject')
  const refreshProjectList = vi.fn()
  const actor = createActor(
    newProjectMachine.provide({
      actors: {
        createProject: create.logic,
      },
      actions: { refreshProjectList },
    }),
    { input: { slug: 'demo-pro' } },
  ).start()
  return { actor, creates: create.runs, refreshProjectList, view: () => selectNewProjectView(actor.getSnapshot()), canCreate: () => selectCanCreate(actor.getSnapshot()) }
}

usePathClock()

const STRONG = 'Kitchen-Drawer-42'

describe('new project machine', () => {
  it('creates nothing until a name and a strong database password are given; sends the trimmed name, the slug, the region and the password', async () => {
    const { actor, creates, canCreate, view, refreshProjectList } = start()
    expect(view()).toEqual({ phase: 'editing', name: '', password: '', passwordProblem: 'Enter a database password.', region: 'us-east-1', creating: false, error: null })
    expect(canCreate()).toBe(false)
    actor.send({ type: 'project.name', name: '   ' })
    actor.send({ type: 'project.create' })
    expect(creates).toHaveLength(0)
    actor.send({ type: 'project.name', name: '  Recipes ' })
    actor.send({ type: 'project.region', region: 'eu-west-1' })
    expect(canCreate()).toBe(false)
    actor.send({ type: 'project.password', password: 'short1A' })
    expect(view()).toMatchObject({ passwordProblem: 'Use at least 12 characters (7 so far).' })
    actor.send({ type: 'project.password', password: 'alllowercaseletters' })
    expect(view()).toMatchObject({ passwordProblem: 'Mix at least three of: lower case, upper case, digits and symbols.' })
    expect(canCreate()).toBe(false)
    actor.send({ type: 'project.create' })
    expect(creates).toHaveLength(0)
    actor.send({ type: 'project.password', password: STRONG })
    expect(view()).toMatchObject({ passwordProblem: null })
    expect(canCreate()).toBe(true)
    actor.send({ type: 'project.create' })
    expect(creates[0].input).toEqual({ organizationSlug: 'demo-pro', name: 'Recipes', region: 'eu-west-1', dbPass: STRONG })
    expect(view()).toMatchObject({ creating: true })
    expect(canCreate()).toBe(false)
    // Nothing changes the form while the create is out.
    actor.send({ type: 'project.name', name: 'Other' })
    expect(view()).toMatchObject({ name: '  Recipes ' })
    creates[0].resolve(CREATED)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'created', ref: CREATED.ref, name: 'Recipes' })
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
  })

  it('refuses a region that is not in the list', () => {
    const { actor, view } = start()
    sendUnchecked(actor, { type: 'project.region', region: 'mars-north-1' })
    expect(view()).toMatchObject({ region: 'us-east-1' })
  })

  it('a 403 says the person cannot create projects; the form keeps what was typed and may try again', async () => {
    const { actor, creates, view, canCreate } = start()
    actor.send({ type: 'project.name', name: 'Recipes' })
    actor.send({ type: 'project.password', password: STRONG })
    actor.send({ type: 'project.region', region: 'ap-south-1' })
    actor.send({ type: 'project.create' })
    creates[0].reject(apiError('Your role does not allow this', 403))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({
      phase: 'editing',
      name: 'Recipes',
      password: STRONG,
      passwordProblem: null,
      region: 'ap-south-1',
      creating: false,
      error: expect.stringContaining('You do not have permission to create projects in this organization'),
    })
    expect(canCreate()).toBe(true)
  })

  it("another refusal shows the server's message", async () => {
    const { actor, creates, view } = start()
    actor.send({ type: 'project.name', name: 'Recipes' })
    actor.send({ type: 'project.password', password: STRONG })
    actor.send({ type: 'project.create' })
    creates[0].reject(apiError('Name is required', 400))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ name: 'Recipes', error: 'Failed to create project: Name is required' })
    actor.send({ type: 'project.create' })
    expect(view()).toMatchObject({ creating: true, error: null })
  })

  it('a create unanswered for 15 s is abandoned and says the project may exist', async () => {
    const { actor, creates, view, refreshProjectList } = start()
    actor.send({ type: 'project.name', name: 'Recipes' })
    actor.send({ type: 'project.password', password: STRONG })
    actor.send({ type: 'project.create' })
    await vi.advanceTimersByTimeAsync(14_999)
    expect(view()).toMatchObject({ creating: true })
    await vi.advanceTimersByTimeAsync(1)
    expect(creates[0].signal.aborted).toBe(true)
    expect(view()).toMatchObject({ name: 'Recipes', creating: false, error: expect.stringContaining('may still have been created') })
    expect(refreshProjectList).not.toHaveBeenCalled()
  })

  it('createErrorOf reads the status of what was thrown', () => {
    expect(createErrorOf(apiError('Forbidden', 403))).toMatch(/^You do not have permission/)
    expect(createErrorOf(apiError('Organization not found', 404))).toBe('Failed to create project: Organization not found')
    // The server's limits (the free project limit, the organization's disk cap) are told in the server's words.
    const limit = 'Members of this organization have reached the free project limit of 2: owner (owner@example.com). Delete, pause or upgrade a project first.'
    expect(createErrorOf(apiError(limit, 409))).toBe(`Failed to create project: ${limit}`)
    expect(createErrorOf('weird')).toBe('Failed to create project')
  })
})
