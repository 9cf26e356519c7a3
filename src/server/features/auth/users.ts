/**
 * The auth service's users as it checks and answers them: e-mail and password rules, password hashes, one-time
 * codes and refresh tokens, and the JSON of a user as the platform's auth service writes it.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { hash as bcryptHash, verify as bcryptVerify } from '@node-rs/bcrypt'
import type { ProjectTx } from '../../projectdb/types'
import { authError } from './errors'
import { isLeakedPassword } from './leaked'
import type { AuthSettings } from './settings'
import { identitiesOf, type IdentityRow, type UserRow } from './store'

/** bcrypt's cost as the platform hashes passwords. */
export const BCRYPT_COST = 10
/** bcrypt reads at most 72 bytes: a longer password would be cut silently, so it is refused. */
export const MAX_PASSWORD_BYTES = 72
/** How long an e-mailed link or code stays valid. */
export const OTP_TTL_MS = 60 * 60_000

const iso = (v: Date | string | null | undefined): string | undefined => (v == null ? undefined : new Date(v).toISOString())

/** E-mails are stored trimmed, NFC-normalised and lower-cased, so one address is one user whatever its spelling. */
export function normaliseEmail(raw: unknown): string {
  if (typeof raw !== 'string') throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  const email = raw.trim().normalize('NFC').toLowerCase()
  if (email.length > 255 || !/^[^\s@"<>(),;:\\[\]]+@[^\s@"<>(),;:\\[\]]+\.[^\s@"<>(),;:\\[\].]{2,}$/u.test(email)) {
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  }
  return email
}

/**
 * A new password as the settings allow it: not empty, at most 72 bytes, at least the minimum length, and, with the
 * leaked-password rule on, not one of the common breached passwords (weak_password, reasons ['pwned'], as the
 * platform refuses it).
 */
export function checkPassword(password: unknown, settings: Pick<AuthSettings, 'password_min_length' | 'password_hibp_enabled'>): string {
  const minLength = settings.password_min_length
  if (typeof password !== 'string' || password.length === 0) throw authError(422, 'validation_failed', 'Password is required')
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw authError(422, 'validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  }
  if ([...password].length < minLength) {
    throw Object.assign(authError(422, 'weak_password', `Password should be at least ${minLength} characters.`), { reasons: ['length'] })
  }
  if (settings.password_hibp_enabled && isLeakedPassword(password)) {
    throw Object.assign(authError(422, 'weak_password', 'Password is known to be weak and easy to guess, please choose a different one.'), { reasons: ['pwned'] })
  }
  return password
}

/**
 * Hashing and comparing run natively on libuv's thread pool (@node-rs/bcrypt's async calls), never on the event
 * loop: a sign-up or sign-in costs one bcrypt at cost 10, and in pure JS that blocked every other project's requests
 * for its whole duration. The hashes are the platform's `$2b$10$` ones; `$2a$` hashes (bcryptjs', the platform's
 * imported users) verify the same.
 */
export const hashPassword = (password: string) => bcryptHash(password, { cost: BCRYPT_COST })

let dummyHash: Promise<string> | undefined
/**
 * Whether the password matches the stored bcrypt hash (the platform's `$2a$`/`$2b$` hashes too). Without a user or
 * a hash, a comparison against a throwaway hash still runs, so an unknown e-mail answers in the same time.
 */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
    await bcryptVerify(password, await dummyHash)
    return false
  }
  try {
    // A malformed stored hash is a mismatch (false), never an error.
    return await bcryptVerify(password, hash)
  } catch {
    return false
  }
}

/** The platform's one-time token: sha224 of the e-mail and the six-digit code, in hex; links carry it. */
export const tokenHash = (email: string, otp: string) => createHash('sha224').update(email + otp).digest('hex')
export const newOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0')
export const newRefreshToken = () => randomBytes(18).toString('base64url')

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export function userJson(u: UserRow, identities: IdentityRow[]) {
  const appMeta = u.raw_app_meta_data ?? { provider: 'email', providers: ['email'] }
  return {
    id: u.id,
    aud: u.aud ?? 'authenticated',
    role: u.role ?? 'authenticated',
    email: u.email ?? '',
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: u.phone ?? '',
    phone_confirmed_at: iso(u.phone_confirmed_at),
    confirmation_sent_at: iso(u.confirmation_sent_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    email_change_sent_at: iso(u.email_change_sent_at),
    new_email: u.email_change || undefined,
    new_phone: u.phone_change || undefined,
    phone_change_sent_at: iso(u.phone_change_sent_at),
    invited_at: iso(u.invited_at),
    confirmed_at: iso(u.confirmed_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    banned_until: iso(u.banned_until),
    app_metadata: appMeta,
    user_metadata: u.raw_user_meta_data ?? {},
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    is_anonymous: u.is_anonymous,
  }
}
export type UserJson = ReturnType<typeof userJson>

/** The user as the service answers it, with its identities. */
export async function withIdentities(tx: ProjectTx, u: UserRow): Promise<UserJson> {
  return userJson(u, await identitiesOf(tx, u.id))
}
