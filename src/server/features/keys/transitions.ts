/**
 * The transitions the keys feature registers: the rotation's 'jwt.secret.update' (re-signs both keys with the
 * pending secret, or fails and keeps the old ones when the development control asks), and the API keys every project
 * past setting up has.
 */
import { takeDevSwitch } from '../../core/devSwitches'
import type { Queryable } from '../../db'
import type { Lifecycle, TransitionRow } from '../../engine/lifecycle'
import { ensureProjectKeys, isSettingUp, JWT_UPDATE_FAILURE_MESSAGE, JWT_UPDATE_KIND, signKeyPair } from './store'

/** The lifecycle handler of 'jwt.secret.update' (payload { update_id }). */
async function applyJwtSecretUpdate(tx: Queryable, row: TransitionRow, now: Date): Promise<string> {
  const updateId = Number((row.payload as { update_id?: unknown }).update_id)
  const { rows } = await tx.query<{ id: number; status: string; pending_secret: string | null; ref: string; has_keys: boolean }>(
    `select u.id, u.status, u.pending_secret, p.ref,
       exists(select 1 from project_api_keys k where k.project_id = u.project_id) as has_keys
     from jwt_secret_updates u join projects p on p.id = u.project_id
     where u.id = $1 and u.project_id = $2 for update of u`,
    [updateId, row.project_id],
  )
  const update = rows[0]
  if (!update) return 'skipped: no such update'
  if (update.status !== 'updating') return `skipped: update already ${update.status}`
  const stamp = now.toISOString()
  // The development switch is used up by the update it fails (a project without keys has no switch to use).
  const askedToFail = update.has_keys && (await takeDevSwitch(tx, row.project_id, 'fail_next_jwt_update')) !== undefined
  if (!update.has_keys || askedToFail || !update.pending_secret) {
    await tx.query(
      `update jwt_secret_updates set status = 'failed', progress = 'Failed', error = $2, pending_secret = null, updated_at = $3
       where id = $1`,
      [update.id, JWT_UPDATE_FAILURE_MESSAGE, stamp],
    )
    return 'applied: update failed, previous secret kept'
  }
  const keys = await signKeyPair(update.pending_secret, update.ref, now)
  await tx.query(
    `update project_api_keys set jwt_secret = $2, anon_key = $3, service_role_key = $4, updated_at = $5 where project_id = $1`,
    [row.project_id, update.pending_secret, keys.anon, keys.serviceRole, stamp],
  )
  await tx.query(
    `update jwt_secret_updates set status = 'updated', progress = 'Completed', error = null, pending_secret = null, updated_at = $2
     where id = $1`,
    [update.id, stamp],
  )
  return 'applied'
}

/**
 * What this feature gives the lifecycle engine: the handler of 'jwt.secret.update', and API keys for every project
 * past setting up (on entering any such status, and when a project has finished coming up).
 */
export function registerKeysLifecycle(lifecycle: Lifecycle): void {
  lifecycle.registerTransition(JWT_UPDATE_KIND, applyJwtSecretUpdate)
  lifecycle.onEntry(async (tx, projectId, status, now) => {
    // Past setting up, a project has its API keys (a no-op when it has them already).
    if (!isSettingUp(status)) await ensureProjectKeys(tx, projectId, now)
  })
  lifecycle.onArrival(async (tx, projectId, status, now) => {
    // A project that has finished coming up gets its JWT secret and API keys.
    if (status === 'ACTIVE_HEALTHY') await ensureProjectKeys(tx, projectId, now)
  })
}
