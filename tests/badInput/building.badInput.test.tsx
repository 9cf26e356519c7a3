import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { buildingMachine } from '../../machines/building.machine'
import { buildingActors } from '../../src/api/live/lifecycle'
import { BuildingPage } from '../../src/views/project/lifecycle/BuildingPage'
import { REF } from '../fixtures'
import { BAD_ANSWERS, json, stubFetch, text, useFakeClock, type Answer } from '../fakePlatform'

const STATUS_PATH = /\/platform\/projects\/[a-z]{20}\/status$/
const stubStatusEndpoint = (answers: Answer[]) => stubFetch({ polled: STATUS_PATH, answers, fallback: json({ status: 'COMING_UP' }) }).calls

function renderBuilding() {
  const refreshProject = vi.fn()
  const actor = createActor(buildingMachine.provide({ actors: buildingActors, actions: { refreshProject } }), {
    input: { ref: REF, status: 'COMING_UP', since: new Date(0).toISOString() },
  }).start()
  render(<BuildingPage actor={actor} projectName="Analytics" />)
  return { actor, refreshProject }
}

useFakeClock(0)

const cases: Array<[string, Answer]> = [
  ...BAD_ANSWERS,
  ['a body that fails its schema', json({ status: 'ALMOST_READY' })],
  ['a body of the wrong shape', json([{ state: 'ACTIVE_HEALTHY' }])],
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
    // Whatever the answer, even none, the polls go out on the 4 s beat.
    expect(calls).toEqual([4_000, 8_000, 12_000, 16_000])
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('recovers after bad answers as soon as the project is healthy', async () => {
    const calls = stubStatusEndpoint([json({}, 500), text('nope'), json({ status: 'ACTIVE_HEALTHY' })])
    const { actor, refreshProject } = renderBuilding()
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(calls).toEqual([4_000, 8_000, 12_000])
    expect(refreshProject).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().status).toBe('done')
  })
})
