import type { CreateConnectionBody, CreateInstallationBody } from '../../contracts/github'
import * as endpoints from '../../contracts/endpoints/github'
import { call, type CallOptions } from '../http'

// The GitHub integration: installations, authorization, repositories, connections, branch checks, contents.
export const listInstallations = (slug: string | undefined, options?: CallOptions) => call(endpoints.listInstallations, { slug }, options)
export const createInstallation = (body: CreateInstallationBody, options?: CallOptions) => call(endpoints.createInstallation, {}, { ...options, body })
/**
 * null when the person has not authorized the GitHub app — and when the read fails (spec 7): the linker then offers
 * the install step instead of failing as a whole.
 */
export const getGitHubAuthorization = (options?: CallOptions) => call(endpoints.getGitHubAuthorization, {}, options).catch(() => null)
export const listGitHubRepositories = (organizationId: number | undefined, options?: CallOptions) =>
  call(endpoints.listGitHubRepositories, {}, { ...options, query: { organization_id: organizationId === undefined ? undefined : String(organizationId) } })
export const listGitHubConnections = (organizationId: number | undefined, options?: CallOptions) => {
  if (organizationId === undefined) return Promise.reject(new Error('No organization id'))
  return call(endpoints.listGitHubConnections, {}, { ...options, query: { organization_id: String(organizationId) } })
}
export const listProjectConnections = (organizationIntegrationId: number, options?: CallOptions) =>
  call(endpoints.listProjectConnections, { organization_integration_id: String(organizationIntegrationId) }, options)
export const createGitHubConnection = (body: CreateConnectionBody, options?: CallOptions) => call(endpoints.createGitHubConnection, {}, { ...options, body })
export const deleteGitHubConnection = (connectionId: number, options?: CallOptions) =>
  call(endpoints.deleteGitHubConnection, { connection_id: connectionId }, options)
export const checkGitHubBranch = (connectionId: number, branchName: string, options?: CallOptions) =>
  call(endpoints.checkGitHubBranch, { connectionId, branchName }, options)
export const getRepositoryContents = (owner: string, repo: string, path: string, ref?: string, options?: CallOptions) =>
  call(endpoints.getRepositoryContents, { owner, repo, path }, { ...options, query: { ref } })
export const listRepositoryBranches = (owner: string, repo: string, options?: CallOptions) => call(endpoints.listRepositoryBranches, { owner, repo }, options)
export const getRepositoryBranch = (owner: string, repo: string, branch: string, options?: CallOptions) =>
  call(endpoints.getRepositoryBranch, { owner, repo, branch }, options)
