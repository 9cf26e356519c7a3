import { describe, expect, it, vi } from 'vitest'
import { createActor, createMachine } from 'xstate'
import { pausedChildMachine, pausedMachine, selectPausedView, type RestoreContext } from '../../machines/paused.machine'
import type { Project } from '../../src/contracts/projects'
import { makeProject } from '../fixtures'
import { answeringEndpoint, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

const OWNER_PERMISSIONS: RestoreContext['permissions'] = ['projects:write', 'infra:execute:project-initialize-or-resume']
const PRO: RestoreContext = { permissions: OWNER_PERMISSIONS, plan: 'pro', membersReachedLimit: [] }
const MEMBER = { username: 'owner', primary_email: 'owner@example.com', free_project_limit: 2 }

function start(context: RestoreContext | Error, restore: () => Promise<Project> = async () => makeProject({ status: 'RESTORING' })) {
  const showToast = vi.fn()
  const projectUpdated = vi.fn()
  const restoreCall = answeringEndpoint<Project, { ref: string }>(() => restore())
  const machine = pausedMachine.provide({
    actors: {
      fetchRestoreContext: scriptedEndpoint<RestoreContext, { organizationSlug: string }>([], context).actor,
      restoreProject: restoreCall.actor,
    },
    actions: {
      showToast: (_, params) => showToast(params),
      projectUpdated: (_, params) => projectUpdated(params.project),
    },
  })
  const actor = createActor(machine, { input: { project: makeProject({ status: 'INACTIVE' }) } }).start()
  return { actor, showToast, projectUpdated, restoreCalls: restoreCall.inputs, view: () => selectPausedView(actor.getSnapshot()) }
}

usePathClock()

describe('paused machine', () => {
  it('restores after confirmation: the dialog buttons are disabled once confirmed, the project goes up RESTORING, a toast shows', async () => {
    let answer!: (p: Project) => void
    const { actor, view, showToast, projectUpdated, restoreCalls } = start(PRO, () => new Promise((resolve) => (answer = resolve)))
    expect(view()).toMatchObject({ phase: 'loading', canRequestRestore: false })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'ready', canRequestRestore: true, plan: 'pro', dialog: 'none' })
    actor.send({ type: 'restore.request' })
    expect(view()).toMatchObject({ dialog: 'confirm', confirmed: false, canConfirm: true, canCancel: true })
    actor.send({ type: 'restore.confirm' })
    expect(view()).toMatchObject({ dialog: 'confirm', confirmed: true, canConfirm: false, canCancel: false })
    actor.send({ type: 'restore.cancel' }) // disabled once confirmed: ignored
    actor.send({ type: 'restore.confirm' })
    expect(restoreCalls).toHaveLength(1)
    const restored = makeProject({ status: 'RESTORING' })
    answer(restored)
    await vi.advanceTimersByTimeAsync(0)
    expect(projectUpdated).toHaveBeenCalledWith(restored)
    expect(showToast).toHaveBeenCalledWith({ tone: 'success', message: 'Restoring project' })
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('a failed restore shows "Failed to restore project: {message}" and leaves the project paused', async () => {
    const { actor, view, showToast, projectUpdated } = start(PRO, async () => {
      throw new Error('Project is RESTORING: only a paused (INACTIVE) project can be restored')
    })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'restore.request' })
    actor.send({ type: 'restore.confirm' })
    await vi.advanceTimersByTimeAsync(0)
    expect(showToast).toHaveBeenCalledWith({
      tone: 'error',
      message: 'Failed to restore project: Project is RESTORING: only a paused (INACTIVE) project can be restored',
    })
    expect(projectUpdated).not.toHaveBeenCalled()
    expect(view()).toMatchObject({ dialog: 'none', canRequestRestore: true })
  })

  it('without infra-execute permission a click is refused and nothing is called', async () => {
    const { actor, view, restoreCalls } = start({ ...PRO, permissions: ['projects:write'] })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ lacksPermission: true, canRequestRestore: true, denied: false })
    actor.send({ type: 'restore.request' })
    expect(view()).toMatchObject({ denied: true, dialog: 'none' })
    actor.send({ type: 'restore.request' })
    expect(view().denied).toBe(true)
    expect(restoreCalls).toEqual([])
  })

  it('on the free plan with members at the limit, the blocking modal shows instead of the confirmation', async () => {
    const { actor, view } = start({ permissions: OWNER_PERMISSIONS, plan: 'free', membersReachedLimit: [MEMBER] })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'restore.request' })
    expect(view()).toMatchObject({ dialog: 'limit', membersReachedLimit: [MEMBER] })
    actor.send({ type: 'restore.confirm' })
    expect(view().dialog).toBe('limit')
    actor.send({ type: 'limit.close' })
    expect(view().dialog).toBe('none')
  })

  it('members at the limit do not block a paid organization; a free one without them confirms', async () => {
    const pro = start({ ...PRO, membersReachedLimit: [MEMBER] })
    await vi.advanceTimersByTimeAsync(0)
    pro.actor.send({ type: 'restore.request' })
    expect(pro.view().dialog).toBe('confirm')
    const free = start({ permissions: OWNER_PERMISSIONS, plan: 'free', membersReachedLimit: [] })
    await vi.advanceTimersByTimeAsync(0)
    free.actor.send({ type: 'restore.request' })
    expect(free.view().dialog).toBe('confirm')
  })

  it('a failed read of what the restore depends on shows the error and can be retried', async () => {
    const { actor, view } = start(new Error('Unable to reach the server'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'loadFailed', loadError: 'Unable to reach the server', canRequestRestore: false })
    actor.send({ type: 'context.retry' })
    expect(view().phase).toBe('loading')
  })

  it('as a child, it sends the restored project up as project.updated', async () => {
    const received: unknown[] = []
    const parent = createMachine({
      invoke: {
        id: 'paused',
        src: pausedChildMachine.provide({
          actors: {
            fetchRestoreContext: scriptedEndpoint<RestoreContext, { organizationSlug: string }>([], PRO).actor,
            restoreProject: scriptedEndpoint<Project, { ref: string }>([], makeProject({ status: 'RESTORING' })).actor,
          },
        }),
        input: { project: makeProject({ status: 'INACTIVE' }) },
      },
      on: { '*': { actions: ({ event }) => received.push(event) } },
    })
    const actor = createActor(parent).start()
    await vi.advanceTimersByTimeAsync(0)
    const child = actor.getSnapshot().children.paused!
    child.send({ type: 'restore.request' })
    child.send({ type: 'restore.confirm' })
    await vi.advanceTimersByTimeAsync(0)
    expect(received).toContainEqual({ type: 'project.updated', project: makeProject({ status: 'RESTORING' }) })
  })
})
