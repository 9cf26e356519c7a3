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
import { freeCountAccounts, lockFreeProjectCount, type MemberAtLimit } from './store'

/** The checks' reads are the store's (./store.ts); this module holds the rule they serve. */
export { membersAtFreeLimit, organizationDatabaseBytes, type MemberAtLimit } from './store'

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
  for (const accountId of await freeCountAccounts(tx, organizationId, projectId)) await lockFreeProjectCount(tx, accountId)
}

/** What a refusal by the free project limit says (restore and creation alike; code free_project_limit, 409). */
export function freeLimitMessage(limit: number, members: MemberAtLimit[]): string {
  const who = members.map((m) => `${m.username} (${m.primary_email})`).join(', ')
  return `Members of this organization have reached the free project limit of ${limit}: ${who}. Delete, pause or upgrade a project first.`
}

/** What a refusal by the disk cap says (code database_size_limit, 409). */
export function diskCapMessage(usedBytes: number, capBytes: number): string {
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`
  return `This organization's project databases use ${mb(usedBytes)}, at or over its limit of ${mb(capBytes)}: delete a project or free space in one before creating another.`
}
