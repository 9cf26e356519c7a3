/** The real I/O of the upgrade slice's machines: upgrading, connecting, the upgrade action and resource warnings. */
import { fromPromise } from 'xstate'
import { connectingChildMachine, connectingMachine, type ConnectivityEndpoint } from '../../machines/connecting.machine'
import { resourceWarningsMachine, type UsageSummary } from '../../machines/resourceWarnings.machine'
import { upgradeActionMachine, type UpgradeContext } from '../../machines/upgradeAction.machine'
import { upgradingChildMachine, upgradingMachine } from '../../machines/upgrading.machine'
import {
  getOrgUsage,
  getOrganizationPermissions,
  getProjectLive,
  getProjectRestSchema,
  getResourceWarnings,
  getSubscription,
  getUpgradeEligibility,
  getUpgradeStatus,
  startUpgrade,
} from './platform'

type Signal = { signal: AbortSignal }

export const fetchUpgradeStatus = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) =>
  getUpgradeStatus(input.ref, { signal }),
)
export const fetchEligibility = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) =>
  getUpgradeEligibility(input.ref, { signal }),
)
export const testConnectivity = fromPromise(
  ({ input, signal }: Signal & { input: { ref: string; endpoint: ConnectivityEndpoint } }): Promise<unknown> =>
    input.endpoint === 'live' ? getProjectLive(input.ref, { signal }) : getProjectRestSchema(input.ref, { signal }),
)

const fetchUpgradeContext = fromPromise(
  async ({ input, signal }: Signal & { input: { ref: string; organizationSlug: string } }): Promise<UpgradeContext> => {
    const [eligibility, permissions] = await Promise.all([
      getUpgradeEligibility(input.ref, { signal }),
      getOrganizationPermissions(input.organizationSlug, { signal }),
    ])
    return { eligibility, canUpgrade: permissions.includes('projects:write') }
  },
)
const requestUpgrade = fromPromise(({ input, signal }: Signal & { input: { ref: string; targetVersion: string } }) =>
  startUpgrade(input.ref, { target_version: input.targetVersion, release_channel: 'ga' }, { signal }),
)

/** The current month up to now: the usage the badge compares with the plan. */
function billingPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  return { start: start.toISOString(), end: now.toISOString() }
}
const fetchUsageSummary = fromPromise(
  async ({ input, signal }: Signal & { input: { organizationSlug: string } }): Promise<UsageSummary> => {
    const [subscription, usage] = await Promise.all([
      getSubscription(input.organizationSlug, { signal }),
      getOrgUsage(input.organizationSlug, billingPeriod(), { signal }),
    ])
    return { subscription, usages: usage.usages }
  },
)
const fetchResourceWarnings = fromPromise(({ signal }: Signal & { input: void }) => getResourceWarnings({ signal }))

export const upgradingActors = { fetchUpgradeStatus, fetchEligibility }
export const liveUpgradingMachine = upgradingMachine.provide({ actors: upgradingActors })
export const liveUpgradingChildMachine = upgradingChildMachine.provide({ actors: upgradingActors })
export const liveConnectingMachine = connectingMachine.provide({ actors: { testConnectivity } })
export const liveConnectingChildMachine = connectingChildMachine.provide({ actors: { testConnectivity } })
export const liveUpgradeActionMachine = upgradeActionMachine.provide({ actors: { fetchUpgradeContext, requestUpgrade } })
export const liveResourceWarningsMachine = resourceWarningsMachine.provide({ actors: { fetchResourceWarnings, fetchUsageSummary } })
/** The project status machine's children of this slice, with their real I/O. */
export const liveUpgradeChildren = { upgrading: liveUpgradingChildMachine, connecting: liveConnectingChildMachine }
