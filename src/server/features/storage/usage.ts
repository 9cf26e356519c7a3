/**
 * Storage size for the usage pages: the bytes of every object the projects keep on disk now (objects of a paused
 * project included: pausing keeps them). Egress needs nothing here: the gateway meters every answer of the storage
 * service with the rest of the project's API.
 */
import type { Queryable } from '../../db'
import { DiskObjects } from './disk'
import { storageRoot } from './service'

export async function storedBytes(db: Queryable, dataDir: string, scope: { organizationId: number; projectId: number | null }): Promise<number> {
  const { rows } = await db.query<{ ref: string }>('select ref from projects where organization_id = $1 and ($2::int is null or id = $2)', [
    scope.organizationId,
    scope.projectId,
  ])
  const disk = new DiskObjects(storageRoot(dataDir))
  let total = 0
  for (const { ref } of rows) total += await disk.projectBytes(ref)
  return total
}
