/**
 * The SQL of the development controls: the organization a dev project goes in, a database opened, the API server's flag,
 * a project's next transition made due.
 */
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

/** Makes the project's earliest pending transition due at `now`; its id and kind, or undefined when none is pending. */
export async function makeNextTransitionDue(db: Queryable, projectId: number, now: Date): Promise<{ id: number; kind: string } | undefined> {
  const { rows } = await db.query<{ id: number; kind: string }>(
    `update lifecycle_transitions set due_at = $2
     where id = (select id from lifecycle_transitions where project_id = $1 and done_at is null and cancelled_at is null
                 order by due_at, id limit 1)
     returning id, kind`,
    [projectId, now.toISOString()],
  )
  return rows[0]
}

/** Where the transition stands: recorded (done or cancelled, with its outcome) or still pending. */
export async function transitionRecord(db: Queryable, id: number): Promise<{ finished: boolean; cancelled: boolean; outcome: string | null }> {
  const { rows } = await db.query<{ done: boolean; cancelled: boolean; outcome: string | null }>(
    'select done_at is not null as done, cancelled_at is not null as cancelled, outcome from lifecycle_transitions where id = $1',
    [id],
  )
  const row = rows[0]
  return { finished: !row || row.done || row.cancelled, cancelled: row?.cancelled ?? false, outcome: row?.outcome ?? null }
}
