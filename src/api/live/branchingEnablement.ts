/**
 * The live actors of the 'Enable database branching' modal: the project's connection (the organization's connections,
 * the one of this project) with the repository list, the project's Postgres version, the organization's plan, the
 * PITR add-on, the server's branch check, the dry run of the git branch and the branch's creation.
 */
import { fromPromise } from 'xstate'
import { branchingEnablementMachine, type BranchingProject, type RepositoryFacts } from '../../../machines/branchingEnablement.machine'
import { hasPitr } from '../../contracts/settings'
import { getProjectAddons } from '../calls/settings'
import { createBranch, getBranchingPlan } from '../calls/branching'
import { checkGitHubBranch, listGitHubConnections, listGitHubRepositories } from '../calls/github'
import { getSubscription } from '../calls/organizations'
import { getProject } from '../calls/projects'

type Signal = { signal: AbortSignal }

export const liveBranchingEnablementMachine = branchingEnablementMachine.provide({
  actors: {
    fetchRepository: fromPromise(async ({ input, signal }: Signal & { input: { project: BranchingProject } }): Promise<RepositoryFacts> => {
      const { project } = input
      const [connections, repositories] = await Promise.all([
        listGitHubConnections(project.organizationId, { signal }),
        listGitHubRepositories(project.organizationId, { signal }),
      ])
      const connection = connections.connections.find((c) => c.project.ref === project.ref) ?? null
      return {
        connection: connection && { connectionId: connection.id, repositoryId: connection.repository.id, name: connection.repository.name },
        repositories: repositories.repositories.map((r) => ({ id: r.id, name: r.name })),
      }
    }),
    fetchPostgresVersion: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => (await getProject(input.ref, { signal })).db_version),
    fetchSubscription: fromPromise(async ({ input, signal }: Signal & { input: { slug: string } }): Promise<string> => (await getSubscription(input.slug, { signal })).plan.id),
    fetchAddons: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => hasPitr(await getProjectAddons(input.ref, { signal }))),
    checkBranch: fromPromise(async ({ input, signal }: Signal & { input: { connectionId: number; name: string } }): Promise<void> => {
      await checkGitHubBranch(input.connectionId, input.name, { signal })
    }),
    fetchDryRun: fromPromise(({ input, signal }: Signal & { input: { ref: string; gitBranch: string } }) => getBranchingPlan(input.ref, input.gitBranch, { signal })),
    createBranch: fromPromise(({ input, signal }: Signal & { input: { ref: string; gitBranch: string; region: string } }) =>
      createBranch(input.ref, { branch_name: input.gitBranch, git_branch: input.gitBranch, region: input.region }, { signal }),
    ),
  },
})
