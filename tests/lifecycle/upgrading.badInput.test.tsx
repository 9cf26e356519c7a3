import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveUpgradingMachine } from '../../src/api/live/upgrading'
import { UpgradingPage } from '../../src/views/project/lifecycle/UpgradingPage'
import { REF } from '../fixtures'

type Answer = () => Promise<Response>
const json = (body: unknown, status = 200) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
const SINCE = '2026-11-21T10:00:00.000Z'
const wire = (status: number, progress = '3_detached_volume_from_upgraded_instance') => ({
  databaseUpgradeStatus: { initiated_at: SINCE, latest_status_at: SINCE, target_version: 17, status, progress },
})

/** The upgrade status endpoint answering from a script, through the real HTTP client (ky) and contract parsing. */
function stubStatusEndpoint(answers: Answer[]) {
  const calls: number[] = []
  vi.stubGlobal('fetch', (input: Request) => {
    if (/\/upgrade\/eligibility$/.test(new URL(input.url).pathname)) return Promise.resolve(new Response('{}', { status: 500 }))
    calls.push(Date.now())
    const answer = answers.shift() ?? json(wire(0))
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return calls
}

function renderUpgrading() {
  const refreshProject = vi.fn()
  const actor = createActor(liveUpgradingMachine.provide({ actions: { refreshProject } }), { input: { ref: REF, since: SINCE } }).start()
  render(<UpgradingPage actor={actor} projectName="Analytics" />)
  return { actor, refreshProject }
}

beforeEach(() => vi.useFakeTimers({ now: Date.parse(SINCE) + 1_000 }))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const cases: Array<[string, Answer]> = [
  ['a body that is not JSON', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 200 }))],
  ['a status number outside the mapping', json(wire(7))],
  ['a progress outside the contract', json(wire(1, '11_done'))],
  ['a body of the wrong shape', json([{ status: 'upgraded' }])],
  ['a 500', json({ message: 'Internal server error' }, 500)],
  ['a 500 that is not JSON', () => Promise.resolve(new Response('oops', { status: 500 }))],
  ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ['a time-out', () => new Promise<Response>(() => {})],
]

describe('upgrading screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up, polling every 5 s, and never shows success', async (_, bad) => {
    const t0 = Date.now()
    const calls = stubStatusEndpoint([bad, bad, bad])
    const { refreshProject } = renderUpgrading()
    const heading = () => screen.getByRole('heading', { level: 1, name: 'Upgrading project' })
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(heading()).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(20_000))
    expect(heading()).toBeInTheDocument()
    expect(screen.queryByText('Upgrade completed!')).toBeNull()
    expect(screen.queryByText('We ran into an issue while upgrading your project')).toBeNull()
    // A time-out moves the next poll by the 3 s the request was given; other failures answer at once.
    const gaps = calls.slice(1).map((at, i) => at - calls[i])
    expect(calls[0] - t0).toBe(0)
    expect(calls.length).toBeGreaterThanOrEqual(3)
    for (const gap of gaps) expect([5_000, 8_000]).toContain(gap)
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('recovers after bad answers: the steps follow the next good status', async () => {
    const calls = stubStatusEndpoint([json({}, 500), () => Promise.resolve(new Response('nope')), json(wire(0))])
    renderUpgrading()
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(calls).toHaveLength(3)
    expect(screen.getAllByText('Completed')).toHaveLength(3)
    expect(screen.getByText('In progress')).toBeInTheDocument()
  })
})
