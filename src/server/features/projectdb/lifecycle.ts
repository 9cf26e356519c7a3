/**
 * Where the project database meets the lifecycle:
 *  - a project arriving at ACTIVE_HEALTHY through a timed transition (the end of COMING_UP) gets its database in
 *    that transition's transaction, before the new status commits: a server stopped half-way leaves the transition
 *    pending and the project COMING_UP, and the next run finishes the (idempotent) creation;
 *  - a project arriving at INACTIVE (the end of a pause) or set to it closes its database; the database refuses
 *    transactions whenever the project is not ACTIVE_HEALTHY (see index.ts) and reopens, rows intact, after a restore.
 */
import type { Queryable } from '../../db'
import type { Lifecycle } from '../../engine/lifecycle'
import { ensureProjectDatabase } from './index'
import type { ProjectDatabases } from './types'

async function refOf(tx: Queryable, projectId: number): Promise<string | undefined> {
  const { rows } = await tx.query<{ ref: string }>('select ref from projects where id = $1', [projectId])
  return rows[0]?.ref
}

export function registerProjectDbLifecycle(
  lifecycle: Lifecycle,
  dbs: ProjectDatabases,
  log: (msg: string) => void = (msg) => console.error(msg),
): void {
  /** Not awaited: a transaction in flight finishes first, and the store's transaction does not wait for it. */
  const closeSoon = (ref: string) => {
    dbs.close(ref).catch((err: Error) => log(`projectdb: closing ${ref} failed: ${err.message}`))
  }
  lifecycle.onArrival(async (tx, projectId, status) => {
    if (status !== 'ACTIVE_HEALTHY' && status !== 'INACTIVE') return
    const ref = await refOf(tx, projectId)
    if (!ref) return
    if (status === 'ACTIVE_HEALTHY') await ensureProjectDatabase(tx, dbs, ref)
    else closeSoon(ref)
  })
  lifecycle.onEntry(async (tx, projectId, status) => {
    if (status !== 'INACTIVE') return
    const ref = await refOf(tx, projectId)
    if (ref) closeSoon(ref)
  })
}
