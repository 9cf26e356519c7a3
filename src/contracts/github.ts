/**
 * The GitHub integration (spec sections 3, 7 and 9) on the local platform, which hosts the Git repositories itself.
 * Paths (all under the platform API, the session cookie authenticates; writes need `projects:write` — a Read-only
 * member gets 403):
 *   GET    /platform/organizations/{slug}/integrations                     → InstallationList (the organization's)
 *   GET    /platform/integrations/github/connections?organization_id={id}  → ConnectionList {connections}
 *   POST   /platform/integrations/github/connections                       CreateConnectionBody → 201 Connection
 *            409 'Selected repository already has an installed connection to a project' (code
 *            'repository_already_connected'): the dashboard shows 'Unable to connect to {repo name}: {that}'
 *            409 code 'project_is_preview_branch' when the project is a preview branch (Project.parent_project_ref
 *            set): a branch follows its parent's repository and is never linked to one of its own
 *   GET    /platform/integrations/installations/{organization_integration_id}/connections → ProjectConnectionList:
 *            the installation's project connections in the spec's project connection shape (404 for an
 *            installation of an organization the person does not belong to)
 *   DELETE /platform/integrations/github/connections/{connection_id}       → { message }
 *   GET    /platform/integrations/github/branches/{connectionId}/{branchName} → 200 Branch, or 404 (no such branch);
 *            a branch name with '..', spaces or control characters is 400 (branchName percent-encoded: 'feature/tags'
 *            travels as 'feature%2Ftags')
 *   GET    /platform/integrations/github/authorization                     → Authorization, or null when the person
 *            has not authorized (200 null)
 *   GET    /platform/integrations/github/repositories[?organization_id={id}] → RepositoryList {repositories}: those of
 *            the installations of the person's organizations (of that one organization when given)
 * The install step (spec 9: a 600x800 centred popup):
 *   GET    /platform/integrations/github/install?organization_slug={slug}   an HTML page of the platform (not JSON):
 *            the person confirms, the page records the authorization and the installation, posts
 *            InstallPopupMessage to `window.opener` (target origin: its own) and closes itself. An opener that
 *            does not listen may poll GET /platform/organizations/{slug}/integrations instead.
 *   POST   /platform/integrations/github/installations                     CreateInstallationBody → 201 Installation
 *            (what the page calls; idempotent: an organization has one GitHub installation, a second call answers
 *            200 with it). Records the person's authorization too.
 * Repository contents, in the shape of the public Git hosting API (read by the platform's branching code, and over
 * HTTP for members of the repository's organization):
 *   GET    /platform/git-api/repos/{owner}/{repo}/contents/{path}?ref={branch} → ContentsResponse (a directory: the
 *            array of entries; a file: one entry with base64 content); 404 when the path or ref does not exist
 *   GET    /platform/git-api/repos/{owner}/{repo}/branches                  → Branch[]
 *   GET    /platform/git-api/repos/{owner}/{repo}/branches/{branch}         → Branch, or 404
 * The repositories themselves: `git clone http://<host>/git/{owner}/{repo}.git`, the user name anything, the password
 * a personal access token (sbp_…). {owner} is the installation's account name (the organization's slug).
 */
import * as z from 'zod/mini'
import { ProjectRef } from './common'

const Id = z.number().check(z.int(), z.positive())

// ---------------------------------------------------------------------------------------------------------------
// Installations and authorization

export const IntegrationName = z.enum(['GitHub', 'Vercel', 'Supabase'])
export type IntegrationName = z.infer<typeof IntegrationName>

export const AddedBy = z.object({ id: Id, primary_email: z.string(), username: z.string() })
export type AddedBy = z.infer<typeof AddedBy>

/** An integration installed in an organization (spec 3). */
export const Installation = z.object({
  id: Id,
  integration: z.object({ name: IntegrationName }),
  metadata: z.object({
    account: z.object({
      /** The Git hosting account the repositories live under: `{name}/{repo}`. */
      name: z.string(),
      type: z.enum(['Organization', 'User']),
      avatar_url: z.string(),
    }),
    /** Who connected it, by their Git hosting user name. */
    gitHubConnectionOwner: z.string(),
  }),
  inserted_at: z.string(),
  added_by: AddedBy,
})
export type Installation = z.infer<typeof Installation>
export const InstallationList = z.array(Installation)
export type InstallationList = z.infer<typeof InstallationList>

export const CreateInstallationBody = z.object({ organization_slug: z.string().check(z.regex(/^[\w-]+$/, 'slug is required')) })
export type CreateInstallationBody = z.infer<typeof CreateInstallationBody>

/** The signed-in person's authorization of the GitHub app; null when they have not authorized. */
export const Authorization = z.object({ id: Id, user_id: Id, sender_id: Id, inserted_at: z.string() })
export type Authorization = z.infer<typeof Authorization>
export const AuthorizationResponse = z.nullable(Authorization)
export type AuthorizationResponse = z.infer<typeof AuthorizationResponse>

/** What the install page posts to its opener before closing (postMessage, same origin only). */
export const InstallPopupMessage = z.object({
  type: z.literal('github-installation'),
  organization_slug: z.string(),
  installation_id: Id,
})
export type InstallPopupMessage = z.infer<typeof InstallPopupMessage>

/** The install popup's size (spec 9): 600 wide, 800 high, centred on the opener. */
export const INSTALL_POPUP = { width: 600, height: 800 } as const

/** The install page's path, relative to the platform base. */
export const installPagePath = (organizationSlug: string) =>
  `/integrations/github/install?organization_slug=${encodeURIComponent(organizationSlug)}`

// ---------------------------------------------------------------------------------------------------------------
// Repositories

/** A repository of an installation (spec 3, foreign project): name is `owner/repo`. */
export const Repository = z.object({ id: Id, name: z.string(), installation_id: Id, default_branch: z.string() })
export type Repository = z.infer<typeof Repository>
export const RepositoryList = z.object({ repositories: z.array(Repository) })
export type RepositoryList = z.infer<typeof RepositoryList>

export const RepositoriesQuery = z.object({ organization_id: z.optional(z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'organization_id must be a number'))) })
export type RepositoriesQuery = z.infer<typeof RepositoriesQuery>

// ---------------------------------------------------------------------------------------------------------------
// Connections

/** A project-to-repository connection (spec 3 and the platform's data layer). */
export const Connection = z.object({
  id: Id,
  installation_id: Id,
  project: z.object({ id: Id, name: z.string(), ref: z.string() }),
  repository: z.object({ id: Id, name: z.string() }),
  user: AddedBy,
  inserted_at: z.string(),
  updated_at: z.string(),
  /** The folder of the repository holding `supabase/` ('.' for the root). */
  workdir: z.string(),
  branch_limit: z.number().check(z.int(), z.nonnegative()),
  new_branch_per_pr: z.boolean(),
  supabase_changes_only: z.boolean(),
})
export type Connection = z.infer<typeof Connection>
export const ConnectionList = z.object({ connections: z.array(Connection) })
export type ConnectionList = z.infer<typeof ConnectionList>

/** Ids of the integrations themselves (a project connection's integration_id), one per integration. */
export const INTEGRATION_IDS: Record<IntegrationName, number> = { GitHub: 1, Vercel: 2, Supabase: 3 }

/**
 * A project connection (spec 3): a platform project linked to a foreign project of an installation — for GitHub the
 * foreign project is a repository. `foreign_project_id` is the repository's id as text (the foreign platform's
 * own ids are text), `organization_integration_id` the installation; `metadata` carries the foreign project's fields
 * (id, name as owner/repo, installation_id) and its framework (null when nothing says which).
 */
export const ProjectConnection = z.object({
  id: Id,
  foreign_project_id: z.string(),
  supabase_project_ref: z.string(),
  integration_id: Id,
  organization_integration_id: Id,
  metadata: z.object({ id: Id, name: z.string(), installation_id: Id, framework: z.nullable(z.string()) }),
  inserted_at: z.string(),
  updated_at: z.string(),
  added_by: AddedBy,
})
export type ProjectConnection = z.infer<typeof ProjectConnection>
export const ProjectConnectionList = z.array(ProjectConnection)
export type ProjectConnectionList = z.infer<typeof ProjectConnectionList>

export const ConnectionsQuery = z.object({ organization_id: z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'organization_id must be a number')) })
export type ConnectionsQuery = z.infer<typeof ConnectionsQuery>

/** Spec 3: the new connection's payload; the settings are optional (their defaults: '.', 50, false, false). */
export const CreateConnectionBody = z.object({
  installation_id: Id,
  project_ref: ProjectRef,
  repository_id: Id,
  workdir: z.optional(z.string().check(z.maxLength(200))),
  branch_limit: z.optional(z.number().check(z.int(), z.nonnegative(), z.lte(1000))),
  new_branch_per_pr: z.optional(z.boolean()),
  supabase_changes_only: z.optional(z.boolean()),
})
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>

export const DeleteConnectionResponse = z.object({ message: z.string() })
export type DeleteConnectionResponse = z.infer<typeof DeleteConnectionResponse>

/** The 409 answer's message when the repository already has a connection (the dashboard prefixes the repo name). */
export const REPOSITORY_ALREADY_CONNECTED = 'Selected repository already has an installed connection to a project'
export const REPOSITORY_ALREADY_CONNECTED_CODE = 'repository_already_connected'

// ---------------------------------------------------------------------------------------------------------------
// Branches and contents (the public Git hosting API's shapes)

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/**
 * A Git branch name as the platform accepts it: what `git check-ref-format --branch` accepts, stated as the
 * messages a person can act on ('..', spaces and control characters first — spec's bad input).
 */
export const BranchName = z.string().check(
  z.minLength(1, 'Branch name is required'),
  z.maxLength(255, 'Branch name must be at most 255 characters'),
  z.refine((name) => !name.includes('..'), 'Branch name cannot contain ".."'),
  z.refine((name) => !/\s/.test(name), 'Branch name cannot contain spaces'),
  z.refine((name) => !CONTROL_CHARACTER.test(name), 'Branch name cannot contain control characters'),
  z.refine((name) => !/[~^:?*[\\]/.test(name) && !name.includes('@{') && name !== '@', 'Branch name cannot contain ~ ^ : ? * [ \\ or @{'),
  z.refine(
    (name) => !name.startsWith('-') && !name.startsWith('/') && !name.endsWith('/') && !name.endsWith('.') && !name.endsWith('.lock') && !name.includes('//') && !name.split('/').some((part) => part.startsWith('.')),
    'Branch name is not a valid Git branch name',
  ),
)

export const Branch = z.object({
  name: z.string(),
  commit: z.object({ sha: z.string(), url: z.string() }),
  protected: z.boolean(),
})
export type Branch = z.infer<typeof Branch>
export const BranchList = z.array(Branch)
export type BranchList = z.infer<typeof BranchList>

export const ContentEntry = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'submodule']),
  sha: z.string(),
  size: z.number().check(z.int(), z.nonnegative()),
  /** Where the raw file is read; null for a directory. */
  download_url: z.nullable(z.string()),
})
export type ContentEntry = z.infer<typeof ContentEntry>

export const FileContent = z.object({
  ...ContentEntry.shape,
  type: z.literal('file'),
  encoding: z.literal('base64'),
  content: z.string(),
})
export type FileContent = z.infer<typeof FileContent>

/** A directory answers the array of its entries, a file its content. */
export const ContentsResponse = z.union([z.array(ContentEntry), FileContent])
export type ContentsResponse = z.infer<typeof ContentsResponse>

export const ContentsQuery = z.object({ ref: z.optional(BranchName) })
export type ContentsQuery = z.infer<typeof ContentsQuery>
