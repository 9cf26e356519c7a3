/**
 * The integration's rows (migration 011): installations, authorizations, repositories, connections, each read for
 * a signed-in member (a row of an organization the person does not belong to is not found) and built into its
 * contract's shape here.
 */
import type { Role } from '../../../contracts/common'
import { INTEGRATION_IDS, type Authorization, type Connection, type Installation, type ProjectConnection, type Repository } from '../../../contracts/github'
import type { Queryable } from '../../db'
import { iso } from '../../core/rows'

// ---------------------------------------------------------------------------------------------------------------
// Installations

interface InstallationRow {
  id: number
  organization_id: number
  integration: Installation['integration']['name']
  account_name: string
  account_type: 'Organization' | 'User'
  avatar_url: string
  connection_owner: string
  inserted_at: Date | string
  added_by_id: number
  added_by_email: string
  added_by_username: string
}

const installationColumns = `i.id, i.organization_id, i.integration, i.account_name, i.account_type, i.avatar_url,
  i.connection_owner, i.inserted_at, a.id as added_by_id, a.primary_email as added_by_email, a.username as added_by_username`

export function toInstallation(row: InstallationRow): Installation {
  return {
    id: row.id,
    integration: { name: row.integration },
    metadata: {
      account: { name: row.account_name, type: row.account_type, avatar_url: row.avatar_url },
      gitHubConnectionOwner: row.connection_owner,
    },
    inserted_at: iso(row.inserted_at),
    added_by: { id: row.added_by_id, primary_email: row.added_by_email, username: row.added_by_username },
  }
}

export async function listInstallations(db: Queryable, organizationId: number): Promise<Installation[]> {
  const { rows } = await db.query<InstallationRow>(
    `select ${installationColumns} from integration_installations i join accounts a on a.id = i.added_by
     where i.organization_id = $1 order by i.id`,
    [organizationId],
  )
  return rows.map(toInstallation)
}

/** The installation with the member's role in its organization; undefined when unknown or not the person's. */
export async function findMemberInstallation(db: Queryable, accountId: number, installationId: number) {
  const { rows } = await db.query<InstallationRow & { role: Role }>(
    `select ${installationColumns}, m.role from integration_installations i
     join accounts a on a.id = i.added_by
     join members m on m.organization_id = i.organization_id and m.account_id = $1
     where i.id = $2`,
    [accountId, installationId],
  )
  return rows[0]
}

/** Creates the organization's GitHub installation, or returns the one it has (created: false). */
export async function installGitHub(
  db: Queryable,
  org: { id: number; slug: string },
  account: { id: number; username: string },
  avatarUrl: string,
  now: Date,
): Promise<{ installation: Installation; created: boolean }> {
  const { rows } = await db.query<{ id: number }>(
    `insert into integration_installations
       (organization_id, integration, account_name, account_type, avatar_url, connection_owner, added_by, inserted_at)
     values ($1, 'GitHub', $2, 'Organization', $3, $4, $5, $6)
     on conflict do nothing returning id`,
    [org.id, org.slug, avatarUrl, account.username, account.id, now.toISOString()],
  )
  const { rows: found } = await db.query<InstallationRow>(
    `select ${installationColumns} from integration_installations i join accounts a on a.id = i.added_by
     where i.organization_id = $1 and i.integration = 'GitHub'`,
    [org.id],
  )
  if (!found[0]) throw new Error(`the account name '${org.slug}' is taken by another organization's installation`)
  return { installation: toInstallation(found[0]), created: rows.length > 0 }
}

// ---------------------------------------------------------------------------------------------------------------
// Authorizations

interface AuthorizationRow {
  id: number
  account_id: number
  sender_id: number
  inserted_at: Date | string
}

const toAuthorization = (row: AuthorizationRow): Authorization => ({
  id: row.id,
  user_id: row.account_id,
  sender_id: row.sender_id,
  inserted_at: iso(row.inserted_at),
})

export async function findAuthorization(db: Queryable, accountId: number): Promise<Authorization | null> {
  const { rows } = await db.query<AuthorizationRow>('select id, account_id, sender_id, inserted_at from github_authorizations where account_id = $1', [accountId])
  return rows[0] ? toAuthorization(rows[0]) : null
}

/** The person's authorization (recorded now when they had none). */
/** The account's authorization, made if it has none. */
export async function insertAuthorization(db: Queryable, accountId: number, now: Date): Promise<void> {
  await db.query(
    'insert into github_authorizations (account_id, sender_id, inserted_at) values ($1, $1, $2) on conflict (account_id) do nothing',
    [accountId, now.toISOString()],
  )
}

export async function authorize(db: Queryable, accountId: number, now: Date): Promise<Authorization> {
  await insertAuthorization(db, accountId, now)
  return (await findAuthorization(db, accountId))!
}

// ---------------------------------------------------------------------------------------------------------------
// Repositories

export interface RepositoryRow {
  id: number
  installation_id: number
  organization_id: number
  owner: string
  name: string
  default_branch: string
  demo: string | null
}

const repositoryColumns = `r.id, r.installation_id, i.organization_id, i.account_name as owner, r.name, r.default_branch, r.demo`

export const toRepository = (row: RepositoryRow): Repository => ({
  id: row.id,
  name: `${row.owner}/${row.name}`,
  installation_id: row.installation_id,
  default_branch: row.default_branch,
})

/** The GitHub repositories of the person's organizations (of one of them when given), by name. */
export async function listMemberRepositories(db: Queryable, accountId: number, organizationId?: number): Promise<RepositoryRow[]> {
  const { rows } = await db.query<RepositoryRow>(
    `select ${repositoryColumns} from git_repositories r
     join integration_installations i on i.id = r.installation_id and i.integration = 'GitHub'
     join members m on m.organization_id = i.organization_id and m.account_id = $1
     where $2::int is null or i.organization_id = $2::int
     order by lower(i.account_name), lower(r.name)`,
    [accountId, organizationId ?? null],
  )
  return rows
}

export async function findRepositoryById(db: Queryable, repositoryId: number): Promise<RepositoryRow | undefined> {
  const { rows } = await db.query<RepositoryRow>(
    `select ${repositoryColumns} from git_repositories r join integration_installations i on i.id = r.installation_id
     where r.id = $1`,
    [repositoryId],
  )
  return rows[0]
}

/** A repository by `owner/name` (case-insensitive, as the hosting service), with the account's role (null: not a member). */
export async function findRepositoryByName(db: Queryable, accountId: number, owner: string, name: string) {
  const { rows } = await db.query<RepositoryRow & { role: Role | null }>(
    `select ${repositoryColumns}, m.role from git_repositories r
     join integration_installations i on i.id = r.installation_id and i.integration = 'GitHub'
     left join members m on m.organization_id = i.organization_id and m.account_id = $1
     where lower(i.account_name) = lower($2) and lower(r.name) = lower($3)`,
    [accountId, owner, name],
  )
  return rows[0]
}

/** The GitHub installation whose account is `owner`, with the account's role in its organization (null: not a member). */
export async function findInstallationByOwner(db: Queryable, accountId: number, owner: string) {
  const { rows } = await db.query<{ id: number; organization_id: number; account_name: string; role: Role | null }>(
    `select i.id, i.organization_id, i.account_name, m.role from integration_installations i
     left join members m on m.organization_id = i.organization_id and m.account_id = $1
     where i.integration = 'GitHub' and lower(i.account_name) = lower($2)`,
    [accountId, owner],
  )
  return rows[0]
}

/** A new repository of an installation (a push created it); undefined when the name was taken meanwhile. */
export async function insertRepository(db: Queryable, installationId: number, name: string, now: Date): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `insert into git_repositories (installation_id, name, default_branch, created_at) values ($1, $2, 'main', $3)
     on conflict do nothing returning id`,
    [installationId, name, now.toISOString()],
  )
  return rows[0]?.id
}

export async function deleteRepository(db: Queryable, repositoryId: number): Promise<void> {
  await db.query('delete from git_repositories where id = $1', [repositoryId])
}

/** After a push: the default branch is the one HEAD names (git's own record), kept in the row the API answers from. */
export async function setDefaultBranch(db: Queryable, repositoryId: number, branch: string): Promise<void> {
  await db.query('update git_repositories set default_branch = $2 where id = $1 and default_branch <> $2', [repositoryId, branch])
}

// ---------------------------------------------------------------------------------------------------------------
// Connections

export interface ConnectionRow {
  id: number
  installation_id: number
  organization_id: number
  project_id: number
  project_name: string
  project_ref: string
  repository_id: number
  repository_owner: string
  repository_name: string
  default_branch: string
  demo: string | null
  user_id: number
  user_email: string
  user_username: string
  inserted_at: Date | string
  updated_at: Date | string
  workdir: string
  branch_limit: number
  new_branch_per_pr: boolean
  supabase_changes_only: boolean
}

const connectionSelect = `select c.id, c.installation_id, i.organization_id, p.id as project_id, p.name as project_name,
  p.ref as project_ref, r.id as repository_id, i.account_name as repository_owner, r.name as repository_name,
  r.default_branch, r.demo, a.id as user_id, a.primary_email as user_email, a.username as user_username,
  c.inserted_at, c.updated_at, c.workdir, c.branch_limit, c.new_branch_per_pr, c.supabase_changes_only
  from github_connections c
  join integration_installations i on i.id = c.installation_id
  join projects p on p.id = c.project_id
  join git_repositories r on r.id = c.repository_id
  join accounts a on a.id = c.added_by`

export function toConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    installation_id: row.installation_id,
    project: { id: row.project_id, name: row.project_name, ref: row.project_ref },
    repository: { id: row.repository_id, name: `${row.repository_owner}/${row.repository_name}` },
    user: { id: row.user_id, primary_email: row.user_email, username: row.user_username },
    inserted_at: iso(row.inserted_at),
    updated_at: iso(row.updated_at),
    workdir: row.workdir,
    branch_limit: row.branch_limit,
    new_branch_per_pr: row.new_branch_per_pr,
    supabase_changes_only: row.supabase_changes_only,
  }
}

/** A connection in the spec's project connection shape: the repository is the foreign project. */
export function toProjectConnection(row: ConnectionRow): ProjectConnection {
  return {
    id: row.id,
    foreign_project_id: String(row.repository_id),
    supabase_project_ref: row.project_ref,
    integration_id: INTEGRATION_IDS.GitHub,
    organization_integration_id: row.installation_id,
    metadata: { id: row.repository_id, name: `${row.repository_owner}/${row.repository_name}`, installation_id: row.installation_id, framework: null },
    inserted_at: iso(row.inserted_at),
    updated_at: iso(row.updated_at),
    added_by: { id: row.user_id, primary_email: row.user_email, username: row.user_username },
  }
}

export async function listConnections(db: Queryable, organizationId: number): Promise<ConnectionRow[]> {
  const { rows } = await db.query<ConnectionRow>(`${connectionSelect} where i.organization_id = $1 order by c.inserted_at, c.id`, [organizationId])
  return rows
}

/** The connection with the account's role in its organization; undefined when unknown or not the person's. */
export async function findMemberConnection(db: Queryable, accountId: number, connectionId: number) {
  const { rows } = await db.query<ConnectionRow & { role: Role }>(
    `${connectionSelect.replace('from github_connections c', ', m.role from github_connections c')}
     join members m on m.organization_id = i.organization_id and m.account_id = $1
     where c.id = $2`,
    [accountId, connectionId],
  )
  return rows[0]
}

/** The connection of a project (the branching feature's way in), or undefined. */
export async function findProjectConnection(db: Queryable, projectId: number): Promise<ConnectionRow | undefined> {
  const { rows } = await db.query<ConnectionRow>(`${connectionSelect} where c.project_id = $1`, [projectId])
  return rows[0]
}

export interface NewConnection {
  installationId: number
  projectId: number
  repositoryId: number
  addedBy: number
  workdir: string
  branchLimit: number
  newBranchPerPr: boolean
  supabaseChangesOnly: boolean
  now: Date
}

/**
 * Inserts the connection; a repository or project that already has one answers which (the unique keys decide, so
 * two people linking at once cannot both succeed).
 */
export async function insertConnection(db: Queryable, c: NewConnection): Promise<{ id: number } | { conflict: 'repository' | 'project' }> {
  const { rows } = await db.query<{ id: number }>(
    `insert into github_connections (installation_id, project_id, repository_id, added_by, workdir, branch_limit,
       new_branch_per_pr, supabase_changes_only, inserted_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     on conflict do nothing returning id`,
    [c.installationId, c.projectId, c.repositoryId, c.addedBy, c.workdir, c.branchLimit, c.newBranchPerPr, c.supabaseChangesOnly, c.now.toISOString()],
  )
  if (rows[0]) return rows[0]
  const { rows: taken } = await db.query<{ n: number }>('select count(*)::int as n from github_connections where repository_id = $1', [c.repositoryId])
  return { conflict: taken[0].n > 0 ? 'repository' : 'project' }
}

export async function findConnectionById(db: Queryable, id: number): Promise<ConnectionRow | undefined> {
  const { rows } = await db.query<ConnectionRow>(`${connectionSelect} where c.id = $1`, [id])
  return rows[0]
}

export async function deleteConnection(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query('delete from github_connections where id = $1 returning id', [id])
  return rows.length > 0
}

// ---------------------------------------------------------------------------------------------------------------
// The demo data (demo.ts): the demo owner's installations, repositories and connection, each made once

/** The account with this primary e-mail; undefined when there is none. */
export async function findDemoOwner(tx: Queryable, email: string): Promise<{ id: number; username: string } | undefined> {
  const { rows } = await tx.query<{ id: number; username: string }>('select id, username from accounts where primary_email = $1', [email])
  return rows[0]
}

export async function organizationIdOf(tx: Queryable, slug: string): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number }>('select id from organizations where slug = $1', [slug])
  return rows[0]?.id
}

/** The organization's GitHub installation in the owner's name; undefined when it has one already. */
export async function insertDemoInstallation(
  tx: Queryable,
  i: { organizationId: number; accountName: string; avatarUrl: string; owner: { id: number; username: string }; now: Date },
): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into integration_installations
       (organization_id, integration, account_name, account_type, avatar_url, connection_owner, added_by, inserted_at)
     values ($1, 'GitHub', $2, 'Organization', $3, $4, $5, $6)
     on conflict do nothing returning id`,
    [i.organizationId, i.accountName, i.avatarUrl, i.owner.username, i.owner.id, i.now.toISOString()],
  )
  return rows[0]?.id
}

/** A demo repository (its content is made from `demo`, the demo's kind, when first used). */
export async function insertDemoRepository(tx: Queryable, installationId: number, name: string, demo: string, now: Date): Promise<void> {
  await tx.query(`insert into git_repositories (installation_id, name, default_branch, demo, created_at) values ($1, $2, 'main', $3, $4)`, [
    installationId,
    name,
    demo,
    now.toISOString(),
  ])
}

/** Connects the organization's project `project` to its installation's repository `repository`, unless connected. */
export async function insertDemoConnection(
  tx: Queryable,
  c: { organizationSlug: string; project: string; repository: string; addedBy: number; now: Date },
): Promise<void> {
  await tx.query(
    `insert into github_connections (installation_id, project_id, repository_id, added_by, inserted_at, updated_at)
     select i.id, p.id, r.id, $4, $5, $5
     from organizations o
     join integration_installations i on i.organization_id = o.id and i.integration = 'GitHub'
     join git_repositories r on r.installation_id = i.id and r.name = $3
     join projects p on p.organization_id = o.id and p.name = $2
     where o.slug = $1
     on conflict do nothing`,
    [c.organizationSlug, c.project, c.repository, c.addedBy, c.now.toISOString()],
  )
}
