/**
 * The auth service's rate limits, as the platform counts them, per project: per client address and 5 minutes for
 * sign-ups and password sign-ins (rate_limit_verify), refreshed sessions (rate_limit_token_refresh) and OTP / link
 * requests and verifications (rate_limit_otp); per project and hour for e-mails sent (rate_limit_email_sent) and
 * text messages sent (rate_limit_sms_sent); and per e-mail address or phone, failed password sign-ins (10 in 5
 * minutes), so guessing one account's password from many addresses is bounded too.
 *
 * Counted in fixed windows in the platform's store (project_auth_rate_limits), not in a process's memory: a restart
 * does not give an attacker a fresh allowance, and several processes on one PostgreSQL count together. Each count is
 * one atomic upsert, so a burst of parallel requests cannot all pass a check made before any of them was counted.
 */
import type { Clock } from '../../config'
import type { Queryable } from '../../db'
import { authError } from './errors'
import { clearHits, countHit, hitsOf, sweepHits } from './store'

export const FIVE_MINUTES = 5 * 60_000
export const HOUR = 60 * 60_000
export const FAILED_SIGN_INS_PER_EMAIL = 10
/** How often a process sweeps the rows of finished windows (the longest window is an hour). */
const SWEEP_EVERY_MS = 60_000

export class AuthThrottle {
  private lastSweep = 0
  constructor(
    private db: Queryable,
    private clock: Clock,
  ) {}

  /** Rows of finished windows are only dead weight: dropped now and then, by whichever process counts. */
  private async sweep(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    await sweepHits(this.db, new Date(now - HOUR))
  }

  /**
   * Counts one request of the project against `key`; throws 429 (`errorCode`, with Retry-After: the seconds left
   * in the window) once more than `limit` were counted in the window.
   */
  async take(projectId: number, key: string, limit: number, spanMs = FIVE_MINUTES, errorCode = 'over_request_rate_limit'): Promise<void> {
    const now = this.clock.now().getTime()
    await this.sweep(now)
    const { hits, windowStartedAt } = await countHit(this.db, projectId, key, new Date(now), new Date(now - spanMs))
    if (hits > limit) {
      const retry = Math.max(1, Math.ceil((windowStartedAt.getTime() + spanMs - now) / 1000))
      const message =
        errorCode === 'over_email_send_rate_limit' ? 'email rate limit exceeded' : errorCode === 'over_sms_send_rate_limit' ? 'SMS rate limit exceeded' : 'Request rate limit reached'
      throw authError(429, errorCode, message, { 'retry-after': String(retry) })
    }
  }

  /** Whether `key` already counted `limit` requests in its current window (nothing counted). */
  async over(projectId: number, key: string, limit: number, spanMs = FIVE_MINUTES): Promise<boolean> {
    const now = this.clock.now().getTime()
    return (await hitsOf(this.db, projectId, key, new Date(now - spanMs))) >= limit
  }

  async clear(projectId: number, key: string): Promise<void> {
    await clearHits(this.db, projectId, key)
  }
}
