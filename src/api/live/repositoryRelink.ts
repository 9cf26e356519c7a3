/**
 * The live actors of the repository linker ('Add GitHub repository'): the organization's repositories, projects and
 * connections, the install popup, and linking (the project's old connection deleted first, then the new one made).
 */
import { fromCallback, fromPromise } from 'xstate'
import { repositoryRelinkMachine, type CreateInput, type LinkerData } from '../../../machines/repositoryRelink.machine'
import type { Connection } from '../../contracts/github'
import {
  createGitHubConnection,
  deleteGitHubConnection,
  getGitHubAuthorization,
  listGitHubConnections,
  listGitHubRepositories,
  listInstallations,
} from '../calls/github'
import { listProjects } from '../calls/projects'
import { openInstallPopup } from './installPopup'

type Signal = { signal: AbortSignal }

/** Authorized by the person, and installed in the organization. */
async function isInstalled(slug: string, signal: AbortSignal) {
  const [authorization, installations] = await Promise.all([getGitHubAuthorization({ signal }), listInstallations(slug, { signal })])
  return authorization !== null && installations.some((installation) => installation.integration.name === 'GitHub')
}

export const liveRepositoryRelinkMachine = repositoryRelinkMachine.provide({
  actors: {
    loadLinker: fromPromise(async ({ input, signal }: Signal & { input: { organizationId: number | null; slug: string } }): Promise<LinkerData> => {
      const organizationId = input.organizationId ?? undefined
      const [installed, repositories, projects, connections] = await Promise.all([
        isInstalled(input.slug, signal),
        listGitHubRepositories(organizationId, { signal }),
        listProjects({ signal }),
        listGitHubConnections(organizationId, { signal }),
      ])
      return {
        installed,
        repositories: repositories.repositories,
        projects: projects.filter((p) => p.organization_slug === input.slug).map((p) => ({ ref: p.ref, name: p.name, parentRef: p.parent_project_ref })),
        connections: connections.connections,
      }
    }),
    checkInstallation: fromPromise(({ input, signal }: Signal & { input: { slug: string } }) => isInstalled(input.slug, signal)),
    watchInstallPopup: fromCallback(({ input, sendBack }: { input: { slug: string }; sendBack: (event: { type: 'install.completed' } | { type: 'install.failed'; error: string }) => void }) =>
      openInstallPopup(
        input.slug,
        () => sendBack({ type: 'install.completed' }),
        (error) => sendBack({ type: 'install.failed', error }),
      ),
    ),
    deleteConnection: fromPromise(async ({ input, signal }: Signal & { input: { organizationId: number | null; connectionId: number } }) => {
      if (input.organizationId === null) throw new Error('No organization id')
      await deleteGitHubConnection(input.connectionId, { signal })
    }),
    createConnection: fromPromise(async ({ input, signal }: Signal & { input: CreateInput }): Promise<Connection | null> => {
      if (input.organizationId === null) throw new Error('No organization id')
      return (await createGitHubConnection(input.body, { signal })) ?? null
    }),
  },
})
