/**
 * The development switches of a project (table dev_switches): a row is a switch that is on. The development
 * controls set and clear them; the lifecycle takes one (reads and deletes it) when it fails the operation it names.
 */
import type { Queryable } from '../db'

export type DevSwitch = 'fail_next_restore' | 'fail_next_jwt_update' | 'fail_next_upgrade'

/** Turns a switch on (again); `atStep` is the step of fail_next_upgrade and nothing for the others. */
export async function setDevSwitch(db: Queryable, projectId: number, name: DevSwitch, atStep: number | null = null): Promise<void> {
  await db.query(
    `insert into dev_switches (project_id, name, at_step) values ($1, $2, $3)
     on conflict (project_id, name) do update set at_step = excluded.at_step`,
    [projectId, name, atStep],
  )
}

export async function clearDevSwitch(db: Queryable, projectId: number, name: DevSwitch): Promise<void> {
  await db.query('delete from dev_switches where project_id = $1 and name = $2', [projectId, name])
}

/** Uses a switch up: it is off afterwards. Undefined when it was not on. */
export async function takeDevSwitch(
  tx: Queryable,
  projectId: number,
  name: DevSwitch,
): Promise<{ at_step: number | null } | undefined> {
  const { rows } = await tx.query<{ at_step: number | null }>(
    'delete from dev_switches where project_id = $1 and name = $2 returning at_step',
    [projectId, name],
  )
  return rows[0]
}
