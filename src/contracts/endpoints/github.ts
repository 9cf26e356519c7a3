import { endpoint } from '../endpoint'
import {
  AuthorizationResponse,
  Branch,
  BranchList,
  Connection,
  ConnectionList,
  ConnectionsQuery,
  ContentsQuery,
  ContentsResponse,
  CreateConnectionBody,
  CreateInstallationBody,
  DeleteConnectionResponse,
  Installation,
  InstallationList,
  ProjectConnectionList,
  RepositoriesQuery,
  RepositoryList,
} from '../github'

// The GitHub integration and the platform's Git hosting (src/contracts/github.ts says what each answers).
export const listInstallations = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/integrations', { response: InstallationList })
export const createInstallation = /* @__PURE__ */ endpoint('POST', 'platform', '/integrations/github/installations', { body: CreateInstallationBody, response: Installation })
export const getGitHubAuthorization = /* @__PURE__ */ endpoint('GET', 'platform', '/integrations/github/authorization', { response: AuthorizationResponse })
export const listGitHubRepositories = /* @__PURE__ */ endpoint('GET', 'platform', '/integrations/github/repositories', { query: RepositoriesQuery, response: RepositoryList })
export const listGitHubConnections = /* @__PURE__ */ endpoint('GET', 'platform', '/integrations/github/connections', { query: ConnectionsQuery, response: ConnectionList })
export const listProjectConnections = /* @__PURE__ */ endpoint('GET', 'platform', '/integrations/installations/:organization_integration_id/connections', { response: ProjectConnectionList })
export const createGitHubConnection = /* @__PURE__ */ endpoint('POST', 'platform', '/integrations/github/connections', { body: CreateConnectionBody, response: Connection })
export const deleteGitHubConnection = /* @__PURE__ */ endpoint('DELETE', 'platform', '/integrations/github/connections/:connection_id', { response: DeleteConnectionResponse })
export const checkGitHubBranch = /* @__PURE__ */ endpoint('GET', 'platform', '/integrations/github/branches/:connectionId/:branchName', { response: Branch })
/** `path` may hold slashes (percent-encoded by the client: 'supabase%2Fmigrations'). */
export const getRepositoryContents = /* @__PURE__ */ endpoint('GET', 'platform', '/git-api/repos/:owner/:repo/contents/:path', { query: ContentsQuery, response: ContentsResponse })
export const listRepositoryBranches = /* @__PURE__ */ endpoint('GET', 'platform', '/git-api/repos/:owner/:repo/branches', { response: BranchList })
export const getRepositoryBranch = /* @__PURE__ */ endpoint('GET', 'platform', '/git-api/repos/:owner/:repo/branches/:branch', { response: Branch })
