import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { buildingChildMachine } from '../../machines/building.machine'
import { lifecycleChildren } from '../../machines/lifecycleChildren'
import { projectStatusMachine, selectProjectView, projectLink } from '../../machines/projectStatus.machine'
import type { ProjectStatus } from '../../src/contracts/common'
import type { Project } from '../../src/contracts/projects'
import { makeProject, REF } from '../fixtures'
import { scriptedEndpoint, scriptedStatus, usePathClock } from '../../model-tests/fakes'

/** The project is read from `projects` in turn, the last one answering every later read; the status endpoint answers `statuses`, then COMING_UP. */
function start(projects: Array<Project | Error>, section = '', statuses: ProjectStatus[] = []) {
  const project = scriptedEndpoint<Project, { ref: string }>(projects.slice(0, -1), projects[projects.length - 1])
  const status = scriptedStatus(statuses, 'COMING_UP')
  const refreshProjectList = vi.fn()
  const machine = projectStatusMachine.provide({
    actors: {
      ...lifecycleChildren,
      fetchProject: project.actor,
      building: buildingChildMachine.provide({ actors: { fetchProjectStatus: status.actor } }),
    },
    actions: { refreshProjectList },
  })
  const actor = createActor(machine, { input: { ref: REF, section } }).start()
  return { actor, fetches: project.requests, statusRequests: status.requests, refreshProjectList }
}

usePathClock()

describe('project status machine', () => {
  it('loads the project, then shows the page its status and route call for', async () => {
    const { actor } = start([makeProject({ status: 'INACTIVE' })], 'editor')
    expect(selectProjectView(actor.getSnapshot()).phase).toBe('loading')
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('paused')
    actor.send({ type: 'route.changed', section: 'settings/general' })
    expect(actor.getSnapshot().value).toBe('normal')
    actor.send({ type: 'route.changed', section: '' })
    expect(actor.getSnapshot().value).toBe('normal')
    actor.send({ type: 'route.changed', section: 'database/tables' })
    expect(actor.getSnapshot().value).toBe('paused')
  })

  it('shows a failure with a retry when the project cannot be loaded', async () => {
    const { actor, fetches } = start([new Error('Unable to reach the server'), makeProject()])
    await vi.advanceTimersByTimeAsync(0)
    const view = selectProjectView(actor.getSnapshot())
    expect(view).toMatchObject({ phase: 'loadFailed', error: 'Unable to reach the server' })
    actor.send({ type: 'project.retry' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('normal')
    expect(fetches).toHaveLength(2)
  })

  it('runs the building flow for a project coming up, then refreshes the project and the project list', async () => {
    const { actor, fetches, statusRequests, refreshProjectList } = start(
      [makeProject({ status: 'COMING_UP' }), makeProject({ status: 'ACTIVE_HEALTHY' })],
      '',
      ['COMING_UP', 'ACTIVE_HEALTHY'],
    )
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('building')
    await vi.advanceTimersByTimeAsync(8_000)
    expect(statusRequests).toEqual([4_000, 8_000])
    expect(fetches).toHaveLength(2)
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().value).toBe('normal')
    expect(selectProjectView(actor.getSnapshot())).toMatchObject({ phase: 'ready', page: 'normal', project: { status: 'ACTIVE_HEALTHY' } })
    await vi.advanceTimersByTimeAsync(40_000)
    expect(statusRequests).toHaveLength(2)
  })

  it('does not restart the building poll when the route changes to another building page', async () => {
    const { actor, statusRequests } = start([makeProject({ status: 'COMING_UP' })], 'building')
    await vi.advanceTimersByTimeAsync(3_000)
    actor.send({ type: 'route.changed', section: 'editor' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(statusRequests).toEqual([4_000])
  })

  it('stops polling when the route leaves the building page, and resumes on return', async () => {
    const { actor, statusRequests } = start([makeProject({ status: 'COMING_UP' })], '')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(statusRequests).toHaveLength(1)
    actor.send({ type: 'route.changed', section: 'settings/general' })
    expect(actor.getSnapshot().value).toBe('normal')
    await vi.advanceTimersByTimeAsync(20_000)
    expect(statusRequests).toHaveLength(1)
    actor.send({ type: 'route.changed', section: 'editor' })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(statusRequests).toHaveLength(2)
  })

  it('keeps the last good project when a refresh fails', async () => {
    const { actor } = start([makeProject({ status: 'ACTIVE_HEALTHY' }), new Error('boom')])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'project.refresh' })
    expect(selectProjectView(actor.getSnapshot())).toMatchObject({ phase: 'ready', refreshing: true })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('normal')
    expect(actor.getSnapshot().context.project?.status).toBe('ACTIVE_HEALTHY')
  })

  it('re-routes when another flow reports an updated project', async () => {
    const { actor } = start([makeProject({ status: 'INACTIVE' })], 'editor')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'project.updated', project: makeProject({ status: 'RESTORING' }) })
    expect(actor.getSnapshot().value).toBe('restoring')
  })

  it('stops every child and timer when it stops', async () => {
    const { actor, statusRequests } = start([makeProject({ status: 'UNKNOWN' })])
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('building')
    actor.stop()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(statusRequests).toHaveLength(0)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('projectLink', () => {
  it('sends tool links to the building page while the project is coming up', () => {
    expect(projectLink({ ref: REF, status: 'COMING_UP' }, REF, 'editor')).toBe(`/project/${REF}/building`)
    expect(projectLink({ ref: REF, status: 'UNKNOWN' }, REF, 'sql/new')).toBe(`/project/${REF}/building`)
    expect(projectLink({ ref: REF, status: 'ACTIVE_HEALTHY' }, REF, 'editor')).toBe(`/project/${REF}/editor`)
    expect(projectLink({ ref: REF, status: 'COMING_UP' }, REF, '')).toBe(`/project/${REF}`)
    expect(projectLink({ ref: REF, status: 'COMING_UP' }, REF, 'settings/general')).toBe(`/project/${REF}/settings/general`)
    expect(projectLink(null, REF, 'editor')).toBe(`/project/${REF}/editor`)
  })
})
