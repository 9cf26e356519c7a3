/** The pausing and restoring screens under bad answers to their polls (through the real HTTP client and contracts). */
import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { pausingMachine } from '../../machines/pausing.machine'
import { restoringMachine } from '../../machines/restoring.machine'
import { pausingActors, restoringActors } from '../../src/api/live/lifecycle'
import { PausingPage } from '../../src/views/project/lifecycle/PausingPage'
import { RestoringPage } from '../../src/views/project/lifecycle/RestoringPage'
import { REF } from '../fixtures'
import { BAD_ANSWERS, json, stubFetch, text, useFakeClock, type Answer } from '../fakePlatform'

const STATUS_PATH = /\/platform\/projects\/[a-z]{20}\/status$/
const stubStatusEndpoint = (answers: Answer[], fallback: Answer) => stubFetch({ polled: STATUS_PATH, answers, fallback }).calls

useFakeClock(0)

const cases: Array<[string, Answer]> = [
  ...BAD_ANSWERS,
  ['a body that fails its schema', json({ status: 'ALMOST_DONE' })],
  ['a body of the wrong shape', json([{ state: 'INACTIVE' }])],
]

describe('pausing screen under bad answers', () => {
  it.each(cases)('%s keeps the screen up, polling every 2 s after the first 4 s, and never finishes', async (_, bad) => {
    const calls = stubStatusEndpoint([bad, bad, bad], json({ status: 'PAUSING' }))
    const refreshProject = vi.fn()
    const actor = createActor(pausingMachine.provide({ actors: pausingActors, actions: { refreshProject } }), { input: { ref: REF, since: new Date(0).toISOString() } }).start()
    render(<PausingPage actor={actor} projectName="Analytics" />)
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(screen.getByRole('heading', { level: 1, name: 'Pausing project' })).toBeInTheDocument()
    expect(calls).toEqual([4_000, 6_000, 8_000, 10_000, 12_000])
    expect(refreshProject).not.toHaveBeenCalled()
    actor.stop()
  })

  it('ends as soon as the server reports INACTIVE after bad answers', async () => {
    const calls = stubStatusEndpoint([json({}, 500), text('nope'), json({ status: 'INACTIVE' })], json({ status: 'PAUSING' }))
    const refreshProject = vi.fn()
    const actor = createActor(pausingMachine.provide({ actors: pausingActors, actions: { refreshProject } }), { input: { ref: REF, since: new Date(0).toISOString() } }).start()
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
    const actor = createActor(restoringMachine.provide({ actors: restoringActors, actions: { refreshProject } }), {
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
    const calls = stubStatusEndpoint([json({}, 500), text('nope'), json({ status: 'ACTIVE_HEALTHY' })], json({ status: 'RESTORING' }))
    const actor = createActor(restoringMachine.provide({ actors: restoringActors }), { input: { ref: REF, status: 'RESTORING', since: new Date(0).toISOString() } }).start()
    render(<RestoringPage actor={actor} projectName="Analytics" />)
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    expect(screen.queryByText('Restoration complete!')).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    expect(calls).toEqual([0, 4_000, 8_000])
    expect(screen.getByRole('heading', { level: 1, name: 'Restoration complete!' })).toBeInTheDocument()
  })
})
