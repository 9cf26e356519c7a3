/** The live actors of /org/{slug}/general: the organization with the person's fresh permissions, and the save. */
import { fromPromise } from 'xstate'
import { organizationSettingsMachine } from '../../../machines/organizationSettings.machine'
import type { UpdateOrganizationBody } from '../../contracts/orgSettings'
import { getOrganization } from '../calls/organizations'
import { updateOrganization } from '../calls/orgSettings'
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
