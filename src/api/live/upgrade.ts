/** The live actors of the 'Upgrade Postgres' action: eligibility with the person's permission, and the upgrade call. */
import { fromPromise } from 'xstate'
import { upgradeActionMachine, type UpgradeContext } from '../../../machines/upgradeAction.machine'
import { getUpgradeEligibility, startUpgrade } from '../calls/upgrade'
import { getOrganizationPermissions } from '../calls/session'
import { preloadLifecycleFlows } from './projects'

type Signal = { signal: AbortSignal }

export const liveUpgradeActionMachine = upgradeActionMachine.provide({
  actions: {
    prepareForUpgrading: preloadLifecycleFlows,
  },
  actors: {
    fetchUpgradeContext: fromPromise(
      async ({ input, signal }: Signal & { input: { ref: string; organizationSlug: string } }): Promise<UpgradeContext> => {
        const [eligibility, permissions] = await Promise.all([
          getUpgradeEligibility(input.ref, { signal }),
          getOrganizationPermissions(input.organizationSlug, { signal }),
        ])
        return { eligibility, canUpgrade: permissions.includes('projects:write') }
      },
    ),
    requestUpgrade: fromPromise(({ input, signal }: Signal & { input: { ref: string; targetVersion: string } }) =>
      startUpgrade(input.ref, { target_version: input.targetVersion, release_channel: 'ga' }, { signal }),
    ),
  },
})
