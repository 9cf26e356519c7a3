/** The SQL of pause and restore: the project's status read under its row lock, and the last restore's error. */
import type { ProjectStatus } from '../../../contracts/common'
import type { Queryable } from '../../db'

/** The project's status with its row locked (undefined for a project that is gone). */
export async function lockStatus(tx: Queryable, projectId: number): Promise<ProjectStatus | undefined> {
  const { rows } = await tx.query<{ status: ProjectStatus }>('select status from projects where id = $1 for update', [projectId])
  return rows[0]?.status
}

/** Locks the project's row if it is still RESTORING; whether it is. */
export async function lockIfRestoring(tx: Queryable, projectId: number): Promise<boolean> {
  const { rows } = await tx.query<{ id: number }>(`select id from projects where id = $1 and status = 'RESTORING' for update`, [projectId])
  return rows.length > 0
}

/** Records the restore's error message (null: none). */
export async function setRestoreError(tx: Queryable, projectId: number, message: string | null): Promise<void> {
  await tx.query('update projects set restore_error = $2 where id = $1', [projectId, message])
}

export async function restoreErrorOf(db: Queryable, projectId: number): Promise<string | null> {
  const { rows } = await db.query<{ restore_error: string | null }>('select restore_error from projects where id = $1', [projectId])
  return rows[0]?.restore_error ?? null
}
