/**
 * Spec 6, the one rule of both screens that show a project's API keys (settings/api and the API docs panel): seeing,
 * copying or revealing a key needs service_api_keys:read, and the JWT secret in the updated state. Without the
 * permission, or while an update runs or after one failed, the key's place says why instead.
 */
import type { JwtPhase } from './jwtSecret.machine'

export const PERMISSION_TEXT = 'You need additional permissions to view API keys'
export const UPDATING_TEXT = 'JWT secret is being updated'
export const FAILED_TEXT = 'JWT secret update failed, new API key may have issues'

/** The JWT secret update status as last read; 'unknown' until the first read answers. */
export type JwtStatus = JwtPhase | 'unknown'

export interface KeyAccess {
  /** The keys may be shown, copied and revealed. */
  usable: boolean
  /** What shows in a key's place when it may not be (null: the key, or its mask, shows). */
  notice: string | null
}

export function keyAccess(canReadKeys: boolean, jwtStatus: JwtStatus): KeyAccess {
  if (!canReadKeys) return { usable: false, notice: PERMISSION_TEXT }
  if (jwtStatus === 'updating') return { usable: false, notice: UPDATING_TEXT }
  if (jwtStatus === 'failed') return { usable: false, notice: FAILED_TEXT }
  // Not read yet: masked, nothing to say, and nothing to copy until the status says updated.
  return { usable: jwtStatus === 'updated', notice: null }
}
