import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { upgradingMachine } from '../machines/upgrading.machine'
import { upgradingActors } from '../src/api/live/lifecycle'
import { UPGRADE_STATUS_CODES, type DatabaseUpgradeStatus } from '../src/contracts/upgrade'
import { UpgradingPage } from '../src/views/project/lifecycle/UpgradingPage'
import { REF } from '../tests/fixtures'
import { type InternalEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'
import { upgradeEligibility } from '../tests/fixtures'

const STATUS_URL = /\/v1\/projects\/[a-z]{20}\/upgrade\/status$/
const ELIGIBILITY_URL = /\/v1\/projects\/[a-z]{20}\/upgrade\/eligibility$/
const SINCE = '2026-11-21T10:00:00.000Z'
/** Spec: the upgrade status read at once, then every 5 s; each read's slot (time-out) is 3 s. */
const BEAT = 5_000
const SLOT = 3_000
/** Every answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 2_500
const BEAT_EDGE: InternalEvent = { type: 'xstate.after.pollInterval.upgrading.running.polling' }

const upgrade = (overrides: Partial<DatabaseUpgradeStatus>): { databaseUpgradeStatus: DatabaseUpgradeStatus } => ({
  databaseUpgradeStatus: {
    initiated_at: SINCE,
    latest_status_at: SINCE,
    target_version: 17,
    status: 'upgrading',
    progress: '4_attached_volume_to_original_instance',
    error: null,
    ...overrides,
  },
})
/** The same status as the server sends it: the status as its number, no nulls. */
function toWire(output: { databaseUpgradeStatus: DatabaseUpgradeStatus }) {
  const { status, error, progress, ...rest } = output.databaseUpgradeStatus
  return { databaseUpgradeStatus: { ...rest, status: UPGRADE_STATUS_CODES[status], progress, ...(error ? { error } : {}) } }
}
const ELIGIBILITY = upgradeEligibility([], 'supabase-postgres-17.4.1.042')

const model = modelOf(upgradingMachine, {
  input: { ref: REF, since: SINCE },
  events: (snapshot) => {
    if (snapshot.matches({ running: { polling: 'settled' } })) return [BEAT_EDGE]
    if (snapshot.matches({ running: { polling: 'requesting' } })) {
      return [
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({}) },
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({ status: 'upgraded', progress: '8_attached_volume_to_upgraded_instance' }) },
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({ status: 'failed', progress: '2_launched_upgraded_instance', error: '2_volume_detachchment_from_upgraded_instance_failed' }) },
        { type: 'xstate.error.actor.fetchUpgradeStatus', error: new Error('Request failed with status 500') },
        { type: 'xstate.after.requestTimeout.upgrading.running.polling.requesting' },
      ]
    }
    if (snapshot.matches('upgraded')) {
      return [
        { type: 'xstate.done.actor.fetchEligibility', output: ELIGIBILITY },
        { type: 'xstate.error.actor.fetchEligibility', error: new Error('Request failed with status 500') },
        { type: 'project.return' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'project.return' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
/** A walk through every outcome of a read, each followed by the next beat: the beat must hold through them all. */
const beatWalk = model.getPathsFromEvents([
  { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({}) },
  BEAT_EDGE,
  { type: 'xstate.after.requestTimeout.upgrading.running.polling.requesting' },
  BEAT_EDGE,
  { type: 'xstate.error.actor.fetchUpgradeStatus', error: new Error('Request failed with status 500') },
  BEAT_EDGE,
  { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({ status: 'upgraded', progress: '8_attached_volume_to_upgraded_instance' }) },
  // From the started machine's snapshot: the graph utilities' getPathsFromEvents does not pass the model's input.
], { fromState: createActor(upgradingMachine, { input: { ref: REF, since: SINCE } }).getSnapshot() })
const paths = [...model.getShortestPaths(), ...beatWalk]

const platform = usePlatform({ now: Date.parse(SINCE) + 5_000 })

const stepStates = () =>
  within(screen.getByRole('list', { name: 'Upgrade steps' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent?.replace(/^.*(Completed|In progress|Pending)$/, '$1'))

describe('upgrading model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(upgradingMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const refreshProject = vi.fn()
      const actor = createActor(upgradingMachine.provide({ actors: upgradingActors, actions: { refreshProject } }), { input: { ref: REF, since: SINCE } })
      actor.start()
      render(<UpgradingPage actor={actor} projectName="Analytics" />)
      const { server } = platform
      const running = (_state: AnyMachineSnapshot) => {
        expect(screen.getByRole('heading', { level: 1, name: 'Upgrading project' })).toBeInTheDocument()
        expect(screen.queryByText('Upgrade completed!')).toBeNull()
        // What the screen shows is what the actor holds (the model's own snapshot may be a shared vertex).
        const progress = actor.getSnapshot().context.upgrade?.progress
        expect(stepStates()).toEqual(
          progress === '4_attached_volume_to_original_instance'
            ? ['Completed', 'Completed', 'Completed', 'Completed', 'In progress', 'Pending', 'Pending', 'Pending']
            : ['In progress', 'Pending', 'Pending', 'Pending', 'Pending', 'Pending', 'Pending', 'Pending'],
        )
        expect(screen.getByText((_, el) => el?.tagName === 'P' && /^Running for \d+ s$/.test(el.textContent ?? ''))).toBeInTheDocument()
      }

      await path.test({
        states: {
          'running.polling.requesting': (state) => {
            running(state)
            expect(server.isPending(STATUS_URL)).toBe(true)
          },
          'running.polling.settled': (state) => {
            running(state)
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          upgraded: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Upgrade completed!' })).toBeInTheDocument()
            expect(screen.getByText(/upgraded to Postgres 17/)).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Return to project' })).toBeEnabled()
            expect(server.isPending(STATUS_URL)).toBe(false)
          },
          failed: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'We ran into an issue while upgrading your project' })).toBeInTheDocument()
            expect(screen.getByText('21 Nov 2026 10:00:00 (UTC)')).toHaveAttribute('title', expect.stringContaining('local time'))
            const href = screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')!
            expect(href).toMatch(/^\/support\/new\?category=Database_unresponsive&ref=[a-z]{20}&subject=/)
            expect(new URL(href, 'http://x').searchParams.get('message')).toContain('2_volume_detachchment_from_upgraded_instance_failed')
            expect(server.pending).toHaveLength(0)
          },
        },
        events: {
          'xstate.after.pollInterval.upgrading.running.polling': () => platform.nextBeat(STATUS_URL, BEAT),
          'xstate.after.requestTimeout.upgrading.running.polling.requesting': () => platform.advance(SLOT),
          'xstate.done.actor.fetchUpgradeStatus': async (step) => {
            await platform.advance(ANSWER_AFTER)
            server.json(STATUS_URL, toWire(outputOf<{ databaseUpgradeStatus: DatabaseUpgradeStatus }>(step)))
            await platform.settle()
          },
          'xstate.error.actor.fetchUpgradeStatus': async () => {
            await platform.advance(ANSWER_AFTER)
            server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await platform.settle()
          },
          'xstate.done.actor.fetchEligibility': async () => {
            server.json(ELIGIBILITY_URL, ELIGIBILITY)
            await platform.settle()
            expect(screen.getByText('supabase-postgres-17.4.1.042')).toBeInTheDocument()
          },
          'xstate.error.actor.fetchEligibility': async () => {
            server.json(ELIGIBILITY_URL, { message: 'Internal server error' }, 500)
            await platform.settle()
          },
          'project.return': async () => {
            const calls = refreshProject.mock.calls.length
            fireEvent.click(screen.getByRole('button', { name: 'Return to project' }))
            expect(refreshProject).toHaveBeenCalledTimes(calls + 1)
          },
        },
      })
      // However late the answers and whatever became of them, the reads went out exactly on the beat.
      platform.expectBeat(STATUS_URL, BEAT, 0)
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
