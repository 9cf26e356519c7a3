import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveBuildingMachine } from '../../src/api/live/building'
import { BuildingPage } from '../../src/views/project/lifecycle/BuildingPage'
import { REF } from '../fixtures'

type Answer = () => Promise<Response>
const json = (body: unknown, status = 200) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))

/** A status endpoint answering from a script, through the real HTTP client (ky) and contract parsing. */
function stubStatusEndpoint(answers: Answer[]) {
  const calls: number[] = []
  vi.stubGlobal('fetch', (input: Request) => {
    calls.push(Date.now())
    const answer = answers.shift() ?? json({ status: 'COMING_UP' })
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return calls
}

function renderBuilding() {
  const refreshProject = vi.fn()
  const actor = createActor(liveBuildingMachine.provide({ actions: { refreshProject } }), {
    input: { ref: REF, status: 'COMING_UP', since: new Date(0).toISOString() },
  }).start()
  render(<BuildingPage actor={actor} projectName="Analytics" />)
  return { actor, refreshProject }
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const cases: Array<[string, Answer]> = [
  ['a body that is not JSON', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 200 }))],
  ['a body that fails its schema', json({ status: 'ALMOST_READY' })],
  ['a body of the wrong shape', json([{ state: 'ACTIVE_HEALTHY' }])],
  ['a 500', json({ message: 'Internal server error' }, 500)],
  ['a 500 that is not JSON', () => Promise.resolve(new Response('oops', { status: 500 }))],
  ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ['a time-out', () => new Promise<Response>(() => {})],
]

describe('building screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up and polling every 4 s', async (_, bad) => {
    const calls = stubStatusEndpoint([bad, bad, json({ status: 'COMING_UP' })])
    const { refreshProject } = renderBuilding()
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    await act(() => vi.advanceTimersByTimeAsync(2_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Setting up project' })).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Setting up project' })).toBeInTheDocument()
    // A time-out moves the next poll by the 2 s the request was given; other failures answer at once.
    expect(calls.length).toBeGreaterThanOrEqual(3)
    expect(calls[0]).toBe(4_000)
    expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(4_000)
    expect(calls[1] - calls[0]).toBeLessThanOrEqual(6_000)
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('recovers after bad answers as soon as the project is healthy', async () => {
    const calls = stubStatusEndpoint([json({}, 500), () => Promise.resolve(new Response('nope')), json({ status: 'ACTIVE_HEALTHY' })])
    const { actor, refreshProject } = renderBuilding()
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(calls).toEqual([4_000, 8_000, 12_000])
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })
})
