import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { restoringMachine, selectRestoringView } from '../../machines/restoring.machine'
import type { ProjectStatus } from '../../src/contracts/common'
import type { RestoreStatusResponse } from '../../src/contracts/pause'
import { REF } from '../fixtures'
import { scriptedEndpoint, scriptedStatus, slow, usePathClock, type Answer } from '../../model-tests/fakes'

function start(opened: ProjectStatus, answers: Answer[], failure: RestoreStatusResponse | Error = { status: 'RESTORATION_FAILED', error: 'disk full' }) {
  const { actor: fetchProjectStatus, requests, aborted } = scriptedStatus(answers, 'RESTORING')
  const refreshProject = vi.fn()
  const refreshProjectList = vi.fn()
  const machine = restoringMachine.provide({
    actors: {
      fetchProjectStatus,
      fetchRestoreStatus: scriptedEndpoint<RestoreStatusResponse, { ref: string }>([], failure).actor,
    },
    actions: { refreshProject, refreshProjectList },
  })
  const actor = createActor(machine, { input: { ref: REF, status: opened, since: new Date(0).toISOString() } }).start()
  const view = () => selectRestoringView(actor.getSnapshot())
  return { actor, requests, aborted, refreshProject, refreshProjectList, view }
}

usePathClock()

describe('restoring machine', () => {
  it('polls every 4 s from the moment it opens and shows completion only on ACTIVE_HEALTHY', async () => {
    const { requests, view, refreshProject } = start('RESTORING', ['RESTORING', 'RESTORING', 'ACTIVE_HEALTHY'])
    expect(view()).toMatchObject({ phase: 'inProgress', title: 'Restoration in progress', canReturn: false })
    await vi.advanceTimersByTimeAsync(7_999)
    expect(requests).toEqual([0, 4_000])
    await vi.advanceTimersByTimeAsync(1)
    expect(requests).toEqual([0, 4_000, 8_000])
    expect(view()).toMatchObject({ phase: 'complete', title: 'Restoration complete!', canReturn: true })
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(3) // done: no more polling
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('keeps the exact 4 s beat, counted from each request\'s start, when answers are slow or lost', async () => {
    const { requests, aborted, view } = start('RESTORING', [slow(1_500, 'RESTORING'), slow(1_999, new Error('500')), 'hang', slow(2_500, 'RESTORING'), slow(300, 'ACTIVE_HEALTHY')])
    await vi.advanceTimersByTimeAsync(30_000)
    expect(requests).toEqual([0, 4_000, 8_000, 12_000, 16_000])
    expect(aborted).toEqual([10_000, 14_000])
    expect(view().phase).toBe('complete')
  })

  it('seeing RESTORING (the restore confirmed) keeps the beat: the next request is 4 s after the last one started', async () => {
    const { requests, view } = start('INACTIVE', [slow(700, 'ACTIVE_HEALTHY'), slow(1_900, 'RESTORING'), slow(300, 'RESTORING'), slow(1_200, 'ACTIVE_HEALTHY')])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toEqual([0, 4_000, 8_000, 12_000])
    expect(view().phase).toBe('complete')
  })

  it("'Return to project' asks for the project and the project list again, once", async () => {
    const { actor, refreshProject, refreshProjectList } = start('RESTORING', ['ACTIVE_HEALTHY'])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'project.return' })
    actor.send({ type: 'project.return' })
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('an ACTIVE_HEALTHY read before RESTORING was ever seen is not taken as done', async () => {
    const { requests, view } = start('INACTIVE', ['ACTIVE_HEALTHY', 'INACTIVE', 'RESTORING', 'ACTIVE_HEALTHY'])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(view().phase).toBe('inProgress')
    await vi.advanceTimersByTimeAsync(8_000)
    expect(requests).toEqual([0, 4_000, 8_000, 12_000])
    expect(view().phase).toBe('complete')
  })

  it('RESTORATION_FAILED stops polling and shows the error the server recorded', async () => {
    const { requests, view } = start('RESTORING', ['RESTORING', 'RESTORATION_FAILED'])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(view()).toEqual({ phase: 'failed', title: 'Restoration failed', error: 'disk full', canReturn: false })
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(2)
  })

  it('opened on a failed project, it reads the failure without polling; an unreadable failure shows no invented error', async () => {
    const a = start('RESTORATION_FAILED', [])
    await vi.advanceTimersByTimeAsync(0)
    expect(a.view()).toMatchObject({ phase: 'failed', error: 'disk full' })
    expect(a.requests).toEqual([])
    a.actor.stop()
    const b = start('RESTORATION_FAILED', [], new Error('Request failed with status 500'))
    await vi.advanceTimersByTimeAsync(0)
    expect(b.view()).toMatchObject({ phase: 'failed', error: null })
  })

  it('keeps the 4 s cadence through failures; a request gets 2 s, then is abandoned', async () => {
    const { requests, aborted, view } = start('RESTORING', [new Error('500'), 'hang', new Error('malformed'), 'RESTORING'])
    await vi.advanceTimersByTimeAsync(16_000)
    expect(requests).toEqual([0, 4_000, 8_000, 12_000, 16_000])
    expect(aborted).toEqual([6_000])
    expect(view().phase).toBe('inProgress')
  })

  it('stopping it leaves no timer and no request behind', async () => {
    const { actor } = start('RESTORING', ['hang'])
    actor.stop()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(vi.getTimerCount()).toBe(0)
  })
})
