import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { pauseProjectMachine, selectPauseProjectView } from '../../machines/pauseProject.machine'
import type { Permission, ProjectStatus } from '../../src/contracts/common'
import { REF } from '../fixtures'
import { answeringEndpoint, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

function start(permissions: Permission[] | Error, status: ProjectStatus = 'ACTIVE_HEALTHY', pause: () => Promise<void> = async () => {}) {
  const refreshProject = vi.fn()
  const pauseCall = answeringEndpoint<void, { ref: string }>(() => pause())
  const machine = pauseProjectMachine.provide({
    actors: {
      fetchPermissions: scriptedEndpoint<Permission[], { organizationSlug: string }>([], permissions).actor,
      pauseProject: pauseCall.actor,
    },
    actions: { refreshProject },
  })
  const actor = createActor(machine, { input: { ref: REF, organizationSlug: 'demo-pro', status } }).start()
  return { actor, refreshProject, pauseCalls: pauseCall.inputs, view: () => selectPauseProjectView(actor.getSnapshot()) }
}

usePathClock()

describe('pause project machine', () => {
  it('confirms, disables the dialog buttons while the call runs, then asks for the project to be refetched', async () => {
    let answer!: () => void
    const { actor, view, refreshProject, pauseCalls } = start(['projects:write'], 'ACTIVE_HEALTHY', () => new Promise((r) => (answer = r)))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ canRequest: true, reason: null, dialogOpen: false })
    actor.send({ type: 'pause.request' })
    expect(view()).toMatchObject({ dialogOpen: true, confirmed: false, canConfirm: true, canCancel: true })
    actor.send({ type: 'pause.confirm' })
    expect(view()).toMatchObject({ dialogOpen: true, confirmed: true, canConfirm: false, canCancel: false })
    actor.send({ type: 'pause.cancel' })
    expect(pauseCalls.map((input) => input.ref)).toEqual([REF])
    answer()
    await vi.advanceTimersByTimeAsync(0)
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('a failed call keeps the dialog open with the error; cancel closes it', async () => {
    const { actor, view, refreshProject } = start(['projects:write'], 'ACTIVE_HEALTHY', async () => {
      throw new Error('Project is PAUSING: only an ACTIVE_HEALTHY project can be paused')
    })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'pause.request' })
    actor.send({ type: 'pause.confirm' })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({
      dialogOpen: true,
      confirmed: false,
      error: 'Failed to pause project: Project is PAUSING: only an ACTIVE_HEALTHY project can be paused',
    })
    actor.send({ type: 'pause.cancel' })
    expect(view()).toMatchObject({ dialogOpen: false, error: null })
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('without projects:write the action is disabled with the reason', async () => {
    const { actor, view } = start([])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ canRequest: false, reason: 'You need additional permissions to pause this project' })
    actor.send({ type: 'pause.request' })
    expect(view().dialogOpen).toBe(false)
  })

  it('a project that is not healthy cannot be asked to pause', async () => {
    const { view } = start(['projects:write'], 'INACTIVE')
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ canRequest: false, reason: 'Only a healthy project can be paused; this one is INACTIVE' })
  })

  it('a failed permission read shows the error and can be retried', async () => {
    const { actor, view } = start(new Error('Unable to reach the server'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'loadFailed', error: 'Unable to reach the server', canRequest: false })
    actor.send({ type: 'permissions.retry' })
    expect(view().phase).toBe('loading')
  })
})
