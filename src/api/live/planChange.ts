/** The live actors of the plan panel: the organization, its subscription, the plans and the permissions; the change. */
import { fromPromise } from 'xstate'
import { planChangeMachine } from '../../../machines/planChange.machine'
import type { SelectablePlanId } from '../../contracts/orgSettings'
import { getOrganization, getSubscription } from '../calls/organizations'
import { changePlan, listPlans } from '../calls/orgSettings'
import { getOrganizationPermissions } from '../calls/session'

type Signal = { signal: AbortSignal }

export const livePlanChangeMachine = planChangeMachine.provide({
  actors: {
    fetchBilling: fromPromise(async ({ input, signal }: Signal & { input: { slug: string } }) => {
      const [organization, subscription, { plans }, permissions] = await Promise.all([
        getOrganization(input.slug, { signal }),
        getSubscription(input.slug, { signal }),
        listPlans(input.slug, { signal }),
        getOrganizationPermissions(input.slug, { signal }),
      ])
      return { organization, subscription, plans, permissions }
    }),
    changePlan: fromPromise(({ input, signal }: Signal & { input: { slug: string; plan: SelectablePlanId } }) =>
      changePlan(input.slug, { plan: input.plan }, { signal }),
    ),
  },
})
