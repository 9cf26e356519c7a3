/** The live actors of the paused flow: what a restore depends on, and the restore itself. */
import { fromPromise } from 'xstate'
import { pausedChildMachine, type RestoreContext } from '../../../machines/paused.machine'
import { restoreProject } from '../calls/pause'
import { getMembersReachedFreeProjectLimit, getSubscription } from '../calls/organizations'
import { getOrganizationPermissions } from '../calls/session'

type Signal = { signal: AbortSignal }

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
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

export const livePausedChildMachine = pausedChildMachine.provide({ actors: pausedActors })
