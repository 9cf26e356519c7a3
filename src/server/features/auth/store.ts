/**
 * The auth service's reads and writes of schema auth in a project's database, and the JSON shapes it answers with
 * (a user, a session) as the platform's auth service writes them.
 */
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import bcrypt from 'bcryptjs'
import type { ProjectTx } from '../../projectdb/types'
import { authError } from './errors'

/** bcrypt's cost as the platform hashes passwords. */
export const BCRYPT_COST = 10
/** bcrypt reads at most 72 bytes: a longer password would be cut silently, so it is refused. */
export const MAX_PASSWORD_BYTES = 72
/** How long an e-mailed link or code stays valid. */
export const OTP_TTL_MS = 60 * 60_000

export interface UserRow {
  id: string
  aud: string | null
  role: string | null
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: Date | string | null
  invited_at: Date | string | null
  confirmation_sent_at: Date | string | null
  recovery_sent_at: Date | string | null
  email_change: string | null
  email_change_sent_at: Date | string | null
  last_sign_in_at: Date | string | null
  raw_app_meta_data: Record<string, unknown> | null
  raw_user_meta_data: Record<string, unknown> | null
  created_at: Date | string | null
  updated_at: Date | string | null
  phone: string | null
  phone_confirmed_at: Date | string | null
  confirmed_at: Date | string | null
  banned_until: Date | string | null
  is_anonymous: boolean
  confirmation_token: string | null
  recovery_token: string | null
  email_change_token_new: string | null
}

export const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_sent_at,
  recovery_sent_at, email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at,
  updated_at, phone, phone_confirmed_at, confirmed_at, banned_until, is_anonymous, confirmation_token, recovery_token,
  email_change_token_new`

interface IdentityRow {
  id: string
  provider_id: string
  user_id: string
  identity_data: Record<string, unknown>
  provider: string
  last_sign_in_at: Date | string | null
  created_at: Date | string | null
  updated_at: Date | string | null
  email: string | null
}

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

export function checkPassword(password: unknown, minLength: number): string {
  if (typeof password !== 'string' || password.length === 0) throw authError(422, 'validation_failed', 'Password is required')
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw authError(422, 'validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  }
  if ([...password].length < minLength) {
    throw Object.assign(authError(422, 'weak_password', `Password should be at least ${minLength} characters.`), { reasons: ['length'] })
  }
  return password
}

export const hashPassword = (password: string) => bcrypt.hash(password, BCRYPT_COST)

let dummyHash: Promise<string> | undefined
/**
 * Whether the password matches the stored bcrypt hash (the platform's `$2a$`/`$2b$` hashes too). Without a user or
 * a hash, a comparison against a throwaway hash still runs, so an unknown e-mail answers in the same time.
 */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= bcrypt.hash(randomBytes(16).toString('hex'), BCRYPT_COST)
    await bcrypt.compare(password, await dummyHash)
    return false
  }
  try {
    return await bcrypt.compare(password, hash)
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
    confirmation_sent_at: iso(u.confirmation_sent_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    email_change_sent_at: iso(u.email_change_sent_at),
    new_email: u.email_change || undefined,
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

export async function userById(tx: ProjectTx, id: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null`, [id])
  return rows[0]
}

export async function userByEmail(tx: ProjectTx, email: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = $1 and is_sso_user = false and deleted_at is null`,
    [email],
  )
  return rows[0]
}

export async function withIdentities(tx: ProjectTx, u: UserRow): Promise<UserJson> {
  const { rows } = await tx.query<IdentityRow>(`select * from auth.identities where user_id = $1 order by created_at`, [u.id])
  return userJson(u, rows)
}

/** A new e-mail user and its identity. */
export async function insertUser(
  tx: ProjectTx,
  opts: { email: string; passwordHash: string | null; confirmedAt: Date | null; userMeta?: Record<string, unknown>; appMeta?: Record<string, unknown>; invitedAt?: Date | null; now: Date },
): Promise<UserRow> {
  const id = randomUUID()
  const appMeta = { provider: 'email', providers: ['email'], ...opts.appMeta }
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, $4, $5, $6, $7, $8, $8, false, false)`,
    [id, opts.email, opts.passwordHash, opts.confirmedAt, opts.invitedAt ?? null, JSON.stringify(appMeta), JSON.stringify(opts.userMeta ?? {}), opts.now],
  )
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, 'email', $4, $4)`,
    [id, id, JSON.stringify({ sub: id, email: opts.email, email_verified: opts.confirmedAt !== null, phone_verified: false }), opts.now],
  )
  return (await userById(tx, id))!
}

export async function audit(tx: ProjectTx, action: string, actor: { id: string; email?: string | null } | null, ip: string | undefined, now: Date, traits: Record<string, unknown> = {}) {
  await tx.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ('00000000-0000-0000-0000-000000000000', $1, $2, $3, $4)`,
    [
      randomUUID(),
      JSON.stringify({ action, actor_id: actor?.id ?? '00000000-0000-0000-0000-000000000000', actor_username: actor?.email ?? '', log_type: 'account', traits }),
      now,
      (ip ?? '').slice(0, 64),
    ],
  )
}
