/**
 * Sign-in and sign-up throttling.
 *
 * Policy (numbers from config.signInThrottle), in a fixed 15-minute window:
 *  - at most 5 failed sign-ins for one e-mail *from one client address* (the pair): a stranger's guesses use up the
 *    stranger's pair, and the owner signing in from their own address is not locked out by them;
 *  - at most 100 failed sign-ins for one e-mail from all addresses together: guessing spread over many addresses is
 *    still bounded (it takes 20 addresses at 5 guesses each to lock the account, a cost the attacker pays);
 *  - at most 20 failed sign-ins from one client address, whatever the e-mails;
 *  - at most 5 sign-ups from one client address, successful or not (accounts cost organizations and disk).
 * Past any of them the answer is 429 with Retry-After (the seconds left in the window), without looking at the
 * password, so the right password does not get through either. A success clears the pair's count and gives back
 * its attempt to the e-mail's and the address's counts. An unknown e-mail is counted like a known one: the
 * answers and their timing are the same. A request without a known address (in-process calls) counts as one
 * address of its own.
 *
 * Counted in the store, not in the memory of a process: several processes may share one PostgreSQL (DATABASE_URL),
 * and an attacker spreading attempts over them would otherwise get each process's allowance, and a restart would
 * clear the counts. It stays cheap: one upsert before the password check (which costs ~0.5 s of scrypt anyway) and
 * one update after a success. Each attempt is counted *before* the password is checked, in one atomic upsert, so a
 * burst of parallel attempts cannot all pass a check made before any of them had failed.
 */
import type { Context } from 'hono'
import type { ServerConfig } from '../../config'
import type { Db } from '../../db'
import { clearAttempts, countAttempts } from './store'

type Throttle = ServerConfig['signInThrottle']

/**
 * The client's address: the socket's remote address; with TRUST_PROXY=1, the last X-Forwarded-For entry (the one
 * the trusted proxy appended — entries left of it were written by the client and prove nothing). Undefined when the
 * request came without a socket (in-process `app.request` in tests).
 */
export function clientAddress(c: Context, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean)
    if (forwarded?.length) return forwarded[forwarded.length - 1]
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress
}

const accountKey = (email: string) => `account:${email}`
const addressKey = (address: string) => `address:${address}`
const pairKey = (email: string, address: string | undefined) => `pair:${address ?? ''} ${email}`
const signUpKey = (address: string) => `signup:${address}`

/** The limit of each kind of key (its prefix). */
function limitOf(key: string, throttle: Throttle): number {
  if (key.startsWith('pair:')) return throttle.maxPerPair
  if (key.startsWith('account:')) return throttle.maxPerAccount
  if (key.startsWith('signup:')) return throttle.maxSignUpsPerAddress
  return throttle.maxPerAddress
}

/**
 * Counts one attempt against each key, atomically; the seconds to wait when any key is now over its limit.
 * Rows of finished windows are only dead weight: sign-in is rare enough to sweep them here (indexed).
 */
async function countAgainst(db: Db, throttle: Throttle, keys: string[], now: Date): Promise<number | undefined> {
  const windowStart = new Date(now.getTime() - throttle.windowMs)
  const rows = await countAttempts(db, keys, now, windowStart)
  let waitMs = 0
  for (const row of rows) {
    if (row.failures <= limitOf(row.key, throttle)) continue
    const endsAt = new Date(row.window_started_at).getTime() + throttle.windowMs
    waitMs = Math.max(waitMs, endsAt - now.getTime())
  }
  return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined
}

/**
 * Counts this attempt against the (e-mail, address) pair, the e-mail and the client address. Returns the seconds to
 * wait when any is over its limit (the caller answers 429), or undefined when the attempt may go on to the password
 * check.
 */
export function countSignInAttempt(
  db: Db,
  throttle: Throttle,
  attempt: { email: string; address: string | undefined },
  now: Date,
): Promise<number | undefined> {
  const keys = [pairKey(attempt.email, attempt.address), accountKey(attempt.email), ...(attempt.address ? [addressKey(attempt.address)] : [])]
  return countAgainst(db, throttle, keys, now)
}

/**
 * Counts a sign-up from the client address (every one, successful or not: each success is an account and an
 * organization). The seconds to wait when the address is over its limit; undefined without a known address.
 */
export function countSignUp(db: Db, throttle: Throttle, address: string | undefined, now: Date): Promise<number | undefined> {
  return address ? countAgainst(db, throttle, [signUpKey(address)], now) : Promise.resolve(undefined)
}

/**
 * After a successful sign-in: the pair starts afresh, and the attempt counted against the e-mail and the address is
 * given back. The e-mail's count is not cleared: the owner's success must not hand a spread-out guesser a new
 * allowance.
 */
export async function clearSignInFailures(db: Db, attempt: { email: string; address: string | undefined }): Promise<void> {
  await clearAttempts(db, pairKey(attempt.email, attempt.address), [
    accountKey(attempt.email),
    ...(attempt.address ? [addressKey(attempt.address)] : []),
  ])
}
