/** The SQL of the development controls: the organization a dev project goes in, a database opened, the API server's flag. */
import type { PostgrestStatus } from '../../../contracts/common'
import type { Queryable } from '../../db'
import type { ProjectTx } from '../../projectdb/types'

/** The organization's id by its slug; undefined for an unknown one. */
export async function organizationIdOf(tx: Queryable, slug: string): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number }>('select id from organizations where slug = $1', [slug])
  return rows[0]?.id
}

/** One trivial statement: opening the transaction is what opens the project's database. */
export async function touchDatabase(tx: ProjectTx): Promise<void> {
  await tx.query('select 1')
}

export async function setPostgrestStatus(db: Queryable, projectId: number, status: PostgrestStatus, now: Date): Promise<void> {
  await db.query('update projects set postgrest_status = $2, updated_at = $3 where id = $1', [projectId, status, now.toISOString()])
}
