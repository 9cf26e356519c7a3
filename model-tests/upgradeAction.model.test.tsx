import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { upgradeActionMachine } from '../machines/upgradeAction.machine'
import { liveUpgradeActionMachine } from '../src/api/live/upgrade'
import type { ProjectUpgradeEligibilityResponse } from '../src/contracts/upgrade'
import { UpgradePostgresPanel } from '../src/views/project/settings/UpgradePostgresPanel'
import { REF, upgradeEligibility } from '../tests/fixtures'
import { describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(upgradeActionMachine)

const ELIGIBILITY_URL = /\/v1\/projects\/[a-z]{20}\/upgrade\/eligibility$/
const PERMISSIONS_URL = /\/platform\/profile\/permissions$/
const UPGRADE_URL = /\/v1\/projects\/[a-z]{20}\/upgrade$/

const eligibility = upgradeEligibility
const permissions = (write: boolean) => [
  { organization_id: 2, organization_slug: 'demo-pro', role: write ? 'Owner' : 'Read-only', permissions: write ? ['projects:write'] : [] },
]

type Loaded = { eligibility: ProjectUpgradeEligibilityResponse; canUpgrade: boolean }
const LOADS: Loaded[] = [
  { eligibility: eligibility(['15', '17']), canUpgrade: true },
  { eligibility: eligibility(['17']), canUpgrade: false },
  { eligibility: eligibility([]), canUpgrade: true },
]

const model = modelOf(upgradeActionMachine, {
  input: { ref: REF, organizationSlug: 'demo-pro' },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        ...LOADS.map((output) => (ev({ type: 'xstate.done.actor.fetchUpgradeContext', output }))),
        { type: 'xstate.error.actor.fetchUpgradeContext', error: new Error('Request failed with status 500') },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'upgrade.retry' }]
    if (snapshot.matches('ready')) return [{ type: 'upgrade.open' }]
    if (snapshot.matches('confirming')) {
      return [{ type: 'upgrade.cancel' }, { type: 'upgrade.target', version: '15' }, { type: 'upgrade.confirm' }]
    }
    if (snapshot.matches('starting')) {
      return [
        { type: 'xstate.done.actor.requestUpgrade', output: { tracking_id: 'abc' } },
        { type: 'xstate.error.actor.requestUpgrade', error: new Error('Project is UPGRADING') },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify([snapshot.context.canUpgrade, snapshot.context.targetVersion])),
})
const paths = model.getShortestPaths()

const platform = usePlatform()

describe('upgrade action model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(upgradeActionMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const refreshProject = vi.fn()
      const actor = createActor(liveUpgradeActionMachine.provide({ actions: { refreshProject } }), {
        input: { ref: REF, organizationSlug: 'demo-pro' },
      })
      actor.start()
      render(<UpgradePostgresPanel actor={actor} dbVersion="14.1" />)
      const upgradeButton = () => screen.getByRole('button', { name: 'Upgrade Postgres' })
      const dialog = () => screen.queryByRole('dialog', { name: 'Upgrade Postgres' })

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Checking upgrade eligibility…')
            expect(upgradeButton()).toBeDisabled()
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to check upgrade eligibility')
            expect(upgradeButton()).toBeDisabled()
          },
          ready: () => {
            const { eligibility: e, canUpgrade, error } = actor.getSnapshot().context
            expect(dialog()).toBeNull()
            expect(upgradeButton()).toHaveProperty('disabled', !(canUpgrade && e?.eligible))
            if (e?.eligible) expect(screen.getByText(/is available for this project|are available for this project/)).toBeInTheDocument()
            else expect(screen.getByText('Your project is on the latest Postgres version.')).toBeInTheDocument()
            if (e?.eligible && !canUpgrade) expect(screen.getByText('You need additional permissions to upgrade this project.')).toBeInTheDocument()
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(`Failed to start the upgrade: ${error}`)
          },
          confirming: () => {
            expect(dialog()).not.toBeNull()
            expect(screen.getByLabelText('Target version')).toHaveValue(actor.getSnapshot().context.targetVersion)
            expect(screen.getByRole('button', { name: 'Confirm upgrade' })).toBeEnabled()
          },
          starting: () => {
            expect(screen.getByRole('button', { name: 'Starting upgrade…' })).toBeDisabled()
            expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(platform.server.isPending(UPGRADE_URL)).toBe(true)
          },
          started: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
            expect(screen.getByRole('status')).toHaveTextContent('Upgrade requested.')
          },
        },
        events: {
          'xstate.done.actor.fetchUpgradeContext': async (step) => {
            const output = outputOf<Loaded>(step)
            platform.server.json(ELIGIBILITY_URL, output.eligibility)
            platform.server.json(PERMISSIONS_URL, permissions(output.canUpgrade))
            await platform.settle()
          },
          'xstate.error.actor.fetchUpgradeContext': async () => {
            platform.server.json(ELIGIBILITY_URL, { message: 'Internal server error' }, 500)
            platform.server.json(PERMISSIONS_URL, permissions(true))
            await platform.settle()
          },
          'upgrade.retry': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
          },
          'upgrade.open': async () => {
            fireEvent.click(upgradeButton())
            await platform.settle()
          },
          'upgrade.cancel': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
            await platform.settle()
          },
          'upgrade.target': async () => {
            fireEvent.change(screen.getByLabelText('Target version'), { target: { value: '15' } })
          },
          'upgrade.confirm': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Confirm upgrade' }))
            await platform.settle()
          },
          'xstate.done.actor.requestUpgrade': async () => {
            platform.server.json(UPGRADE_URL, { tracking_id: 'abc' }, 201)
            await platform.settle()
          },
          'xstate.error.actor.requestUpgrade': async () => {
            platform.server.json(UPGRADE_URL, { message: 'Project is UPGRADING: an upgrade can only start when the project is ACTIVE_HEALTHY' }, 409)
            await platform.settle()
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
