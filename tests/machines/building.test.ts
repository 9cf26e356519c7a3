import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { buildingMachine } from '../../machines/building.machine'
import type { ProjectStatus } from '../../src/contracts/common'

type Reply = { status: ProjectStatus } | Error | 'hang'

/** A status endpoint that answers from a script and records every request, with its abort signal. */
function scriptedStatus(replies: Reply[]) {
  const requests: Array<{ at: number; signal: AbortSignal }> = []
  const actor = fromPromise<{ status: ProjectStatus }, { ref: string }>(({ signal }) => {
    requests.push({ at: Date.now(), signal })
    const reply = replies.shift() ?? { status: 'COMING_UP' }
    if (reply === 'hang') return new Promise(() => {})
    return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply)
  })
  return { actor, requests }
}

function start(replies: Reply[], status: ProjectStatus = 'COMING_UP') {
  const endpoint = scriptedStatus(replies)
  const refreshProject = vi.fn()
  const refreshProjectList = vi.fn()
  const actor = createActor(
    buildingMachine.provide({ actors: { fetchProjectStatus: endpoint.actor }, actions: { refreshProject, refreshProjectList } }),
    { input: { ref: 'abcdefghijklmnopqrst', status, since: new Date(0).toISOString() } },
  ).start()
  return { actor, requests: endpoint.requests, refreshProject, refreshProjectList }
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})
afterEach(() => {
  vi.useRealTimers()
})

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
    expect(requests.map((r) => r.at)).toEqual([4_000, 8_000, 12_000, 16_000, 20_000])
  })

  it('abandons a request after 2 seconds, aborting it, and never overlaps two requests', async () => {
    const { actor, requests } = start(['hang', 'hang', { status: 'COMING_UP' }])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(1)
    expect(actor.getSnapshot().value).toBe('polling')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(requests[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests[0].signal.aborted).toBe(true)
    expect(actor.getSnapshot().value).toBe('waiting')
    // The next poll starts one interval after the abandoned one, not while it is pending.
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests.map((r) => r.at)).toEqual([4_000, 10_000])
    expect(requests[1].signal.aborted).toBe(false)
  })

  it('keeps polling after a failed request', async () => {
    const { actor, requests } = start([new Error('500'), new Error('Malformed response'), { status: 'COMING_UP' }])
    await vi.advanceTimersByTimeAsync(12_000)
    expect(requests).toHaveLength(3)
    expect(actor.getSnapshot().value).toBe('waiting')
  })

  it('stops on ACTIVE_HEALTHY and asks for the project and the project list to be refreshed', async () => {
    const { actor, requests, refreshProject, refreshProjectList } = start([{ status: 'COMING_UP' }, { status: 'ACTIVE_HEALTHY' }])
    await vi.advanceTimersByTimeAsync(8_000)
    expect(actor.getSnapshot().status).toBe('done')
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(refreshProjectList).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requests).toHaveLength(2)
  })

  it('an UNKNOWN project becoming COMING_UP keeps polling', async () => {
    const { actor, requests } = start([{ status: 'COMING_UP' }], 'UNKNOWN')
    expect(actor.getSnapshot().context.status).toBe('UNKNOWN')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(actor.getSnapshot().context.status).toBe('COMING_UP')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(2)
  })

  it('makes no request after the actor stops, and aborts the one in flight', async () => {
    const { actor, requests } = start(['hang'])
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests).toHaveLength(1)
    actor.stop()
    expect(requests[0].signal.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requests).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})
