import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { PAUSING_OVERDUE_AFTER_MS, pausingMachine, selectPausingView } from '../../machines/pausing.machine'
import { selectElapsed } from '../../machines/elapsed.machine'
import { REF } from '../fixtures'
import { scriptedStatus, slow, usePathClock, type Answer } from '../../model-tests/fakes'

function start(answers: Answer[], since = new Date(0).toISOString()) {
  const { actor: fetchProjectStatus, requests, aborted } = scriptedStatus(answers, 'PAUSING')
  const refreshProject = vi.fn()
  const refreshProjectList = vi.fn()
  const machine = pausingMachine.provide({
    actors: {
      fetchProjectStatus,
    },
    actions: { refreshProject, refreshProjectList },
  })
  const actor = createActor(machine, { input: { ref: REF, since } }).start()
  return { actor, requests, aborted, refreshProject, refreshProjectList }
}

usePathClock()

describe('pausing machine', () => {
  it('waits 4 s, then polls every 2 s until INACTIVE, then refreshes the project and the list once', async () => {
    const { actor, requests, refreshProject, refreshProjectList } = start(['GOING_DOWN', 'PAUSING', 'PAUSING', 'INACTIVE'])
    await vi.advanceTimersByTimeAsync(3_999)
    expect(requests).toEqual([])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toEqual([4_000, 6_000, 8_000, 10_000])
    expect(actor.getSnapshot().status).toBe('done')
    expect(selectPausingView(actor.getSnapshot())).toEqual({ polling: false, complete: true })
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
  })

  it('keeps the 2 s cadence through failures and abandons a request still unanswered after its 2 s', async () => {
    const { actor, requests, aborted, refreshProject } = start([new Error('500'), 'hang', new Error('malformed'), 'PAUSING'])
    await vi.advanceTimersByTimeAsync(12_000)
    expect(requests).toEqual([4_000, 6_000, 8_000, 10_000, 12_000])
    expect(aborted).toEqual([8_000])
    expect(refreshProject).not.toHaveBeenCalled()
    expect(selectPausingView(actor.getSnapshot()).polling).toBe(true)
  })

  it('keeps the exact 2 s beat, counted from each request\'s start, when answers are slow', async () => {
    const { requests, aborted } = start([slow(1_500, 'PAUSING'), slow(1_999, new Error('500')), slow(2_500, 'PAUSING'), slow(300, 'INACTIVE')])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toEqual([4_000, 6_000, 8_000, 10_000])
    expect(aborted).toEqual([10_000])
  })

  it('never takes a status other than INACTIVE as done', async () => {
    const { actor, refreshProject } = start(['ACTIVE_HEALTHY', 'RESTORING', 'UNKNOWN', 'GOING_DOWN'])
    await vi.advanceTimersByTimeAsync(12_000)
    expect(actor.getSnapshot().status).toBe('active')
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('stopping it leaves no timer and no request behind', async () => {
    const { actor, requests } = start(['hang'])
    await vi.advanceTimersByTimeAsync(4_000)
    actor.stop()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toEqual([4_000])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('counts the elapsed time from the server timestamp and turns overdue past its threshold', async () => {
    const { actor } = start([], new Date(-PAUSING_OVERDUE_AFTER_MS + 2_000).toISOString())
    const elapsed = () => selectElapsed(actor.getSnapshot().children.elapsed!.getSnapshot())
    expect(elapsed().overdue).toBe(false)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(elapsed().overdue).toBe(true)
  })
})
