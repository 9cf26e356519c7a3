/**
 * The GitHub integration's platform calls (paths and answers: src/contracts/github.ts) and the Git hosting API's
 * reads over HTTP. Every one needs the session; the role is read from the store on every request:
 *  - installations, repositories, connections and contents of an organization the person does not belong to are
 *    404, as unknown ones (the two cannot be told apart);
 *  - creating or deleting a connection, or installing, needs projects:write (Read-only: 403);
 *  - linking checks, in order: the body (400), the installation (404), the role (403), the project (404; 409 when
 *    it is a preview branch; 400 when it is another organization's), the repository (404, or 400 when it is another installation's), then a
 *    repository already connected (409, REPOSITORY_ALREADY_CONNECTED) or a project already connected (409: the
 *    dashboard deletes the old connection first).
 */
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import * as endpoints from '../../../contracts/endpoints/github'
import {
  BranchName,
  REPOSITORY_ALREADY_CONNECTED,
  REPOSITORY_ALREADY_CONNECTED_CODE,
  type Branch,
  type BranchList,
  type ConnectionList,
  type ContentEntry,
  type ContentsResponse,
  type DeleteConnectionResponse,
  type ProjectConnectionList,
  type RepositoryList,
} from '../../../contracts/github'
import { routeOf } from '../../../contracts/endpoint'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, formatIssues, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { findMemberOrganization, memberOrganization, memberRole } from '../organizations/access'
import { findMemberProject } from '../projects/access'
import { avatarFor } from './demo'
import { isSafeRepoPath, type Contents, type GitHost, type HostedRepository, type TreeEntry } from './host'
import { installPage, installScript, installStyle, INSTALL_SCRIPT_PATH, INSTALL_STYLE_PATH } from './installPage'
import {
  authorize,
  deleteConnection,
  findAuthorization,
  findConnectionById,
  findMemberConnection,
  findMemberInstallation,
  findRepositoryById,
  findRepositoryByName,
  insertConnection,
  installGitHub,
  listConnections,
  listInstallations,
  listMemberRepositories,
  toConnection,
  toProjectConnection,
  toRepository,
} from './store'

const IdText = z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive whole number').transform(Number)
const ConnectionParam = z.object({ connection_id: IdText })
const InstallationParam = z.object({ organization_integration_id: IdText })
const BranchParam = z.object({ connectionId: IdText, branchName: BranchName })
const OwnerRepoParam = z.object({ owner: z.string().min(1).max(100), repo: z.string().min(1).max(104) })

const FORBIDDEN_WRITE = "Your role in this organization (Read-only) cannot change its integrations"

export function githubRoutes(deps: Deps, host: GitHost) {
  const { db, clock } = deps
  const app = new Hono<AppEnv>()

  /** The commit's tree, through the contents API (commits themselves are not served). */
  const commitUrl = (owner: string, repo: string, sha: string) => `${baseUrl(deps.ownUrl)}/platform/git-api/repos/${owner}/${repo}/contents?ref=${sha}`
  const branchOf = (owner: string, repo: string, head: { name: string; sha: string }): Branch => ({
    name: head.name,
    commit: { sha: head.sha, url: commitUrl(owner, repo, head.sha) },
    protected: false,
  })

  // --- Installations and authorization --------------------------------------------------------------------------

  app.on(...at(endpoints.listInstallations), memberOrganization(db), async (c) => c.json(await listInstallations(db, c.var.organization.id)))

  app.on(...at(endpoints.createInstallation), validate('json', endpoints.createInstallation.body), async (c) => {
    const { organization_slug } = c.req.valid('json')
    const account = c.get('account')
    const org = await findMemberOrganization(db, account.id, organization_slug)
    if (!org) return errorJson(c, 404, 'Organization not found')
    if (!can(org.role, 'projects:write')) return errorJson(c, 403, FORBIDDEN_WRITE)
    const now = clock.now()
    const done = await db.transaction(async (tx) => {
      await authorize(tx, account.id, now)
      return installGitHub(tx, org, account, avatarFor(org.slug), now)
    })
    return c.json(done.installation, done.created ? 201 : 200)
  })

  app.on(...at(endpoints.getGitHubAuthorization), async (c) => c.json(await findAuthorization(db, c.get('account').id)))

  // The install popup (spec 9): a page of the platform with a static script (the CSP allows no inline script).
  app.get('/platform/integrations/github/install', async (c) => {
    const slug = c.req.query('organization_slug') ?? ''
    const org = /^[\w-]{1,100}$/.test(slug) ? await findMemberOrganization(db, c.get('account').id, slug) : undefined
    if (!org) return c.html(installPage({ kind: 'missing', slug }), 404)
    const installed = (await listInstallations(db, org.id)).find((i) => i.integration.name === 'GitHub')
    const kind = !can(org.role, 'projects:write') ? 'forbidden' : 'confirm'
    return c.html(installPage({ kind, slug: org.slug, name: org.name, installed: installed !== undefined }))
  })
  app.get(INSTALL_SCRIPT_PATH, (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8')
    return c.body(installScript)
  })
  app.get(INSTALL_STYLE_PATH, (c) => {
    c.header('content-type', 'text/css; charset=utf-8')
    return c.body(installStyle)
  })

  // --- Repositories ---------------------------------------------------------------------------------------------

  app.on(...at(endpoints.listGitHubRepositories), validate('query', endpoints.listGitHubRepositories.query), async (c) => {
    const { organization_id } = c.req.valid('query')
    const rows = await listMemberRepositories(db, c.get('account').id, organization_id === undefined ? undefined : Number(organization_id))
    return c.json({ repositories: rows.map(toRepository) } satisfies RepositoryList)
  })

  // --- Connections ----------------------------------------------------------------------------------------------

  app.on(...at(endpoints.listGitHubConnections), validate('query', endpoints.listGitHubConnections.query), async (c) => {
    const organizationId = Number(c.req.valid('query').organization_id)
    if (!(await isMember(c.get('account').id, organizationId))) return errorJson(c, 404, 'Organization not found')
    return c.json({ connections: (await listConnections(db, organizationId)).map(toConnection) } satisfies ConnectionList)
  })

  app.on(...at(endpoints.listProjectConnections), validate('param', InstallationParam), async (c) => {
    const { organization_integration_id } = c.req.valid('param')
    const installation = await findMemberInstallation(db, c.get('account').id, organization_integration_id)
    if (!installation) return errorJson(c, 404, `Installation ${organization_integration_id} not found`)
    const rows = await listConnections(db, installation.organization_id)
    return c.json(rows.filter((row) => row.installation_id === installation.id).map(toProjectConnection) satisfies ProjectConnectionList)
  })

  app.on(...at(endpoints.createGitHubConnection), validate('json', endpoints.createGitHubConnection.body), async (c) => {
    const body = c.req.valid('json')
    const account = c.get('account')
    const installation = await findMemberInstallation(db, account.id, body.installation_id)
    if (!installation) return errorJson(c, 404, `Installation ${body.installation_id} not found`)
    if (!can(installation.role, 'projects:write')) return errorJson(c, 403, FORBIDDEN_WRITE)
    const project = await findMemberProject(db, account.id, body.project_ref)
    if (!project) return errorJson(c, 404, `Project ${body.project_ref} not found`)
    // A preview branch is built from its parent's repository (the git branch it was made for): a link of its own
    // would give it a second source of migrations.
    if (project.parent_project_ref !== null) {
      return errorJson(c, 409, `Project ${project.name} is a preview branch of ${project.parent_project_ref}: link the repository to that project`, 'project_is_preview_branch')
    }
    if (project.organization_id !== installation.organization_id) {
      return errorJson(c, 400, `Project ${project.name} belongs to another organization than installation ${installation.id}`)
    }
    const repository = await findRepositoryById(db, body.repository_id)
    if (!repository || !(await isMember(account.id, repository.organization_id))) {
      return errorJson(c, 404, `Repository ${body.repository_id} not found`)
    }
    if (repository.installation_id !== installation.id) {
      return errorJson(c, 400, `Repository ${repository.owner}/${repository.name} belongs to another installation than ${installation.id}`)
    }
    const inserted = await insertConnection(db, {
      installationId: installation.id,
      projectId: project.id,
      repositoryId: repository.id,
      addedBy: account.id,
      workdir: body.workdir ?? '.',
      branchLimit: body.branch_limit ?? 50,
      newBranchPerPr: body.new_branch_per_pr ?? false,
      supabaseChangesOnly: body.supabase_changes_only ?? false,
      now: clock.now(),
    })
    if ('conflict' in inserted) {
      return inserted.conflict === 'repository'
        ? errorJson(c, 409, REPOSITORY_ALREADY_CONNECTED, REPOSITORY_ALREADY_CONNECTED_CODE)
        : errorJson(c, 409, `Project ${project.name} already has a connection to a repository: delete it first`, 'project_already_connected')
    }
    const row = await findConnectionById(db, inserted.id)
    return c.json(toConnection(row!), 201)
  })

  async function isMember(accountId: number, organizationId: number) {
    return (await memberRole(db, organizationId, accountId)) !== undefined
  }

  app.on(...at(endpoints.deleteGitHubConnection), validate('param', ConnectionParam), async (c) => {
    const { connection_id } = c.req.valid('param')
    const orgFilter = c.req.query('organization_id')
    const connection = await findMemberConnection(db, c.get('account').id, connection_id)
    if (!connection || (orgFilter !== undefined && orgFilter !== String(connection.organization_id))) {
      return errorJson(c, 404, `Connection ${connection_id} not found`)
    }
    if (!can(connection.role, 'projects:write')) return errorJson(c, 403, FORBIDDEN_WRITE)
    await deleteConnection(db, connection.id)
    return c.json({ message: 'Successfully deleted' } satisfies DeleteConnectionResponse)
  })

  app.on(...at(endpoints.checkGitHubBranch), validate('param', BranchParam), async (c) => {
    const { connectionId, branchName } = c.req.valid('param')
    const connection = await findMemberConnection(db, c.get('account').id, connectionId)
    if (!connection) return errorJson(c, 404, `Connection ${connectionId} not found`)
    const repo: HostedRepository = { id: connection.repository_id, default_branch: connection.default_branch, demo: connection.demo }
    const head = await host.branch(repo, branchName)
    const full = `${connection.repository_owner}/${connection.repository_name}`
    if (!head) return errorJson(c, 404, `Branch ${branchName} not found in ${full}`, 'branch_not_found')
    return c.json(branchOf(connection.repository_owner, connection.repository_name, head) satisfies Branch)
  })

  // --- The Git hosting API's reads --------------------------------------------------------------------------------

  /** The repository of `:owner/:repo` for a member of its organization, or the answer refusing it. */
  async function memberRepository(c: Context<AppEnv>) {
    const params = OwnerRepoParam.safeParse({ owner: c.req.param('owner'), repo: c.req.param('repo') })
    if (!params.success) return { refused: c.json({ message: formatIssues(params.error.issues, 'param') }, 400) }
    const repo = await findRepositoryByName(db, c.get('account').id, params.data.owner, params.data.repo.replace(/\.git$/, ''))
    if (!repo?.role) return { refused: errorJson(c, 404, `Repository not found: ${params.data.owner}/${params.data.repo}`) }
    return { repo }
  }

  const contentsRoute = routeOf(endpoints.getRepositoryContents).replace(/\/:path$/, '')
  const contentsHandler = async (c: Context<AppEnv>) => {
    const found = await memberRepository(c)
    if ('refused' in found) return found.refused
    const { repo } = found
    const ref = c.req.query('ref')
    if (ref !== undefined) {
      const parsed = BranchName.safeParse(ref)
      if (!parsed.success) return c.json({ message: `ref: ${formatIssues(parsed.error.issues, 'query')}` }, 400)
    }
    // The path as sent (still percent-encoded), decoded once here: a file named 'a%25b' stays 'a%b'. It is what
    // follows the owner and repository segments, so an owner or repository named like 'contents' does not shift it.
    const sent = new URL(c.req.url).pathname
    const rawPath = /\/git-api\/repos\/[^/]+\/[^/]+\/contents(\/.*)?$/.exec(sent)?.[1] ?? ''
    let repoPath: string
    try {
      repoPath = decodeURIComponent(rawPath.replace(/^\//, '')).replace(/\/$/, '')
    } catch {
      return errorJson(c, 400, 'path: not a valid percent-encoded path')
    }
    if (!isSafeRepoPath(repoPath)) return errorJson(c, 400, 'path: must be a path inside the repository (no . or .. segments)')
    const contents = await host.contents(repo, ref, repoPath)
    if (!contents) return errorJson(c, 404, `Not Found: ${repo.owner}/${repo.name} has no ${repoPath || 'root'} at ${ref ?? repo.default_branch}`)
    return c.json(toContentsResponse(contents) satisfies ContentsResponse)
  }
  app.get(contentsRoute, contentsHandler)
  app.get(`${contentsRoute}/*`, contentsHandler)

  app.on(...at(endpoints.listRepositoryBranches), async (c) => {
    const found = await memberRepository(c)
    if ('refused' in found) return found.refused
    const heads = await host.branches(found.repo)
    return c.json(heads.map((h) => branchOf(found.repo.owner, found.repo.name, h)) satisfies BranchList)
  })

  app.on(...at(endpoints.getRepositoryBranch), async (c) => {
    const found = await memberRepository(c)
    if ('refused' in found) return found.refused
    const name = BranchName.safeParse(c.req.param('branch'))
    if (!name.success) return c.json({ message: formatIssues(name.error.issues, 'param') }, 400)
    const head = await host.branch(found.repo, name.data)
    if (!head) return errorJson(c, 404, `Branch not found: ${name.data}`)
    return c.json(branchOf(found.repo.owner, found.repo.name, head) satisfies Branch)
  })

  return app
}

/** Raw downloads are not served: a file's bytes come with its contents answer (download_url stays null). */
const entryOf = (e: TreeEntry): ContentEntry => ({ ...e, download_url: null })

export function toContentsResponse(contents: Contents): ContentsResponse {
  if (contents.kind === 'dir') return contents.entries.map(entryOf)
  return { ...entryOf(contents.entry), type: 'file', encoding: 'base64', content: contents.content.toString('base64') }
}
