import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { upgradingMachine } from '../machines/upgrading.machine'
import { liveUpgradingMachine } from '../src/api/live/upgrading'
import { UPGRADE_STATUS_CODES, type DatabaseUpgradeStatus } from '../src/contracts/upgrade'
import { UpgradingPage } from '../src/views/project/lifecycle/UpgradingPage'
import { REF } from '../tests/fixtures'
import { createControlledFetch, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const STATUS_URL = /\/v1\/projects\/[a-z]{20}\/upgrade\/status$/
const ELIGIBILITY_URL = /\/v1\/projects\/[a-z]{20}\/upgrade\/eligibility$/
const SINCE = '2026-11-21T10:00:00.000Z'

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
const ELIGIBILITY = {
  eligible: false,
  current_app_version: 'supabase-postgres-17.4.1.042',
  current_app_version_release_channel: 'ga',
  latest_app_version: 'supabase-postgres-17.4.1.042',
  target_upgrade_versions: [],
  duration_estimate_hours: 1,
  legacy_auth_custom_roles: [],
  objects_to_be_dropped: [],
  unsupported_extensions: [],
  user_defined_objects_in_internal_schemas: [],
  validation_errors: [],
  warnings: [],
}

const model = modelOf(upgradingMachine, {
  input: { ref: REF, since: SINCE },
  events: (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.matches({ running: 'waiting' })) return [{ type: 'xstate.after.pollInterval.upgrading.running.waiting' }]
    if (snapshot.matches({ running: 'polling' })) {
      return [
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({}) } as EventObject,
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({ status: 'upgraded', progress: '8_attached_volume_to_upgraded_instance' }) } as EventObject,
        { type: 'xstate.done.actor.fetchUpgradeStatus', output: upgrade({ status: 'failed', progress: '2_launched_upgraded_instance', error: '2_volume_detachchment_from_upgraded_instance_failed' }) } as EventObject,
        { type: 'xstate.error.actor.fetchUpgradeStatus', error: new Error('Request failed with status 500') } as EventObject,
        { type: 'xstate.after.requestTimeout.upgrading.running.polling' },
      ]
    }
    if (snapshot.matches('upgraded')) {
      return [
        { type: 'xstate.done.actor.fetchEligibility', output: ELIGIBILITY } as EventObject,
        { type: 'xstate.error.actor.fetchEligibility', error: new Error('Request failed with status 500') } as EventObject,
        { type: 'project.return' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'project.return' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

let server: ReturnType<typeof createControlledFetch>
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse(SINCE) + 5_000 })
  server = createControlledFetch()
  vi.stubGlobal('fetch', server.fetch)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

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
      const actor = createActor(liveUpgradingMachine.provide({ actions: { refreshProject } }), { input: { ref: REF, since: SINCE } })
      actor.start()
      render(<UpgradingPage actor={actor} projectName="Analytics" />)
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
          'running.polling': (state) => {
            running(state)
            expect(server.isPending(STATUS_URL)).toBe(true)
          },
          'running.waiting': (state) => {
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
          'xstate.after.pollInterval.upgrading.running.waiting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(5_000))
          },
          'xstate.after.requestTimeout.upgrading.running.polling': async () => {
            await act(() => vi.advanceTimersByTimeAsync(3_000))
          },
          'xstate.done.actor.fetchUpgradeStatus': async (step) => {
            server.json(STATUS_URL, toWire((step.event as unknown as { output: { databaseUpgradeStatus: DatabaseUpgradeStatus } }).output))
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.error.actor.fetchUpgradeStatus': async () => {
            server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.done.actor.fetchEligibility': async () => {
            server.json(ELIGIBILITY_URL, ELIGIBILITY)
            await act(() => vi.advanceTimersByTimeAsync(0))
            expect(screen.getByText('supabase-postgres-17.4.1.042')).toBeInTheDocument()
          },
          'xstate.error.actor.fetchEligibility': async () => {
            server.json(ELIGIBILITY_URL, { message: 'Internal server error' }, 500)
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'project.return': async () => {
            const calls = refreshProject.mock.calls.length
            fireEvent.click(screen.getByRole('button', { name: 'Return to project' }))
            expect(refreshProject).toHaveBeenCalledTimes(calls + 1)
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
