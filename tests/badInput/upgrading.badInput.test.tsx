import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { upgradingMachine } from '../../machines/upgrading.machine'
import { upgradingActors } from '../../src/api/live/lifecycle'
import { UpgradingPage } from '../../src/views/project/lifecycle/UpgradingPage'
import { REF } from '../fixtures'
import { BAD_ANSWERS, json, stubFetch, text, useFakeClock, type Answer } from '../fakePlatform'

const SINCE = '2026-11-21T10:00:00.000Z'
const wire = (status: number, progress = '3_detached_volume_from_upgraded_instance') => ({
  databaseUpgradeStatus: { initiated_at: SINCE, latest_status_at: SINCE, target_version: 17, status, progress },
})

const STATUS_PATH = /\/v1\/projects\/[a-z]{20}\/upgrade\/status$/
/** The upgrade status endpoint answers from a script; the eligibility read (after an upgrade) fails. */
const stubStatusEndpoint = (answers: Answer[]) =>
  stubFetch({ polled: STATUS_PATH, answers, fallback: json(wire(0)), fixed: [[/\/upgrade\/eligibility$/, text('{}', 500)]] }).calls

function renderUpgrading() {
  const refreshProject = vi.fn()
  const actor = createActor(upgradingMachine.provide({ actors: upgradingActors, actions: { refreshProject } }), { input: { ref: REF, since: SINCE } }).start()
  render(<UpgradingPage actor={actor} projectName="Analytics" />)
  return { actor, refreshProject }
}

useFakeClock(Date.parse(SINCE) + 1_000)

const cases: Array<[string, Answer]> = [
  ...BAD_ANSWERS,
  ['a status number outside the mapping', json(wire(7))],
  ['a progress outside the contract', json(wire(1, '11_done'))],
  ['a body of the wrong shape', json([{ status: 'upgraded' }])],
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
    // Whatever the answer, even none, the reads go out on the 5 s beat.
    expect(calls.map((at) => at - t0)).toEqual([0, 5_000, 10_000, 15_000, 20_000])
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('recovers after bad answers: the steps follow the next good status', async () => {
    const calls = stubStatusEndpoint([json({}, 500), text('nope'), json(wire(0))])
    renderUpgrading()
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(calls).toHaveLength(3)
    expect(screen.getAllByText('Completed')).toHaveLength(3)
    expect(screen.getByText('In progress')).toBeInTheDocument()
  })
})
