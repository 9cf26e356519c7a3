/**
 * The live actors of an organization's settings: /org/{slug}/general (the organization with the person's fresh
 * permissions, and the save), the plan panel (the organization, its subscription, the plans and the permissions; the
 * change) and the 'Supabase AI Settings' dialog (the person's setting for a project, read and saved).
 */
import { fromPromise } from 'xstate'
import { aiSettingsMachine } from '../../../machines/aiSettings.machine'
import { organizationSettingsMachine } from '../../../machines/organizationSettings.machine'
import { planChangeMachine } from '../../../machines/planChange.machine'
import type { SelectablePlanId, UpdateOrganizationBody } from '../../contracts/orgSettings'
import { getOrganization, getSubscription } from '../calls/organizations'
import { changePlan, getAiSettings, listPlans, updateAiSettings, updateOrganization } from '../calls/orgSettings'
import { getOrganizationPermissions } from '../calls/session'

type Signal = { signal: AbortSignal }

export const liveOrganizationSettingsMachine = organizationSettingsMachine.provide({
  actors: {
    fetchOrganizationSettings: fromPromise(async ({ input, signal }: Signal & { input: { slug: string } }) => {
      const [organization, permissions] = await Promise.all([getOrganization(input.slug, { signal }), getOrganizationPermissions(input.slug, { signal })])
      return { organization, permissions }
    }),
    saveOrganization: fromPromise(({ input, signal }: Signal & { input: { slug: string; body: UpdateOrganizationBody } }) =>
      updateOrganization(input.slug, input.body, { signal }),
    ),
  },
})

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

export const liveAiSettingsMachine = aiSettingsMachine.provide({
  actors: {
    fetchAiSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getAiSettings(input.ref, { signal })),
    saveAiSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string; send: boolean } }) =>
      updateAiSettings(input.ref, { send_anonymous_schema_metadata: input.send }, { signal }),
    ),
  },
})
