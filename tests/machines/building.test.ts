import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { buildingMachine } from '../../machines/building.machine'
import type { ProjectStatus } from '../../src/contracts/common'
import { scriptedStatus, slow, usePathClock, type Answer } from '../../model-tests/fakes'

function start(replies: Answer[], status: ProjectStatus = 'COMING_UP') {
  const endpoint = scriptedStatus(replies, 'COMING_UP')
  const refreshProject = vi.fn()
  const refreshProjectList = vi.fn()
  const actor = createActor(
    buildingMachine.provide({ actors: { fetchProjectStatus: endpoint.actor }, actions: { refreshProject, refreshProjectList } }),
    { input: { ref: 'abcdefghijklmnopqrst', status, since: new Date(0).toISOString() } },
  ).start()
  return { actor, requests: endpoint.requests, aborted: endpoint.aborted, refreshProject, refreshProjectList }
}

usePathClock()

describe('building machine', () => {
  it('polls the project status every 4 seconds', async () => {
    const { requests } = start([])
    await vi.advanceTimersByTimeAsync(3_999)
    expect(requests).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(12_000)
    expect(requests).toEqual([4_000, 8_000, 12_000, 16_000, 20_000])
  })

  it('abandons a request after 2 seconds, aborting it, and never overlaps two requests', async () => {
    const { actor, requests, aborted } = start(['hang', 'hang', 'COMING_UP'])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toEqual([4_000])
    expect(actor.getSnapshot().matches({ polling: 'requesting' })).toBe(true)
    await vi.advanceTimersByTimeAsync(1_999)
    expect(aborted).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(aborted).toEqual([6_000])
    expect(actor.getSnapshot().matches({ polling: 'settled' })).toBe(true)
    // The next poll goes out on the beat, 4 s after the abandoned one started, once that one is aborted.
    await vi.advanceTimersByTimeAsync(1_999)
    expect(requests).toEqual([4_000])
    await vi.advanceTimersByTimeAsync(1)
    expect(requests).toEqual([4_000, 8_000])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toEqual([4_000, 8_000, 12_000])
    expect(aborted).toEqual([6_000, 10_000])
  })

  it('keeps the exact 4 s beat, counted from each request\'s start, when answers are slow', async () => {
    const { requests, aborted } = start([slow(1_500, 'COMING_UP'), slow(1_999, new Error('500')), slow(2_500, 'COMING_UP'), 'COMING_UP'])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toEqual([4_000, 8_000, 12_000, 16_000, 20_000])
    // Only the answer slower than its 2 s slot was abandoned.
    expect(aborted).toEqual([14_000])
  })

  it('keeps polling after a failed request', async () => {
    const { actor, requests } = start([new Error('500'), new Error('Malformed response'), 'COMING_UP'])
    await vi.advanceTimersByTimeAsync(12_000)
    expect(requests).toEqual([4_000, 8_000, 12_000])
    expect(actor.getSnapshot().matches({ polling: 'settled' })).toBe(true)
  })

  it('stops on ACTIVE_HEALTHY and asks for the project and the project list to be refreshed', async () => {
    const { actor, requests, refreshProject, refreshProjectList } = start(['COMING_UP', 'ACTIVE_HEALTHY'])
    await vi.advanceTimersByTimeAsync(8_000)
    expect(actor.getSnapshot().status).toBe('done')
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requests).toHaveLength(2)
  })

  it('an UNKNOWN project becoming COMING_UP keeps polling', async () => {
    const { actor, requests } = start(['COMING_UP'], 'UNKNOWN')
    expect(actor.getSnapshot().context.status).toBe('UNKNOWN')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(actor.getSnapshot().context.status).toBe('COMING_UP')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(2)
  })

  it('makes no request after the actor stops, and aborts the one in flight', async () => {
    const { actor, requests, aborted } = start(['hang'])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(1)
    actor.stop()
    expect(aborted).toEqual([4_000])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requests).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})
