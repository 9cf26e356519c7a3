/** The SQL of the timed status changes: whether a project is still in the status a change moves it from. */
import type { ProjectStatus } from '../../../contracts/common'
import type { Queryable } from '../../db'

export async function isInStatus(tx: Queryable, projectId: number, status: ProjectStatus): Promise<boolean> {
  const { rows } = await tx.query('select 1 from projects where id = $1 and status = $2', [projectId, status])
  return rows.length > 0
}
