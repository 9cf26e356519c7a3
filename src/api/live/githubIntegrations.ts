/** The live actors of the organization's integrations: its installations and connections, a connection deleted. */
import { fromPromise } from 'xstate'
import { githubIntegrationsMachine } from '../../../machines/githubIntegrations.machine'
import { deleteGitHubConnection, listGitHubConnections, listInstallations } from '../calls/github'
import { getOrganization } from '../calls/organizations'

type Signal = { signal: AbortSignal }

export const liveGitHubIntegrationsMachine = githubIntegrationsMachine.provide({
  actors: {
    loadIntegrations: fromPromise(async ({ input, signal }: Signal & { input: { slug: string } }) => {
      const [organization, installations] = await Promise.all([getOrganization(input.slug, { signal }), listInstallations(input.slug, { signal })])
      const { connections } = await listGitHubConnections(organization.id, { signal })
      return { organization: { id: organization.id, slug: organization.slug, name: organization.name }, installations, connections }
    }),
    listConnections: fromPromise(async ({ input, signal }: Signal & { input: { organizationId: number } }) => {
      const { connections } = await listGitHubConnections(input.organizationId, { signal })
      return connections
    }),
    deleteConnection: fromPromise(async ({ input, signal }: Signal & { input: { organizationId: number; connectionId: number } }) => {
      await deleteGitHubConnection(input.connectionId, { signal })
    }),
  },
})
