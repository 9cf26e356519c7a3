/** The real I/O of the pause and restore flows: each placeholder actor of their machines gets its implementation here. */
import { fromPromise } from 'xstate'
import { pauseProjectMachine } from '../../machines/pauseProject.machine'
import { pausedChildMachine, pausedMachine, type RestoreContext } from '../../machines/paused.machine'
import { pausingChildMachine, pausingMachine } from '../../machines/pausing.machine'
import { restoringChildMachine, restoringMachine } from '../../machines/restoring.machine'
import {
  getMembersReachedFreeProjectLimit,
  getOrganizationPermissions,
  getProjectStatus,
  getRestoreStatus,
  getSubscription,
  pauseProject,
  restoreProject,
} from './platform'

type Signal = { signal: AbortSignal }

const fetchProjectStatus = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getProjectStatus(input.ref, { signal }))

const fetchRestoreContext = fromPromise(
  async ({ input, signal }: Signal & { input: { organizationSlug: string } }): Promise<RestoreContext> => {
    const [permissions, subscription, membersReachedLimit] = await Promise.all([
      getOrganizationPermissions(input.organizationSlug, { signal }),
      getSubscription(input.organizationSlug, { signal }),
      getMembersReachedFreeProjectLimit(input.organizationSlug, { signal }),
    ])
    return { permissions, plan: subscription.plan.id, membersReachedLimit }
  },
)

const pausedActors = {
  fetchRestoreContext,
  restoreProject: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => restoreProject(input.ref, { signal })),
}
const restoringActors = {
  fetchProjectStatus,
  fetchRestoreStatus: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getRestoreStatus(input.ref, { signal })),
}

export const livePausedMachine = pausedMachine.provide({ actors: pausedActors })
export const livePausingMachine = pausingMachine.provide({ actors: { fetchProjectStatus } })
export const liveRestoringMachine = restoringMachine.provide({ actors: restoringActors })

/** The children the project status machine invokes in its paused, pausing and restoring states. */
export const livePauseChildren = {
  paused: pausedChildMachine.provide({ actors: pausedActors }),
  pausing: pausingChildMachine.provide({ actors: { fetchProjectStatus } }),
  restoring: restoringChildMachine.provide({ actors: restoringActors }),
}

export const livePauseProjectMachine = pauseProjectMachine.provide({
  actors: {
    fetchPermissions: fromPromise(({ input, signal }: Signal & { input: { organizationSlug: string } }) =>
      getOrganizationPermissions(input.organizationSlug, { signal }),
    ),
    pauseProject: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => {
      await pauseProject(input.ref, { signal })
    }),
  },
})
