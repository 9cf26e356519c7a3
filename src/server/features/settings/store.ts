/**
 * The SQL of a project's settings: its custom hostname, its add-ons (platform store), and the facts of how its
 * database is reached (asked of the project's own database).
 */
import type { AddonType, AddonVariantId, CustomHostnameStatus } from '../../../contracts/settings'
import type { Queryable } from '../../db'
import type { ProjectTx } from '../../projectdb/types'

export interface HostnameRow {
  id: string
  hostname: string
  status: CustomHostnameStatus
}

export async function findHostname(db: Queryable, projectId: number): Promise<HostnameRow | undefined> {
  const { rows } = await db.query<HostnameRow>('select id, hostname, status from project_custom_hostnames where project_id = $1', [projectId])
  return rows[0]
}

/** Sets the project's one custom hostname (replacing any) at a status. */
export async function upsertHostname(
  db: Queryable,
  h: { projectId: number; id: string; hostname: string; status: CustomHostnameStatus; now: Date },
): Promise<HostnameRow> {
  const { rows } = await db.query<HostnameRow>(
    `insert into project_custom_hostnames (project_id, id, hostname, status, updated_at) values ($1, $2, $3, $4, $5)
     on conflict (project_id) do update set hostname = excluded.hostname, status = excluded.status, updated_at = excluded.updated_at
     returning id, hostname, status`,
    [h.projectId, h.id, h.hostname, h.status, h.now.toISOString()],
  )
  return rows[0]
}

export async function deleteHostname(db: Queryable, projectId: number): Promise<void> {
  await db.query('delete from project_custom_hostnames where project_id = $1', [projectId])
}

export interface AddonRow {
  type: AddonType
  variant: AddonVariantId
}

export async function listAddons(db: Queryable, projectId: number): Promise<AddonRow[]> {
  const { rows } = await db.query<AddonRow>('select type, variant from project_addons where project_id = $1 order by type', [projectId])
  return rows
}

/** Adds the add-on, or changes the variant of the one of that type. */
export async function upsertAddon(db: Queryable, projectId: number, addon: AddonRow, now: Date): Promise<void> {
  await db.query(
    `insert into project_addons (project_id, type, variant, inserted_at) values ($1, $2, $3, $4)
     on conflict (project_id, type) do update set variant = excluded.variant`,
    [projectId, addon.type, addon.variant, now.toISOString()],
  )
}

/** Removes the add-on of that type; whether there was one. */
export async function deleteAddon(db: Queryable, projectId: number, type: AddonType): Promise<boolean> {
  const { rows } = await db.query<{ type: AddonType }>('delete from project_addons where project_id = $1 and type = $2 returning type', [
    projectId,
    type,
  ])
  return rows.length > 0
}

export interface DatabaseFactsRow {
  database: string
  user: string
  port: number | null
  server_version: string
  max_connections: number
  /** bigint: the driver may give a string. */
  size_bytes: string | number
}

/** How the project's database describes itself: its name, the role asked as, port, version, limits and size. */
export async function readDatabaseFacts(tx: ProjectTx): Promise<DatabaseFactsRow> {
  const { rows } = await tx.query<DatabaseFactsRow>(
    `select current_database() as database, current_user as "user", inet_server_port() as port,
       current_setting('server_version') as server_version, current_setting('max_connections')::int as max_connections,
       pg_database_size(current_database())::bigint as size_bytes`,
  )
  return rows[0]
}
