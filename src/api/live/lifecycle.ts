/**
 * The live lifecycle flows as the project status machine's children (building, upgrading, connecting, paused,
 * pausing, restoring): one chunk, loaded only for a project that may show one of their screens (./projects.ts).
 * Each flow's `…Actors` are what it reads: its child below runs with them, and so do the tests that run the flow's
 * machine on its own.
 */
import { fromPromise } from 'xstate'
import { buildingChildMachine } from '../../../machines/building.machine'
import { connectingChildMachine, type ConnectivityEndpoint } from '../../../machines/connecting.machine'
import type { LifecycleChildren } from '../../../machines/lifecycleChildren'
import { pausedChildMachine, type RestoreContext } from '../../../machines/paused.machine'
import { pausingChildMachine } from '../../../machines/pausing.machine'
import { restoringChildMachine } from '../../../machines/restoring.machine'
import { upgradingChildMachine } from '../../../machines/upgrading.machine'
import { getMembersReachedFreeProjectLimit, getSubscription } from '../calls/organizations'
import { getRestoreStatus, restoreProject } from '../calls/pause'
import { getProjectLive, getProjectStatus } from '../calls/projects'
import { getProjectRestSchema } from '../calls/rest'
import { getOrganizationPermissions } from '../calls/session'
import { getUpgradeEligibility, getUpgradeStatus } from '../calls/upgrade'

type Signal = { signal: AbortSignal }

/** The project status read that the building, pausing and restoring flows poll. */
export const fetchProjectStatus = fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) =>
  getProjectStatus(input.ref, { signal }),
)

/** The building flow: the project status it polls. */
export const buildingActors = { fetchProjectStatus }

/** The pausing flow: the project status it polls. */
export const pausingActors = { fetchProjectStatus }

/** The restoring flow: the project status it polls and the recorded failure of a restore. */
export const restoringActors = {
  fetchProjectStatus,
  fetchRestoreStatus: fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => getRestoreStatus(input.ref, { signal })),
}

/** The paused flow: what a restore depends on, and the restore itself. */
export const pausedActors = {
  fetchRestoreContext: fromPromise(async ({ input, signal }: Signal & { input: { organizationSlug: string } }): Promise<RestoreContext> => {
    const [permissions, subscription, membersReachedLimit] = await Promise.all([
      getOrganizationPermissions(input.organizationSlug, { signal }),
      getSubscription(input.organizationSlug, { signal }),
      getMembersReachedFreeProjectLimit(input.organizationSlug, { signal }),
    ])
    return { permissions, plan: subscription.plan.id, membersReachedLimit }
  }),
  restoreProject: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => restoreProject(input.ref, { signal })),
}

/** The upgrading flow: the upgrade status it polls and the eligibility read once upgraded. */
export const upgradingActors = {
  fetchUpgradeStatus: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeStatus(input.ref, { signal })),
  fetchEligibility: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeEligibility(input.ref, { signal })),
}

/** The connecting flow: the connectivity test of the project's API server. */
export const connectingActors = {
  testConnectivity: fromPromise(
    ({ input, signal }: { input: { ref: string; endpoint: ConnectivityEndpoint }; signal: AbortSignal }): Promise<unknown> =>
      input.endpoint === 'live' ? getProjectLive(input.ref, { signal }) : getProjectRestSchema(input.ref, { signal }),
  ),
}

export const liveBuildingChildMachine = buildingChildMachine.provide({ actors: buildingActors })
export const livePausingChildMachine = pausingChildMachine.provide({ actors: pausingActors })
export const liveRestoringChildMachine = restoringChildMachine.provide({ actors: restoringActors })
export const livePausedChildMachine = pausedChildMachine.provide({ actors: pausedActors })
export const liveUpgradingChildMachine = upgradingChildMachine.provide({ actors: upgradingActors })
export const liveConnectingChildMachine = connectingChildMachine.provide({ actors: connectingActors })

export const liveLifecycleChildren: LifecycleChildren = {
  building: liveBuildingChildMachine,
  upgrading: liveUpgradingChildMachine,
  connecting: liveConnectingChildMachine,
  paused: livePausedChildMachine,
  pausing: livePausingChildMachine,
  restoring: liveRestoringChildMachine,
}
