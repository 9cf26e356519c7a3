import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { connectingMachine } from '../../machines/connecting.machine'
import { connectingActors } from '../../src/api/live/lifecycle'
import { ConnectingPage } from '../../src/views/project/lifecycle/ConnectingPage'
import { makeProject } from '../fixtures'
import { BAD_ANSWERS, json, stubFetch, text, useFakeClock, type Answer } from '../fakePlatform'

const TEST_PATH = /\/platform\/projects\/[a-z]{20}\/(live|api\/rest)$/
const stubEndpoint = (answers: Answer[]) => {
  const { calls, paths } = stubFetch({ polled: TEST_PATH, answers, fallback: json({ message: 'The project API server is offline' }, 503) })
  return { calls, paths }
}

function renderConnecting(kpsVersion: string | null) {
  const markOnline = vi.fn()
  const refreshProject = vi.fn()
  const actor = createActor(connectingMachine.provide({ actors: connectingActors, actions: { markOnline, refreshProject } }), {
    input: { project: makeProject({ postgrestStatus: 'OFFLINE', kpsVersion }) },
  }).start()
  render(<ConnectingPage actor={actor} projectName="Analytics" />)
  return { actor, markOnline, refreshProject }
}

useFakeClock(0)

const cases: Array<[string, Answer]> = [
  ...BAD_ANSWERS.map(([name, answer]): [string, Answer] => [name.replace('a body', 'a health body'), answer]),
  ['a health body that fails its schema', json({ status: 'starting' })],
  ['a 503', json({ message: 'The project API server is offline' }, 503)],
]

describe('connecting screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up, testing every 4 s, and never reports success', async (_, bad) => {
    const { calls, paths } = stubEndpoint([bad, bad, bad])
    const { markOnline, refreshProject } = renderConnecting('kps-v3.8.6')
    await act(() => vi.advanceTimersByTimeAsync(16_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Connecting to project' })).toBeInTheDocument()
    // Whatever the answer, even none, the tests go out on the 4 s beat.
    expect(calls).toEqual([4_000, 8_000, 12_000, 16_000])
    expect(new Set(paths.map((path) => path.split('/').pop()))).toEqual(new Set(['live']))
    expect(markOnline).not.toHaveBeenCalled()
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('a REST schema that is not an OpenAPI document does not count as connected (older gateway)', async () => {
    const { paths } = stubEndpoint([json({ hello: 'world' }), json({ message: 'Bad gateway' }, 502)])
    const { markOnline } = renderConnecting('kps-v3.1.0')
    await act(() => vi.advanceTimersByTimeAsync(8_000))
    expect(paths.map((path) => path.split('/').slice(-2).join('/'))).toEqual(['api/rest', 'api/rest'])
    expect(markOnline).not.toHaveBeenCalled()
  })

  it('recovers as soon as the health endpoint answers', async () => {
    const { calls } = stubEndpoint([json({}, 500), text('nope'), json({ status: 'ok' })])
    const { actor, markOnline, refreshProject } = renderConnecting('kps-v3.8.6')
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(calls).toEqual([4_000, 8_000, 12_000])
    expect(markOnline).toHaveBeenCalledTimes(1)
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })
})
