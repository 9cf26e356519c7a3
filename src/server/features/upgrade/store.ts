/** The SQL of Postgres upgrades: the project_upgrades rows, and the project's version and status they start from. */
import { UpgradeError, UpgradeProgress, UPGRADE_STATUS_CODES, type DatabaseUpgradeStatusWire, type UpgradeStatusWord } from '../../../contracts/upgrade'
import type { ProjectStatus } from '../../../contracts/common'
import { iso } from '../../core/rows'
import type { Queryable } from '../../db'

export interface UpgradeRow {
  id: number
  project_id: number
  tracking_id: string
  from_version: string
  target_version: string
  release_channel: string
  status: UpgradeStatusWord
  progress: string
  error: string | null
  fail_at_step: number | null
  initiated_at: Date | string
  latest_status_at: Date | string
}

export function toUpgradeStatus(row: UpgradeRow): DatabaseUpgradeStatusWire {
  return {
    initiated_at: iso(row.initiated_at),
    latest_status_at: iso(row.latest_status_at),
    target_version: Number.parseInt(row.target_version, 10),
    status: UPGRADE_STATUS_CODES[row.status],
    progress: UpgradeProgress.parse(row.progress),
    ...(row.error ? { error: UpgradeError.parse(row.error) } : {}),
  }
}

/** The project's status and Postgres version, its row locked (two upgrade requests for it are serialised). */
export async function lockProjectForUpgrade(tx: Queryable, projectId: number): Promise<{ status: ProjectStatus; db_version: string }> {
  const { rows } = await tx.query<{ status: ProjectStatus; db_version: string }>('select status, db_version from projects where id = $1 for update', [
    projectId,
  ])
  return rows[0]
}

/** The project's Postgres version; undefined for a project that is gone. */
export async function dbVersionOf(tx: Queryable, projectId: number): Promise<string | undefined> {
  const { rows } = await tx.query<{ db_version: string }>('select db_version from projects where id = $1', [projectId])
  return rows[0]?.db_version
}

export async function setDbVersion(tx: Queryable, projectId: number, dbVersion: string): Promise<void> {
  await tx.query('update projects set db_version = $2 where id = $1', [projectId, dbVersion])
}

/** The latest upgrade of the project (or the one with this tracking id). */
export async function latestUpgrade(db: Queryable, projectId: number, trackingId?: string): Promise<UpgradeRow | undefined> {
  const { rows } = await db.query<UpgradeRow>(
    `select * from project_upgrades where project_id = $1 and ($2::text is null or tracking_id = $2)
     order by initiated_at desc, id desc limit 1`,
    [projectId, trackingId ?? null],
  )
  return rows[0]
}

/** Closes as failed, with `error`, every upgrade of the project still marked running. */
export async function failRunningUpgrades(tx: Queryable, projectId: number, error: UpgradeError, now: Date): Promise<void> {
  await tx.query(
    `update project_upgrades set status = 'failed', error = $2, latest_status_at = $3 where project_id = $1 and status = 'upgrading'`,
    [projectId, error, now.toISOString()],
  )
}

/** A new running upgrade at 0_requested; returns its id. */
export async function insertUpgrade(
  tx: Queryable,
  u: { projectId: number; trackingId: string; fromVersion: string; targetVersion: string; releaseChannel: string; failAtStep: number | null; now: Date },
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into project_upgrades (project_id, tracking_id, from_version, target_version, release_channel, status, progress,
       fail_at_step, initiated_at, latest_status_at)
     values ($1, $2, $3, $4, $5, 'upgrading', '0_requested', $6, $7, $7) returning id`,
    [u.projectId, u.trackingId, u.fromVersion, u.targetVersion, u.releaseChannel, u.failAtStep, u.now.toISOString()],
  )
  return rows[0].id
}

/** The upgrade, its row locked. */
export async function lockUpgrade(tx: Queryable, upgradeId: number): Promise<UpgradeRow | undefined> {
  const { rows } = await tx.query<UpgradeRow>('select * from project_upgrades where id = $1 for update', [upgradeId])
  return rows[0]
}

export async function failUpgrade(tx: Queryable, upgradeId: number, error: UpgradeError, now: Date): Promise<void> {
  await tx.query(`update project_upgrades set status = 'failed', error = $2, latest_status_at = $3 where id = $1`, [
    upgradeId,
    error,
    now.toISOString(),
  ])
}

export async function advanceUpgrade(tx: Queryable, upgradeId: number, progress: UpgradeProgress, status: UpgradeStatusWord, now: Date): Promise<void> {
  await tx.query(`update project_upgrades set progress = $2, status = $3, latest_status_at = $4 where id = $1`, [
    upgradeId,
    progress,
    status,
    now.toISOString(),
  ])
}
