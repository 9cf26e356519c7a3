/**
 * The auth service's rate limits, as the platform counts them: per client address and 5 minutes for sign-ups and
 * password sign-ins (rate_limit_verify), refreshed sessions (rate_limit_token_refresh) and OTP / link requests and
 * verifications (rate_limit_otp); per project and hour for e-mails sent (rate_limit_email_sent); and per e-mail
 * address, failed password sign-ins (10 in 5 minutes), so guessing one account's password from many addresses is
 * bounded too. Counted in this process's memory, in fixed windows.
 */
import type { Clock } from '../../config'
import { authError } from './errors'

interface Window {
  start: number
  count: number
}

export const FIVE_MINUTES = 5 * 60_000
export const HOUR = 60 * 60_000
export const FAILED_SIGN_INS_PER_EMAIL = 10

export class AuthThrottle {
  private windows = new Map<string, Window>()
  constructor(private clock: Clock) {}

  private window(key: string, spanMs: number): Window {
    const now = this.clock.now().getTime()
    let w = this.windows.get(key)
    if (!w || now - w.start >= spanMs) {
      w = { start: now, count: 0 }
      this.windows.set(key, w)
      if (this.windows.size > 50_000) this.sweep(now)
    }
    return w
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= HOUR) this.windows.delete(k)
  }

  /** Counts one request against `key`; throws 429 over_request_rate_limit past `limit` in the window. */
  take(key: string, limit: number, spanMs = FIVE_MINUTES, errorCode = 'over_request_rate_limit'): void {
    const w = this.window(key, spanMs)
    if (w.count >= limit) {
      const retry = Math.max(1, Math.ceil((w.start + spanMs - this.clock.now().getTime()) / 1000))
      throw authError(429, errorCode, errorCode === 'over_email_send_rate_limit' ? 'email rate limit exceeded' : 'Request rate limit reached', {
        'retry-after': String(retry),
      })
    }
    w.count++
  }

  /** Whether `key` is already at `limit` (nothing counted). */
  over(key: string, limit: number, spanMs = FIVE_MINUTES): boolean {
    return this.window(key, spanMs).count >= limit
  }

  clear(key: string): void {
    this.windows.delete(key)
  }
}
