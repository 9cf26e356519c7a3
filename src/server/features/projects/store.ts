/** The SQL of projects: members' projects, a project by ref, a new project; and the mapping of rows to contract shapes. */
import type { PostgrestStatus, ProjectStatus } from '../../../contracts/common'
import type { Project } from '../../../contracts/projects'
import type { Queryable } from '../../db'
import { iso, type MemberProjectRow, type ProjectRow } from '../../core/rows'

export type { MemberProjectRow, ProjectRow }

/** The parent project's ref of a preview branch's own project (null for every other project). */
const parentRefSql = `(select pp.ref from branches b join projects pp on pp.id = b.parent_project_id where b.project_id = p.id)`

const projectColumns = `p.id, p.ref, p.name, p.organization_id, o.slug as organization_slug, p.status,
  p.postgrest_status, p.kps_version, p.is_branch_enabled, ${parentRefSql} as parent_project_ref, p.region, p.db_version,
  p.inserted_at, p.status_changed_at`

export async function listMemberProjects(db: Queryable, accountId: number): Promise<MemberProjectRow[]> {
  const { rows } = await db.query<MemberProjectRow>(
    `select ${projectColumns}, m.role
     from projects p join organizations o on o.id = p.organization_id
     join members m on m.organization_id = o.id and m.account_id = $1
     order by p.inserted_at, p.id`,
    [accountId],
  )
  return rows
}

/** A timestamp as Date.toISOString() writes it (what iso() gives the other answers), computed by the database. */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * The member's projects as the JSON text of the list's answer: toProject's shape, in listMemberProjects' order, built
 * by the database in one query. At 1,000 projects, decoding every row's columns into JavaScript values and encoding
 * them again cost several times the query itself (PGlite decodes rows in JavaScript, field by field); one text value
 * goes through as it is.
 */
export async function listMemberProjectsJson(db: Queryable, accountId: number, baseUrl: string): Promise<string> {
  const { rows } = await db.query<{ list: string }>(
    `select coalesce(json_agg(json_build_object(
       'id', p.id, 'ref', p.ref, 'name', p.name, 'organization_id', p.organization_id, 'organization_slug', o.slug,
       'status', p.status, 'restUrl', $2::text || '/p/' || p.ref || '/rest/v1/', 'kpsVersion', p.kps_version,
       'is_branch_enabled', p.is_branch_enabled, 'parent_project_ref', ${parentRefSql}, 'postgrestStatus', p.postgrest_status, 'region', p.region,
       'inserted_at', ${isoSql('p.inserted_at')}, 'db_version', p.db_version,
       'status_changed_at', ${isoSql('p.status_changed_at')}
     ) order by p.inserted_at, p.id), '[]')::text as list
     from projects p join organizations o on o.id = p.organization_id
     join members m on m.organization_id = o.id and m.account_id = $1`,
    [accountId, baseUrl],
  )
  return rows[0].list
}

/** The project if the account is a member of its organization; undefined otherwise (404). */
export async function findMemberProject(
  db: Queryable,
  accountId: number,
  ref: string,
): Promise<MemberProjectRow | undefined> {
  const { rows } = await db.query<MemberProjectRow>(
    `select ${projectColumns}, m.role
     from projects p join organizations o on o.id = p.organization_id
     join members m on m.organization_id = o.id and m.account_id = $1
     where p.ref = $2`,
    [accountId, ref],
  )
  return rows[0]
}

export async function findProjectByRef(db: Queryable, ref: string): Promise<ProjectRow | undefined> {
  const { rows } = await db.query<ProjectRow>(
    `select ${projectColumns} from projects p join organizations o on o.id = p.organization_id where p.ref = $1`,
    [ref],
  )
  return rows[0]
}

/** The project's new name. */
export async function renameProject(db: Queryable, projectId: number, name: string, now: Date): Promise<void> {
  await db.query('update projects set name = $2, updated_at = $3 where id = $1', [projectId, name, now.toISOString()])
}

/** The REST endpoint of a project: its project URL (`{origin}/p/{ref}`, a client library's base) + /rest/v1/. */
function restUrlFor(baseUrl: string, ref: string): string {
  return `${baseUrl}/p/${ref}/rest/v1/`
}

export function toProject(row: ProjectRow, baseUrl: string): Project {
  return {
    id: row.id,
    ref: row.ref,
    name: row.name,
    organization_id: row.organization_id,
    organization_slug: row.organization_slug,
    status: row.status,
    restUrl: restUrlFor(baseUrl, row.ref),
    kpsVersion: row.kps_version,
    is_branch_enabled: row.is_branch_enabled,
    parent_project_ref: row.parent_project_ref,
    postgrestStatus: row.postgrest_status,
    region: row.region,
    inserted_at: iso(row.inserted_at),
    db_version: row.db_version,
    status_changed_at: iso(row.status_changed_at),
  }
}

export interface NewProject {
  organizationId: number
  name: string
  status: ProjectStatus
  postgrestStatus: PostgrestStatus
  kpsVersion: string | null
  isBranchEnabled?: boolean
  region?: string
  dbVersion?: string
  ref: string
  now: Date
  /** When the project entered its status; defaults to `now` (its creation). */
  statusChangedAt?: Date
  /** The account that created it (the free project limit counts the projects a member owns). */
  createdBy?: number
}

export async function insertProject(db: Queryable, p: NewProject): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into projects (ref, organization_id, name, status, postgrest_status, kps_version, is_branch_enabled,
       region, db_version, inserted_at, updated_at, status_changed_at, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12) returning id`,
    [
      p.ref,
      p.organizationId,
      p.name,
      p.status,
      p.postgrestStatus,
      p.kpsVersion,
      p.isBranchEnabled ?? false,
      p.region ?? 'us-east-1',
      p.dbVersion ?? '15.6',
      p.now.toISOString(),
      (p.statusChangedAt ?? p.now).toISOString(),
      p.createdBy ?? null,
    ],
  )
  return rows[0].id
}

// ---------------------------------------------------------------------------------------------------------------
// The free project limit and the disk cap (freeLimit.ts holds the rule)

/** Class key of the transaction-scoped advisory locks that serialize free-project counts, one lock per account. */
const FREE_PROJECT_COUNT_LOCK = 0x66706c // 'fpl'

/**
 * The accounts whose free-project counts a creation or restore in the organization reads or raises, in account
 * order: the members of a free organization, and the project's owner (null: a project being created has none).
 */
export async function freeCountAccounts(tx: Queryable, organizationId: number, projectId: number | null): Promise<number[]> {
  const { rows } = await tx.query<{ account_id: number }>(
    `select m.account_id from members m join organizations o on o.id = m.organization_id
     where m.organization_id = $1 and o.plan_id = 'free'
     union
     select p.created_by from projects p join organizations o on o.id = p.organization_id
     where p.id = $2 and o.plan_id = 'free' and p.created_by is not null
     order by 1`,
    [organizationId, projectId],
  )
  return rows.map((r) => r.account_id)
}

/** Takes, until the end of the transaction, the lock on the account's free-project count. */
export async function lockFreeProjectCount(tx: Queryable, accountId: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1::integer, $2::integer)', [FREE_PROJECT_COUNT_LOCK, accountId])
}

export interface MemberAtLimit {
  username: string
  primary_email: string
}

/**
 * Members of a free organization who already own the maximum (`limit`) of active free projects (across every free
 * organization; a paused project does not count). Empty for paid organizations.
 */
export async function membersAtFreeLimit(db: Queryable, organizationId: number, limit: number): Promise<MemberAtLimit[]> {
  const { rows } = await db.query<MemberAtLimit>(
    `select a.username, a.primary_email
     from members m join accounts a on a.id = m.account_id
     join organizations org on org.id = m.organization_id
     where m.organization_id = $1 and org.plan_id = 'free'
       and (select count(*) from projects p join organizations o on o.id = p.organization_id
            where p.created_by = a.id and o.plan_id = 'free' and p.status <> 'INACTIVE') >= $2
     order by a.username`,
    [organizationId, limit],
  )
  return rows
}

/**
 * The organization's project databases at their last measured sizes (pg_database_size, kept per day by the usage
 * meter), summed: every project, paused ones too (their databases stay on disk). A database not measured yet
 * counts nothing until it is.
 */
export async function organizationDatabaseBytes(db: Queryable, organizationId: number): Promise<number> {
  const { rows } = await db.query<{ bytes: number }>(
    `select coalesce(sum(s.bytes), 0)::float8 as bytes from (
       select distinct on (d.project_id) d.database_size_bytes as bytes from project_usage_daily d
       join projects p on p.id = d.project_id
       where p.organization_id = $1 and d.database_size_bytes is not null
       order by d.project_id, d.day desc) s`,
    [organizationId],
  )
  return Number(rows[0]?.bytes ?? 0)
}
