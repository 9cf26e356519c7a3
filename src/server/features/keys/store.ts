/**
 * Project API keys: a JWT secret per project and two keys signed with it (HS256): anon and service_role, with
 * the claims a client library expects (iss, ref, role, iat, exp). Keys exist once a project has finished
 * setting up. A rotation (roll or custom secret) is a jwt_secret_updates row plus a lifecycle transition of
 * kind 'jwt.secret.update' (transitions.ts): the engine re-signs both keys with the new secret, or, when the
 * development control asked for it, fails and leaves the old secret and keys in place. Secrets are never logged.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { SignJWT } from 'jose'
import type { ProjectStatus } from '../../../contracts/common'
import type { JwtSecretUpdateMeta } from '../../../contracts/keys'
import type { Queryable } from '../../db'
import { scheduleTransition } from '../../engine/lifecycle'

const JWT_ISSUER = 'supabase'
/** Keys are valid for about ten years, like the platform's own. */
const KEY_LIFETIME_S = 10 * 365 * 24 * 60 * 60
export const JWT_UPDATE_KIND = 'jwt.secret.update'
export const JWT_UPDATE_FAILURE_MESSAGE =
  'The new JWT secret could not be applied: the API gateway did not accept the re-signed keys. The previous secret and keys remain valid.'
const INTERRUPTED_MESSAGE = 'The JWT secret update was interrupted; the previous secret and keys remain valid.'

/** 48 characters drawn from 36 random bytes (base64url). */
function newJwtSecret(): string {
  return randomBytes(36).toString('base64url')
}

/** Constant-time equality of two secrets of any length (compares their SHA-256 digests). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest()
  const db = createHash('sha256').update(b).digest()
  return timingSafeEqual(da, db)
}

type KeyRole = 'anon' | 'service_role'

function signApiKey(secret: string, ref: string, role: KeyRole, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT({ ref, role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + KEY_LIFETIME_S)
    .sign(new TextEncoder().encode(secret))
}

export async function signKeyPair(secret: string, ref: string, now: Date) {
  const [anon, serviceRole] = await Promise.all([
    signApiKey(secret, ref, 'anon', now),
    signApiKey(secret, ref, 'service_role', now),
  ])
  return { anon, serviceRole }
}

export interface ProjectKeysRow {
  project_id: number
  jwt_secret: string
  anon_key: string
  service_role_key: string
  created_at: Date | string
  updated_at: Date | string
}

export async function findProjectKeys(db: Queryable, projectId: number): Promise<ProjectKeysRow | undefined> {
  const { rows } = await db.query<ProjectKeysRow>(
    `select project_id, jwt_secret, anon_key, service_role_key, created_at, updated_at
     from project_api_keys where project_id = $1`,
    [projectId],
  )
  return rows[0]
}

/** Creates the project's secret and keys unless it has them; idempotent. */
export async function ensureProjectKeys(tx: Queryable, projectId: number, now: Date): Promise<void> {
  const { rows } = await tx.query<{ ref: string; has_keys: boolean }>(
    `select p.ref, exists(select 1 from project_api_keys k where k.project_id = p.id) as has_keys
     from projects p where p.id = $1`,
    [projectId],
  )
  const project = rows[0]
  if (!project || project.has_keys) return
  const secret = newJwtSecret()
  const keys = await signKeyPair(secret, project.ref, now)
  await tx.query(
    `insert into project_api_keys (project_id, jwt_secret, anon_key, service_role_key, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $5) on conflict (project_id) do nothing`,
    [projectId, secret, keys.anon, keys.serviceRole, now.toISOString()],
  )
}

/** Statuses of a project still being set up: its keys come when it turns ACTIVE_HEALTHY. */
export function isSettingUp(status: ProjectStatus): boolean {
  return status === 'COMING_UP' || status === 'UNKNOWN'
}

/** At start: every project past setting up gets keys (projects created before migration 005). */
export async function backfillProjectKeys(tx: Queryable, now: Date): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `select p.id from projects p where p.status not in ('COMING_UP', 'UNKNOWN')
     and not exists (select 1 from project_api_keys k where k.project_id = p.id) order by p.id`,
  )
  for (const row of rows) await ensureProjectKeys(tx, row.id, now)
  return rows.length
}

interface UpdateRow {
  id: number
  project_id: number
  change_tracking_id: string
  status: JwtSecretUpdateMeta['status']
  progress: string
  error: string | null
}

export function toUpdateMeta(row: UpdateRow): JwtSecretUpdateMeta {
  return { change_tracking_id: row.change_tracking_id, error: row.error, progress: row.progress, status: row.status }
}

/**
 * An update still 'updating' whose transition is gone (cancelled by a status change from outside, or failed in
 * the engine) can never finish: it is marked failed, the old secret staying in place.
 */
export async function failStaleUpdates(tx: Queryable, projectId: number, now: Date): Promise<void> {
  await tx.query(
    `update jwt_secret_updates u set status = 'failed', progress = 'Failed', error = $3, pending_secret = null, updated_at = $2
     where u.project_id = $1 and u.status = 'updating' and not exists (
       select 1 from lifecycle_transitions t
       where t.kind = $4 and t.payload->>'update_id' = u.id::text and t.done_at is null and t.cancelled_at is null)`,
    [projectId, now.toISOString(), INTERRUPTED_MESSAGE, JWT_UPDATE_KIND],
  )
}

export async function latestUpdate(tx: Queryable, projectId: number): Promise<UpdateRow | undefined> {
  const { rows } = await tx.query<UpdateRow>(
    `select id, project_id, change_tracking_id, status, progress, error from jwt_secret_updates
     where project_id = $1 order by id desc limit 1`,
    [projectId],
  )
  return rows[0]
}

type RequestUpdateResult =
  | { ok: true; changeTrackingId: string }
  | { ok: false; status: 409 | 400; message: string }

/** Starts a rotation: the new secret waits in the update row until the engine applies it after `delayMs`. */
export async function requestJwtSecretUpdate(
  tx: Queryable,
  projectId: number,
  customSecret: string | undefined,
  now: Date,
  delayMs: number,
): Promise<RequestUpdateResult> {
  const { rows } = await tx.query<{ jwt_secret: string }>(
    'select jwt_secret from project_api_keys where project_id = $1 for update',
    [projectId],
  )
  const current = rows[0]
  if (!current) return { ok: false, status: 409, message: 'The project has no API keys yet: wait until it has finished setting up' }
  await failStaleUpdates(tx, projectId, now)
  const running = await latestUpdate(tx, projectId)
  if (running?.status === 'updating') {
    return { ok: false, status: 409, message: 'A JWT secret update is already in progress for this project' }
  }
  if (customSecret !== undefined && secretsEqual(customSecret, current.jwt_secret)) {
    return { ok: false, status: 400, message: 'The new JWT secret must differ from the current one' }
  }
  const changeTrackingId = randomUUID()
  const { rows: inserted } = await tx.query<{ id: number }>(
    `insert into jwt_secret_updates (project_id, change_tracking_id, status, progress, pending_secret, created_at, updated_at)
     values ($1, $2, 'updating', 'Started', $3, $4, $4) returning id`,
    [projectId, changeTrackingId, customSecret ?? newJwtSecret(), now.toISOString()],
  )
  await scheduleTransition(tx, projectId, JWT_UPDATE_KIND, { update_id: inserted[0].id }, new Date(now.getTime() + delayMs), now)
  return { ok: true, changeTrackingId }
}

export interface PendingUpdateRow {
  id: number
  status: string
  pending_secret: string | null
  ref: string
  /** Whether the project has keys to re-sign (a project still setting up has none). */
  has_keys: boolean
}

/** The project's secret update with the project's ref, the update's row locked. */
export async function lockPendingUpdate(tx: Queryable, updateId: number, projectId: number): Promise<PendingUpdateRow | undefined> {
  const { rows } = await tx.query<PendingUpdateRow>(
    `select u.id, u.status, u.pending_secret, p.ref,
       exists(select 1 from project_api_keys k where k.project_id = u.project_id) as has_keys
     from jwt_secret_updates u join projects p on p.id = u.project_id
     where u.id = $1 and u.project_id = $2 for update of u`,
    [updateId, projectId],
  )
  return rows[0]
}

/** The update failed with `message`: its pending secret is dropped, the previous one kept. */
export async function failUpdate(tx: Queryable, updateId: number, message: string, now: Date): Promise<void> {
  await tx.query(
    `update jwt_secret_updates set status = 'failed', progress = 'Failed', error = $2, pending_secret = null, updated_at = $3
     where id = $1`,
    [updateId, message, now.toISOString()],
  )
}

/** The project's keys re-signed with the new secret, and the update completed. */
export async function completeUpdate(
  tx: Queryable,
  update: { id: number; projectId: number; secret: string; anon: string; serviceRole: string },
  now: Date,
): Promise<void> {
  const stamp = now.toISOString()
  await tx.query(
    `update project_api_keys set jwt_secret = $2, anon_key = $3, service_role_key = $4, updated_at = $5 where project_id = $1`,
    [update.projectId, update.secret, update.anon, update.serviceRole, stamp],
  )
  await tx.query(
    `update jwt_secret_updates set status = 'updated', progress = 'Completed', error = null, pending_secret = null, updated_at = $2
     where id = $1`,
    [update.id, stamp],
  )
}
