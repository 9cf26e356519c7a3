/** The live actors of the organization pages: the organization and its subscription, read together. */
import { fromPromise } from 'xstate'
import { organizationMachine } from '../../../machines/organization.machine'
import { getOrganization, getSubscription } from '../calls/organizations'

export const liveOrganizationMachine = organizationMachine.provide({
  actors: {
    fetchOrganization: fromPromise(async ({ input, signal }: { input: { slug: string }; signal: AbortSignal }) => {
      const [organization, subscription] = await Promise.all([getOrganization(input.slug, { signal }), getSubscription(input.slug, { signal })])
      return { organization, subscription }
    }),
  },
})
