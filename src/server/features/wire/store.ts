/**
 * What a login to the Postgres port needs to know of a project (its password's verifier: projectdb/password.ts; the
 * addresses it accepts), and the database settings the Management API keeps per project.
 */
import type { Db, Queryable } from '../../db'

export interface WireProject {
  id: number
  ref: string
  status: string
  organization_id: number
  verifier: string | null
  /** For the functions' login, whose password derives from it (projectdb/password.ts). */
  jwt_secret: string | null
  /** null: no restrictions were ever set (every address is accepted). */
  db_allowed_cidrs: string[] | null
  db_allowed_cidrs_v6: string[] | null
  /** The statement time-out the project set for its database (null: the platform's query time-out applies). */
  statement_timeout: string | null
}

export async function findWireProject(db: Queryable, ref: string): Promise<WireProject | undefined> {
  const { rows } = await db.query<WireProject>(
    `select p.id, p.ref, p.status, p.organization_id, pw.verifier, k.jwt_secret, nr.db_allowed_cidrs, nr.db_allowed_cidrs_v6,
            ps.settings ->> 'statement_timeout' as statement_timeout
       from projects p
       left join project_db_passwords pw on pw.project_id = p.id
       left join project_api_keys k on k.project_id = p.id
       left join project_network_restrictions nr on nr.project_id = p.id
       left join project_postgres_settings ps on ps.project_id = p.id
      where p.ref = $1`,
    [ref],
  )
  return rows[0]
}

export interface RestrictionsRow {
  db_allowed_cidrs: string[]
  db_allowed_cidrs_v6: string[]
  old_db_allowed_cidrs: string[] | null
  old_db_allowed_cidrs_v6: string[] | null
  updated_at: Date | string
  applied_at: Date | string
}

export async function findRestrictions(db: Queryable, projectId: number): Promise<RestrictionsRow | undefined> {
  const { rows } = await db.query<RestrictionsRow>(
    `select db_allowed_cidrs, db_allowed_cidrs_v6, old_db_allowed_cidrs, old_db_allowed_cidrs_v6, updated_at, applied_at
       from project_network_restrictions where project_id = $1`,
    [projectId],
  )
  return rows[0]
}

/**
 * Replaces the allowed lists, keeping the lists they replace as the old config (the first time: every address). The port reads them at each start-up,
 * so they are applied as soon as they are stored.
 */
export async function saveRestrictions(db: Queryable, projectId: number, v4: string[], v6: string[], now: Date): Promise<RestrictionsRow> {
  const { rows } = await db.query<RestrictionsRow>(
    `insert into project_network_restrictions as nr
       (project_id, db_allowed_cidrs, db_allowed_cidrs_v6, old_db_allowed_cidrs, old_db_allowed_cidrs_v6, updated_at, applied_at)
     values ($1, $2, $3, array['0.0.0.0/0'], array['::/0'], $4, $4)
     on conflict (project_id) do update set
       old_db_allowed_cidrs = nr.db_allowed_cidrs, old_db_allowed_cidrs_v6 = nr.db_allowed_cidrs_v6,
       db_allowed_cidrs = excluded.db_allowed_cidrs, db_allowed_cidrs_v6 = excluded.db_allowed_cidrs_v6,
       updated_at = excluded.updated_at, applied_at = excluded.applied_at
     returning db_allowed_cidrs, db_allowed_cidrs_v6, old_db_allowed_cidrs, old_db_allowed_cidrs_v6, updated_at, applied_at`,
    [projectId, v4, v6, now.toISOString()],
  )
  return rows[0]
}

export interface PostgrestRow {
  db_schema: string
  max_rows: number
}

/** The project's REST settings, undefined when never changed (the defaults apply). */
export async function findPostgrestConfig(db: Queryable, projectId: number): Promise<PostgrestRow | undefined> {
  const { rows } = await db.query<PostgrestRow>('select db_schema, max_rows from project_postgrest_config where project_id = $1', [projectId])
  return rows[0]
}

export async function savePostgrestConfig(db: Queryable, projectId: number, row: PostgrestRow, now: Date): Promise<void> {
  await db.query(
    `insert into project_postgrest_config (project_id, db_schema, max_rows, updated_at) values ($1, $2, $3, $4)
     on conflict (project_id) do update set db_schema = excluded.db_schema, max_rows = excluded.max_rows, updated_at = excluded.updated_at`,
    [projectId, row.db_schema, row.max_rows, now.toISOString()],
  )
}

/** The platform's read-only mode of the project (features/usage sets it with the resource warnings). */
export async function readOnlyModeOf(db: Queryable, projectId: number): Promise<boolean> {
  const { rows } = await db.query<{ enabled: boolean }>('select is_readonly_mode_enabled as enabled from project_resource_warnings where project_id = $1', [projectId])
  return rows[0]?.enabled ?? false
}

/** The Postgres settings the project set (name → value as SHOW prints it); empty when it set none. */
export async function findPostgresSettings(db: Queryable, projectId: number): Promise<Record<string, string | number>> {
  const { rows } = await db.query<{ settings: Record<string, string | number> | string }>(
    'select settings from project_postgres_settings where project_id = $1',
    [projectId],
  )
  const settings = rows[0]?.settings
  return typeof settings === 'string' ? (JSON.parse(settings) as Record<string, string | number>) : (settings ?? {})
}

export async function savePostgresSettings(db: Queryable, projectId: number, settings: Record<string, string | number>, now: Date): Promise<void> {
  await db.query(
    `insert into project_postgres_settings (project_id, settings, updated_at) values ($1, $2::jsonb, $3)
     on conflict (project_id) do update set settings = excluded.settings, updated_at = excluded.updated_at`,
    [projectId, JSON.stringify(settings), now.toISOString()],
  )
}

/** Arbitrary constant (an int4, paired with the project's id): one claim of a project's connection slots at a time. */
const CLIENTS_LOCK_CLASS = 72_620_250
/**
 * Takes one of the project's connection slots for this listener (its process entry, core/processes.ts), unless the
 * live listeners hold `max` already. A listener whose entry has not been renewed for `liveMs` is gone (its process was
 * killed): its clients no longer count. Its counts go with its entry (removed on close, or swept an hour later).
 */
export async function claimClient(db: Db, listenerId: string, projectId: number, max: number, liveMs: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1, $2)', [CLIENTS_LOCK_CLASS, projectId])
    const { rows } = await tx.query<{ n: number }>(
      `select coalesce(sum(c.clients), 0)::int as n from wire_client_counts c join platform_processes p on p.id = c.process_id
        where c.project_id = $1 and p.seen_at > now() - make_interval(secs => $2::int / 1000.0)`,
      [projectId, liveMs],
    )
    if (Number(rows[0].n) >= max) return false
    await tx.query(
      `insert into wire_client_counts as w (process_id, project_id, clients) values ($1, $2, 1)
       on conflict (process_id, project_id) do update set clients = w.clients + 1`,
      [listenerId, projectId],
    )
    return true
  })
}

export async function releaseClient(db: Queryable, listenerId: string, projectId: number): Promise<void> {
  await db.query('update wire_client_counts set clients = greatest(clients - 1, 0) where process_id = $1 and project_id = $2', [listenerId, projectId])
}
