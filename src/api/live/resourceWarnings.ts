/** The live actors of the resource warnings and usage of the open project. */
import { fromPromise } from 'xstate'
import { resourceWarningsMachine, type UsageSummary } from '../../../machines/resourceWarnings.machine'
import { getOrgUsage, getSubscription } from '../calls/organizations'
import { getResourceWarnings } from '../calls/projects'

type Signal = { signal: AbortSignal }

/** The current month up to now: the usage the badge compares with the plan. */
export function billingPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  return { start: start.toISOString(), end: now.toISOString() }
}

export const liveResourceWarningsMachine = resourceWarningsMachine.provide({
  actors: {
    fetchResourceWarnings: fromPromise(({ signal }: Signal & { input: void }) => getResourceWarnings({ signal })),
    fetchUsageSummary: fromPromise(async ({ input, signal }: Signal & { input: { organizationSlug: string } }): Promise<UsageSummary> => {
      const [subscription, usage] = await Promise.all([
        getSubscription(input.organizationSlug, { signal }),
        getOrgUsage(input.organizationSlug, billingPeriod(), { signal }),
      ])
      return { subscription, usages: usage.usages }
    }),
  },
})
