/**
 * The `git` room: the platform's Git hosting (bare repositories served over smart HTTP, read through the Git
 * hosting API's shapes) and the GitHub integration's calls (installations, authorizations, connections).
 * Other features (branching) read repositories in-process through `gitHostFor(config)` and the store's
 * `findProjectConnection`: this module is the feature's one face to them.
 */
import { Hono } from 'hono'
import type { ServerConfig } from '../../config'
import type { Deps } from '../../core/deps'
import type { AppEnv } from '../../core/http'
import { GitHost, gitRootFor } from './host'
import { githubRoutes } from './routes'
import { smartHttpRoutes } from './smartHttp'

export { GitHost, isSafeRepoPath } from './host'
export type { BranchHead, Contents, HostedRepository, TreeEntry } from './host'
export { findProjectConnection, type ConnectionRow } from './store'
export { toContentsResponse } from './routes'

const hosts = new Map<string, GitHost>()

/** The one GitHost of this store's repositories in this process (it serialises the making of a repository's folder). */
export function gitHostFor(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): GitHost {
  const root = gitRootFor(config)
  let host = hosts.get(root)
  if (!host) hosts.set(root, (host = new GitHost(root)))
  return host
}

/** /git/* (smart HTTP, token auth) and the /platform calls (session); mounted after the session middleware. */
export function gitRoutes(deps: Deps) {
  const host = gitHostFor(deps.config)
  const app = new Hono<AppEnv>()
  app.route('/', smartHttpRoutes(deps, host))
  app.route('/', githubRoutes(deps, host))
  return app
}
