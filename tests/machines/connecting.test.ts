import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { connectingMachine, connectivityEndpoint, type ConnectivityEndpoint } from '../../machines/connecting.machine'
import type { Project } from '../../src/contracts/projects'
import { makeProject } from '../fixtures'
import { scriptedEndpoint, slow, usePathClock } from '../../model-tests/fakes'

type Reply = 'ok' | Error | 'hang'

function start(replies: Reply[], project: Project = makeProject({ postgrestStatus: 'OFFLINE' })) {
  const endpoint = scriptedEndpoint<unknown, { ref: string; endpoint: ConnectivityEndpoint }>(
    replies.map((reply) => (reply === 'ok' ? { status: 'ok' } : reply)),
    new Error('503'),
  )
  const markOnline = vi.fn()
  const refreshProject = vi.fn()
  const actor = createActor(
    connectingMachine.provide({
      actors: { testConnectivity: endpoint.actor },
      actions: { markOnline: (_, params) => markOnline(params), refreshProject },
    }),
    { input: { project } },
  ).start()
  return { actor, requests: endpoint.calls, markOnline, refreshProject }
}

usePathClock()

describe('connectivityEndpoint', () => {
  it.each([
    ['kps-v3.8.6', 'live'],
    ['kps-v3.8.7', 'live'],
    ['kps-v3.9.0', 'live'],
    ['kps-v4.0.0', 'live'],
    ['kps-v3.8.5', 'rest'],
    ['kps-v3.1.0', 'rest'],
    ['kps-v2.99.99', 'rest'],
    [null, 'rest'],
    ['garbage', 'rest'],
  ] as const)('%s → %s', (version, endpoint) => {
    expect(connectivityEndpoint(version)).toBe(endpoint)
  })
})

describe('connecting machine', () => {
  it('tests connectivity every 4 seconds with the health endpoint for kps-v3.8.6', async () => {
    const { requests } = start([])
    await vi.advanceTimersByTimeAsync(16_000)
    expect(requests.map((r) => r.at)).toEqual([4_000, 8_000, 12_000, 16_000])
    expect(new Set(requests.map((r) => r.input.endpoint))).toEqual(new Set(['live']))
  })

  it('uses the REST schema endpoint for older gateways and when the version is unknown', async () => {
    const old = start([], makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: 'kps-v3.1.0' }))
    const unknown = start([], makeProject({ postgrestStatus: 'OFFLINE', kpsVersion: null }))
    await vi.advanceTimersByTimeAsync(4_000)
    expect(old.requests[0].input.endpoint).toBe('rest')
    expect(unknown.requests[0].input.endpoint).toBe('rest')
  })

  it('gives a test 2 seconds, aborts it, and never overlaps tests; the next goes out on the beat', async () => {
    const { actor, requests } = start(['hang'])
    await vi.advanceTimersByTimeAsync(5_999)
    expect(requests[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests[0].signal.aborted).toBe(true)
    expect(actor.getSnapshot().value).toEqual({ testing: { polling: 'settled' } })
    await vi.advanceTimersByTimeAsync(1_999)
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests.map((r) => r.at)).toEqual([4_000, 8_000])
  })

  it('tests every 4 s exactly from the previous test\'s start, however slow or lost the answers', async () => {
    const endpoint = scriptedEndpoint<unknown, { ref: string; endpoint: ConnectivityEndpoint }>([slow(1_500, new Error('503')), 'hang', slow(1_999, new Error('503')), slow(2_500, 'ok')], new Error('503'))
    const actor = createActor(connectingMachine.provide({ actors: { testConnectivity: endpoint.actor } }), {
      input: { project: makeProject({ postgrestStatus: 'OFFLINE' }) },
    }).start()
    await vi.advanceTimersByTimeAsync(24_000)
    expect(endpoint.requests).toEqual([4_000, 8_000, 12_000, 16_000, 20_000, 24_000])
    expect(endpoint.aborted).toEqual([10_000, 18_000])
    expect(actor.getSnapshot().status).toBe('active')
    actor.stop()
  })

  it('on success stops, marks the project ONLINE and asks for a refresh', async () => {
    const { actor, requests, markOnline, refreshProject } = start([new Error('503'), 'ok'])
    await vi.advanceTimersByTimeAsync(8_000)
    expect(actor.getSnapshot().status).toBe('done')
    expect(markOnline).toHaveBeenCalledTimes(1)
    expect(markOnline.mock.calls[0][0].project).toMatchObject({ ref: 'abcdefghijklmnopqrst', postgrestStatus: 'ONLINE' })
    expect(refreshProject).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(2)
  })

  it('without a REST URL there is nothing to test: no requests', async () => {
    const { actor, requests } = start([], makeProject({ postgrestStatus: 'OFFLINE', restUrl: '' }))
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(0)
    expect(actor.getSnapshot().value).toBe('noRestUrl')
    expect(actor.getSnapshot().children.elapsed).toBeDefined()
  })
})
