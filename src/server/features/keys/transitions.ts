/**
 * The transitions the keys feature registers: the rotation's 'jwt.secret.update' (re-signs both keys with the
 * pending secret, or fails and keeps the old ones when the development control asks), and the API keys every project
 * past setting up has.
 */
import { takeDevSwitch } from '../../core/devSwitches'
import type { Queryable } from '../../db'
import type { Lifecycle, TransitionRow } from '../../engine/lifecycle'
import {
  completeUpdate,
  ensureProjectKeys,
  failUpdate,
  isSettingUp,
  JWT_UPDATE_FAILURE_MESSAGE,
  JWT_UPDATE_KIND,
  lockPendingUpdate,
  signKeyPair,
} from './store'

/** The lifecycle handler of 'jwt.secret.update' (payload { update_id }). */
async function applyJwtSecretUpdate(tx: Queryable, row: TransitionRow, now: Date): Promise<string> {
  const updateId = Number((row.payload as { update_id?: unknown }).update_id)
  const update = await lockPendingUpdate(tx, updateId, row.project_id)
  if (!update) return 'skipped: no such update'
  if (update.status !== 'updating') return `skipped: update already ${update.status}`
  // The development switch is used up by the update it fails (a project without keys has no switch to use).
  const askedToFail = update.has_keys && (await takeDevSwitch(tx, row.project_id, 'fail_next_jwt_update')) !== undefined
  if (!update.has_keys || askedToFail || !update.pending_secret) {
    await failUpdate(tx, update.id, JWT_UPDATE_FAILURE_MESSAGE, now)
    return 'applied: update failed, previous secret kept'
  }
  const keys = await signKeyPair(update.pending_secret, update.ref, now)
  await completeUpdate(tx, { id: update.id, projectId: row.project_id, secret: update.pending_secret, ...keys }, now)
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
