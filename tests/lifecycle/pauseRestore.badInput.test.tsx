/** The pausing and restoring screens under bad answers to their polls (through the real HTTP client and contracts). */
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { livePausingMachine } from '../../src/api/live/pausing'
import { liveRestoringMachine } from '../../src/api/live/restoring'
import { PausingPage } from '../../src/views/project/lifecycle/PausingPage'
import { RestoringPage } from '../../src/views/project/lifecycle/RestoringPage'
import { REF } from '../fixtures'

type Answer = () => Promise<Response>
const json = (body: unknown, status = 200) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))

function stubStatusEndpoint(answers: Answer[], fallback: Answer) {
  const calls: number[] = []
  vi.stubGlobal('fetch', (input: Request) => {
    calls.push(Date.now())
    const answer = answers.shift() ?? fallback
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return calls
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const cases: Array<[string, Answer]> = [
  ['a body that is not JSON', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 200 }))],
  ['a body that fails its schema', json({ status: 'ALMOST_DONE' })],
  ['a body of the wrong shape', json([{ state: 'INACTIVE' }])],
  ['a 500', json({ message: 'Internal server error' }, 500)],
  ['a 500 that is not JSON', () => Promise.resolve(new Response('oops', { status: 500 }))],
  ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ['a time-out', () => new Promise<Response>(() => {})],
]

describe('pausing screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up, polling every 2 s after the first 4 s, and never finishes', async (_, bad) => {
    const calls = stubStatusEndpoint([bad, bad, bad], json({ status: 'PAUSING' }))
    const refreshProject = vi.fn()
    const actor = createActor(livePausingMachine.provide({ actions: { refreshProject } }), { input: { ref: REF, since: new Date(0).toISOString() } }).start()
    render(<PausingPage actor={actor} projectName="Analytics" />)
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Pausing project' })).toBeInTheDocument()
    expect(calls).toEqual([4_000, 6_000, 8_000, 10_000, 12_000])
    expect(refreshProject).not.toHaveBeenCalled()
    actor.stop()
  })

  it('ends as soon as the server reports INACTIVE after bad answers', async () => {
    const calls = stubStatusEndpoint([json({}, 500), () => Promise.resolve(new Response('nope')), json({ status: 'INACTIVE' })], json({ status: 'PAUSING' }))
    const refreshProject = vi.fn()
    const actor = createActor(livePausingMachine.provide({ actions: { refreshProject } }), { input: { ref: REF, since: new Date(0).toISOString() } }).start()
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(calls).toEqual([4_000, 6_000, 8_000])
    expect(actor.getSnapshot().status).toBe('done')
    expect(refreshProject).toHaveBeenCalledTimes(1)
  })
})

describe('restoring screen under bad answers', () => {
  it.each(cases)('%s keeps "Restoration in progress" up, polling every 4 s, and never shows success', async (_, bad) => {
    const calls = stubStatusEndpoint([bad, bad, bad], json({ status: 'RESTORING' }))
    const refreshProject = vi.fn()
    const actor = createActor(liveRestoringMachine.provide({ actions: { refreshProject } }), {
      input: { ref: REF, status: 'RESTORING', since: new Date(0).toISOString() },
    }).start()
    render(<RestoringPage actor={actor} projectName="Analytics" />)
    await act(() => vi.advanceTimersByTimeAsync(16_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Restoration in progress' })).toBeInTheDocument()
    expect(screen.queryByText('Restoration complete!')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Return to project' })).toBeNull()
    expect(calls).toEqual([0, 4_000, 8_000, 12_000, 16_000])
    expect(refreshProject).not.toHaveBeenCalled()
    actor.stop()
  })

  it('shows success only after the server reports ACTIVE_HEALTHY following bad answers', async () => {
    const calls = stubStatusEndpoint([json({}, 500), () => Promise.resolve(new Response('nope')), json({ status: 'ACTIVE_HEALTHY' })], json({ status: 'RESTORING' }))
    const actor = createActor(liveRestoringMachine, { input: { ref: REF, status: 'RESTORING', since: new Date(0).toISOString() } }).start()
    render(<RestoringPage actor={actor} projectName="Analytics" />)
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    expect(screen.queryByText('Restoration complete!')).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    expect(calls).toEqual([0, 4_000, 8_000])
    expect(screen.getByRole('heading', { level: 1, name: 'Restoration complete!' })).toBeInTheDocument()
  })
})
