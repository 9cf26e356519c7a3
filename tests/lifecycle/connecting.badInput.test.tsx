import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveConnectingMachine } from '../../src/api/live/connecting'
import { ConnectingPage } from '../../src/views/project/lifecycle/ConnectingPage'
import { makeProject } from '../fixtures'

type Answer = () => Promise<Response>
const json = (body: unknown, status = 200) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))

function stubEndpoint(answers: Answer[]) {
  const calls: Array<{ at: number; path: string }> = []
  vi.stubGlobal('fetch', (input: Request) => {
    calls.push({ at: Date.now(), path: new URL(input.url).pathname })
    const answer = answers.shift() ?? json({ message: 'The project API server is offline' }, 503)
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return calls
}

function renderConnecting(kpsVersion: string | null) {
  const markOnline = vi.fn()
  const refreshProject = vi.fn()
  const actor = createActor(liveConnectingMachine.provide({ actions: { markOnline, refreshProject } }), {
    input: { project: makeProject({ postgrestStatus: 'OFFLINE', kpsVersion }) },
  }).start()
  render(<ConnectingPage actor={actor} projectName="Analytics" />)
  return { actor, markOnline, refreshProject }
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const cases: Array<[string, Answer]> = [
  ['a health body that is not JSON', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 200 }))],
  ['a health body that fails its schema', json({ status: 'starting' })],
  ['a 500', json({ message: 'Internal server error' }, 500)],
  ['a 503', json({ message: 'The project API server is offline' }, 503)],
  ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ['a time-out', () => new Promise<Response>(() => {})],
]

describe('connecting screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up, testing every 4 s, and never reports success', async (_, bad) => {
    const calls = stubEndpoint([bad, bad, bad])
    const { markOnline, refreshProject } = renderConnecting('kps-v3.8.6')
    await act(() => vi.advanceTimersByTimeAsync(16_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Connecting to project' })).toBeInTheDocument()
    expect(calls.length).toBeGreaterThanOrEqual(3)
    expect(calls[0].at).toBe(4_000)
    for (let i = 1; i < calls.length; i++) expect([4_000, 6_000]).toContain(calls[i].at - calls[i - 1].at)
    expect(new Set(calls.map((c) => c.path.split('/').pop()))).toEqual(new Set(['live']))
    expect(markOnline).not.toHaveBeenCalled()
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('a REST schema that is not an OpenAPI document does not count as connected (older gateway)', async () => {
    const calls = stubEndpoint([json({ hello: 'world' }), json({ message: 'Bad gateway' }, 502)])
    const { markOnline } = renderConnecting('kps-v3.1.0')
    await act(() => vi.advanceTimersByTimeAsync(8_000))
    expect(calls.map((c) => c.path.split('/').slice(-2).join('/'))).toEqual(['api/rest', 'api/rest'])
    expect(markOnline).not.toHaveBeenCalled()
  })

  it('recovers as soon as the health endpoint answers', async () => {
    const calls = stubEndpoint([json({}, 500), () => Promise.resolve(new Response('nope')), json({ status: 'ok' })])
    const { actor, markOnline, refreshProject } = renderConnecting('kps-v3.8.6')
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(calls.map((c) => c.at)).toEqual([4_000, 8_000, 12_000])
    expect(markOnline).toHaveBeenCalledTimes(1)
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })
})
