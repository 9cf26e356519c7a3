/**
 * Where the project database meets the lifecycle:
 *  - a project arriving at ACTIVE_HEALTHY through a timed transition (the end of COMING_UP) gets its database first,
 *    as that transition's project work (outside the store's transaction: making a database takes a while, and on
 *    PGlite a store transaction stops every other request); the new status is recorded after it, so a server stopped
 *    half-way leaves the project COMING_UP and the next claim finishes the (idempotent) creation;
 *  - a project entering COMING_UP takes the engine's server_version as its db_version (what the dashboard shows is
 *    what the database says);
 *  - a project arriving at INACTIVE (the end of a pause) or set to it closes its database; the database refuses
 *    transactions whenever the project is not ACTIVE_HEALTHY (see index.ts) and reopens, rows intact, after a restore.
 */
import type { Queryable } from '../db'
import type { Lifecycle } from '../engine/lifecycle'
import { engineVersionIn, ensureProjectDatabase } from './index'
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
  lifecycle.beforeArrival('ACTIVE_HEALTHY', async (store, projectId) => {
    const ref = await refOf(store, projectId)
    if (ref) await ensureProjectDatabase(store, dbs, ref)
  })
  lifecycle.onArrival(async (tx, projectId, status) => {
    if (status !== 'INACTIVE') return
    const ref = await refOf(tx, projectId)
    if (ref) closeSoon(ref)
  })
  lifecycle.onEntry(async (tx, projectId, status) => {
    if (status !== 'INACTIVE' && status !== 'COMING_UP') return
    const ref = await refOf(tx, projectId)
    if (!ref) return
    if (status === 'INACTIVE') return closeSoon(ref)
    // A project coming up shows the version of the database it is about to get (one that already has a database,
    // set to COMING_UP again by a development control, keeps its version).
    if (!(await dbs.exists(ref))) {
      await tx.query('update projects set db_version = $2 where id = $1', [projectId, await engineVersionIn(tx)])
    }
  })
}
