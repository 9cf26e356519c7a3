/**
 * Opening the upgrade dialog of an eligible project starts loading the lifecycle flows (the upgrading page's code)
 * while the person confirms, so the upgrading page shows as soon as the upgrade is answered. Runs with a module graph
 * of its own: what it checks is whether a chunk has loaded.
 */
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { lifecycleFlowsLoaded } from '../../src/api/live/projects'
import { liveUpgradeActionMachine } from '../../src/api/live/upgrade'
import type { UpgradeContext } from '../../machines/upgradeAction.machine'
import { REF, upgradeEligibility } from '../fixtures'

const ELIGIBLE: UpgradeContext = { canUpgrade: true, eligibility: upgradeEligibility(['17']) }

describe('the upgrade dialog', () => {
  it('loads the upgrading page’s code when it opens, before the upgrade is confirmed', async () => {
    const actor = createActor(
      liveUpgradeActionMachine.provide({ actors: { fetchUpgradeContext: fromPromise(async () => ELIGIBLE) } }),
      { input: { ref: REF, organizationSlug: 'demo-pro' } },
    ).start()
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'))
    expect(lifecycleFlowsLoaded()).toBe(false)
    actor.send({ type: 'upgrade.open' })
    expect(actor.getSnapshot().value).toBe('confirming')
    // The lazy chunk's import: a bound for a busy machine, not a speed claim.
    await vi.waitFor(() => expect(lifecycleFlowsLoaded()).toBe(true), { timeout: 15_000 })
    actor.stop()
  })
})
