/**
 * The limits a new or restored project must pass, one rule for both (pause/routes.ts restores, routes.ts creates):
 *  - the free project limit: in a free organization, no member may own more than FREE_PROJECT_LIMIT active
 *    (not paused) projects across every free organization;
 *  - the organization's disk cap (creation only): the organization's project databases, at their last measured
 *    sizes, may not already fill ORG_MAX_DATABASE_BYTES.
 * Both are checked in the transaction that changes the status or inserts the project, after lockFreeProjectCounts,
 * so parallel requests cannot all pass one check.
 */
import type { Queryable } from '../../db'

/** Class key of the transaction-scoped advisory locks that serialize free-project counts, one lock per account. */
const FREE_PROJECT_COUNT_LOCK = 0x66706c // 'fpl'

/**
 * Takes, until the end of the transaction, the lock on the free-project count of each account: the members of a free
 * organization (whose counts the limit check reads) and the project's owner (whose count the restore raises; a
 * project being created has none yet: null).
 * Nothing to lock in a paid organization: its projects count for no one and its check is empty.
 * Per member rather than per organization: the limit counts a member's active projects across every free
 * organization, so two restores in two organizations that share a member must wait for each other, and two restores
 * whose members do not overlap need not. Locks are taken in account order, so two transactions never wait on each
 * other in a circle. Advisory locks rather than `for update` on accounts: they block nothing else (sign-in, sessions).
 * On PGlite (one connection, transactions serialized) they are taken at once; the same code is correct on both.
 */
export async function lockFreeProjectCounts(tx: Queryable, organizationId: number, projectId: number | null) {
  const { rows } = await tx.query<{ account_id: number }>(
    `select m.account_id from members m join organizations o on o.id = m.organization_id
     where m.organization_id = $1 and o.plan_id = 'free'
     union
     select p.created_by from projects p join organizations o on o.id = p.organization_id
     where p.id = $2 and o.plan_id = 'free' and p.created_by is not null
     order by 1`,
    [organizationId, projectId],
  )
  for (const { account_id } of rows) {
    await tx.query('select pg_advisory_xact_lock($1::integer, $2::integer)', [FREE_PROJECT_COUNT_LOCK, account_id])
  }
}

export interface MemberAtLimit {
  username: string
  primary_email: string
}

/**
 * Members of a free organization who already own the maximum of active free projects (across every free
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

/** What a refusal by the free project limit says (restore and creation alike; code free_project_limit, 409). */
export function freeLimitMessage(limit: number, members: MemberAtLimit[]): string {
  const who = members.map((m) => `${m.username} (${m.primary_email})`).join(', ')
  return `Members of this organization have reached the free project limit of ${limit}: ${who}. Delete, pause or upgrade a project first.`
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

/** What a refusal by the disk cap says (code database_size_limit, 409). */
export function diskCapMessage(usedBytes: number, capBytes: number): string {
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`
  return `This organization's project databases use ${mb(usedBytes)}, at or over its limit of ${mb(capBytes)}: delete a project or free space in one before creating another.`
}
