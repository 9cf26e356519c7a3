/**
 * The SQL of the auth service. Schema auth in the project's own database (users, identities, sessions, refresh
 * tokens, PKCE flows, the audit log), each function in the transaction it is given; and the platform store's
 * tables of the service (its settings, the local mailbox, the month's active users).
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../db'
import type { ProjectTx } from '../../projectdb/types'
import { AUTH_DEFAULTS, SETTING_COLUMNS, type AuthSettings } from './settings'

/** The instance id every row of schema auth carries (one instance per project database). */
const INSTANCE = '00000000-0000-0000-0000-000000000000'

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
  phone_change: string | null
  phone_change_token: string | null
  phone_change_sent_at: Date | string | null
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_sent_at,
  recovery_sent_at, email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at,
  updated_at, phone, phone_confirmed_at, confirmed_at, banned_until, is_anonymous, confirmation_token, recovery_token,
  email_change_token_new, phone_change, phone_change_token, phone_change_sent_at`

export interface IdentityRow {
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

/** The columns that hold a user's one-time tokens (a link's hash), each with the time it was sent. */
/** How a code reaches a phone: a text message or a WhatsApp message (auth-js' `channel`). */
export type PhoneChannel = 'sms' | 'whatsapp'

export type TokenColumn = 'confirmation_token' | 'recovery_token' | 'email_change_token_new'

// ---- users ---------------------------------------------------------------------------------------------------------

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

/** The user waiting for the e-mail change to this address. */
export async function userByNewEmail(tx: ProjectTx, email: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where email_change = $1 and deleted_at is null`, [email])
  return rows[0]
}

/** The user holding this one-time token in `column`. */
export async function userByToken(tx: ProjectTx, column: TokenColumn, hash: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${column} = $1 and deleted_at is null`, [hash])
  return rows[0]
}

export async function identitiesOf(tx: ProjectTx, userId: string): Promise<IdentityRow[]> {
  const { rows } = await tx.query<IdentityRow>(`select * from auth.identities where user_id = $1 order by created_at`, [userId])
  return rows
}

/** The identities of several users in one query (a page of the users list), each user's in creation order. */
export async function identitiesOfUsers(tx: ProjectTx, userIds: string[]): Promise<Map<string, IdentityRow[]>> {
  const byUser = new Map<string, IdentityRow[]>(userIds.map((id) => [id, []]))
  if (userIds.length === 0) return byUser
  const { rows } = await tx.query<IdentityRow>(`select * from auth.identities where user_id = any($1::uuid[]) order by created_at`, [userIds])
  for (const row of rows) byUser.get(row.user_id)?.push(row)
  return byUser
}

/** One page of the users (newest first) whose e-mail contains `filter` (lower case), and how many match in all. */
export async function listUsers(tx: ProjectTx, page: { limit: number; offset: number; filter: string }): Promise<{ rows: UserRow[]; total: number }> {
  const like = page.filter ? page.filter.replace(/[\\%_]/g, (m) => `\\${m}`) : undefined
  const where = `deleted_at is null${like !== undefined ? ` and lower(email) like '%' || $3 || '%'` : ''}`
  const params: unknown[] = [page.limit, page.offset, ...(like !== undefined ? [like] : [])]
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${where} order by created_at desc, id limit $1 offset $2`, params)
  const count = await tx.query<{ n: string | number }>(
    `select count(*) as n from auth.users where ${like !== undefined ? `deleted_at is null and lower(email) like '%' || $1 || '%'` : 'deleted_at is null'}`,
    like !== undefined ? [like] : [],
  )
  return { rows, total: Number(count.rows[0].n) }
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
     values ('${INSTANCE}', $1, 'authenticated', 'authenticated', $2, $3, $4, $5, $6, $7, $8, $8, false, false)`,
    [id, opts.email, opts.passwordHash, opts.confirmedAt, opts.invitedAt ?? null, JSON.stringify(appMeta), JSON.stringify(opts.userMeta ?? {}), opts.now],
  )
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, 'email', $4, $4)`,
    [id, id, JSON.stringify({ sub: id, email: opts.email, email_verified: opts.confirmedAt !== null, phone_verified: false }), opts.now],
  )
  return (await userById(tx, id))!
}

/** A sign-up again for an address not confirmed yet: the new password and metadata replace the old. */
export async function resetUnconfirmedUser(tx: ProjectTx, id: string, passwordHash: string, userMeta: Record<string, unknown>, now: Date) {
  await tx.query(`update auth.users set encrypted_password = $2, raw_user_meta_data = $3, updated_at = $4 where id = $1`, [id, passwordHash, JSON.stringify(userMeta), now])
}

export async function markSignedIn(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.users set last_sign_in_at = $2, updated_at = $2 where id = $1`, [id, now])
}

export async function markInvited(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.users set invited_at = $2 where id = $1`, [id, now])
}

export async function setEmail(tx: ProjectTx, id: string, email: string, now: Date) {
  await tx.query(`update auth.users set email = $2, updated_at = $3 where id = $1`, [id, email, now])
}

export async function setPassword(tx: ProjectTx, id: string, passwordHash: string, now: Date) {
  await tx.query(`update auth.users set encrypted_password = $2, updated_at = $3 where id = $1`, [id, passwordHash, now])
}

/** Confirms the e-mail (a confirmation already there is kept). */
export async function confirmEmail(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, $2) where id = $1`, [id, now])
}

/** Merges `patch` into the user's (user_metadata) or the platform's (app_metadata) metadata. */
export async function mergeMetadata(tx: ProjectTx, id: string, which: 'user' | 'app', patch: Record<string, unknown>, now: Date) {
  const column = which === 'user' ? 'raw_user_meta_data' : 'raw_app_meta_data'
  await tx.query(`update auth.users set ${column} = coalesce(${column}, '{}'::jsonb) || $2::jsonb, updated_at = $3 where id = $1`, [id, JSON.stringify(patch), now])
}

export async function setBannedUntil(tx: ProjectTx, id: string, until: Date | null, now: Date) {
  await tx.query(`update auth.users set banned_until = $2, updated_at = $3 where id = $1`, [id, until, now])
}

export async function deleteUser(tx: ProjectTx, id: string) {
  await tx.query(`delete from auth.users where id = $1`, [id])
}

// ---- phone users ---------------------------------------------------------------------------------------------------

export async function userByPhone(tx: ProjectTx, phone: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where phone = $1 and deleted_at is null`, [phone])
  return rows[0]
}

/** A new phone user and its identity. */
export async function insertPhoneUser(
  tx: ProjectTx,
  opts: { phone: string; passwordHash: string | null; confirmedAt: Date | null; userMeta?: Record<string, unknown>; now: Date },
): Promise<UserRow> {
  const id = randomUUID()
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, phone, encrypted_password, phone_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
     values ('${INSTANCE}', $1, 'authenticated', 'authenticated', $2, $3, $4, $5, $6, $7, $7, false, false)`,
    [id, opts.phone, opts.passwordHash, opts.confirmedAt, JSON.stringify({ provider: 'phone', providers: ['phone'] }), JSON.stringify(opts.userMeta ?? {}), opts.now],
  )
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, 'phone', $4, $4)`,
    [id, id, JSON.stringify({ sub: id, phone: opts.phone, email_verified: false, phone_verified: opts.confirmedAt !== null }), opts.now],
  )
  return (await userById(tx, id))!
}

/** Uses up a text message's code in `column`: the phone is confirmed by it. */
export async function usePhoneToken(tx: ProjectTx, id: string, column: 'confirmation_token' | 'recovery_token', now: Date) {
  await tx.query(`update auth.users set ${column} = '', phone_confirmed_at = coalesce(phone_confirmed_at, $2), updated_at = $2 where id = $1`, [id, now])
}

/** A phone change asked for: the new number and the hash of the code texted to it, until the code is used. */
export async function setPhoneChange(tx: ProjectTx, id: string, phone: string, hash: string, now: Date) {
  await tx.query(`update auth.users set phone_change = $2, phone_change_token = $3, phone_change_sent_at = $4 where id = $1`, [id, phone, hash, now])
}

/** The user who asked for `phone` as their new number. */
export async function userByPhoneChange(tx: ProjectTx, phone: string): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where phone_change = $1 and deleted_at is null`, [phone])
  return rows[0]
}

/**
 * The new number becomes the user's, confirmed by its code, and their phone identity follows it (made if the user
 * had none, as the platform adds one when an e-mail user gains a phone).
 */
export async function applyPhoneChange(tx: ProjectTx, id: string, now: Date) {
  await tx.query(
    `update auth.users set phone = phone_change, phone_change = '', phone_change_token = '', phone_confirmed_at = $2, updated_at = $2 where id = $1`,
    [id, now],
  )
  const { affectedRows } = await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('phone', (select phone from auth.users where id = $1), 'phone_verified', true), updated_at = $2
      where user_id = $1 and provider = 'phone'`,
    [id, now],
  )
  if (!affectedRows) {
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       select $1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'phone', phone, 'email_verified', false, 'phone_verified', true), 'phone', $2, $2, $2
         from auth.users where id = $1::uuid`,
      [id, now],
    )
  }
  await tx.query(
    `update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
       (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from jsonb_array_elements_text(coalesce(raw_app_meta_data->'providers', '[]'::jsonb) || '["phone"]'::jsonb) p))
      where id = $1`,
    [id],
  )
}

// ---- one-time tokens -----------------------------------------------------------------------------------------------

/** Puts a link's hash on the user, with the time it was sent; an e-mail change also records the address asked for. */
export async function setOneTimeToken(tx: ProjectTx, id: string, kind: 'confirmation' | 'recovery' | 'email_change', hash: string, now: Date, newEmail: string) {
  if (kind === 'recovery') {
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = $3 where id = $1`, [id, hash, now])
  } else if (kind === 'email_change') {
    await tx.query(`update auth.users set email_change_token_new = $2, email_change = $3, email_change_sent_at = $4 where id = $1`, [id, hash, newEmail, now])
  } else {
    await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = $3 where id = $1`, [id, hash, now])
  }
}

/** Uses up the token of `column`, the e-mail confirmed by it. */
export async function useToken(tx: ProjectTx, id: string, column: 'confirmation_token' | 'recovery_token', now: Date) {
  await tx.query(`update auth.users set ${column} = '', email_confirmed_at = coalesce(email_confirmed_at, $2), updated_at = $2 where id = $1`, [id, now])
}

/** Uses up an e-mail change's token: the new address becomes the user's, and its e-mail identity's. */
export async function applyEmailChange(tx: ProjectTx, id: string, now: Date) {
  await tx.query(
    `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_confirmed_at = coalesce(email_confirmed_at, $2), updated_at = $2 where id = $1`,
    [id, now],
  )
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', (select email from auth.users where id = $1)), updated_at = $2 where user_id = $1 and provider = 'email'`,
    [id, now],
  )
}

// ---- sessions and refresh tokens -----------------------------------------------------------------------------------

export async function insertSession(
  tx: ProjectTx,
  s: { id: string; userId: string; now: Date; userAgent: string | null; ip: string | null; secretFingerprint: string },
) {
  await tx.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, secret_fingerprint)
     values ($1, $2, $3, $3, 'aal1', $4, $5, $6)`,
    [s.id, s.userId, s.now, s.userAgent, s.ip, s.secretFingerprint],
  )
}

export async function sessionExists(tx: ProjectTx, id: string, userId: string): Promise<boolean> {
  const { rows } = await tx.query(`select 1 from auth.sessions where id = $1 and user_id = $2`, [id, userId])
  return rows.length > 0
}

export async function markRefreshed(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.sessions set refreshed_at = $2, updated_at = $3 where id = $1`, [id, now, now])
}

export async function deleteSession(tx: ProjectTx, id: string) {
  await tx.query(`delete from auth.sessions where id = $1`, [id])
}

/** Ends the user's sessions, but `keep` when given. */
export async function deleteSessions(tx: ProjectTx, userId: string, keep?: string) {
  if (keep === undefined) await tx.query(`delete from auth.sessions where user_id = $1`, [userId])
  else await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, keep])
}

/** A refresh token (`parent`: the one it replaces) of a session. */
export async function insertRefreshToken(tx: ProjectTx, t: { token: string; userId: string; now: Date; parent: string | null; sessionId: string }) {
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('${INSTANCE}', $1, $2, false, $3, $3, $4, $5)`,
    [t.token, t.userId, t.now, t.parent, t.sessionId],
  )
}

export interface RefreshTokenRow {
  id: string
  revoked: boolean
  session_id: string
  user_id: string
  updated_at: Date | string
  /** The digest of the JWT secret its session began under. */
  secret_fingerprint: string | null
}

/** The refresh token and its session's fingerprint, locked until the transaction ends (two refreshes queue). */
export async function lockRefreshToken(tx: ProjectTx, token: string): Promise<RefreshTokenRow | undefined> {
  const { rows } = await tx.query<RefreshTokenRow>(
    `select rt.id, rt.revoked, rt.session_id, rt.user_id, rt.updated_at, s.secret_fingerprint
     from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id where rt.token = $1 for update of rt`,
    [token],
  )
  return rows[0]
}

/** The session's newest refresh token not used yet. */
export async function currentRefreshToken(tx: ProjectTx, sessionId: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ token: string }>(
    `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
    [sessionId],
  )
  return rows[0]?.token
}

export async function revokeRefreshToken(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1`, [id, now])
}

// ---- PKCE flows ----------------------------------------------------------------------------------------------------

export async function insertFlow(tx: ProjectTx, f: { userId: string; authCode: string; challengeMethod: string; challenge: string; method: string; now: Date }) {
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'email', $6, $7, $7)`,
    [randomUUID(), f.userId, f.authCode, f.challengeMethod, f.challenge, f.method, f.now],
  )
}

/** The user's newest flow of this method whose auth code was not handed out yet. */
export async function pendingFlow(tx: ProjectTx, userId: string, method: string): Promise<{ id: string; auth_code: string } | undefined> {
  const { rows } = await tx.query<{ id: string; auth_code: string }>(
    `select id, auth_code from auth.flow_state where user_id = $1 and auth_code_issued_at is null and authentication_method = $2 order by created_at desc limit 1`,
    [userId, method],
  )
  return rows[0]
}

export async function markCodeIssued(tx: ProjectTx, id: string, now: Date) {
  await tx.query(`update auth.flow_state set auth_code_issued_at = $2, updated_at = $2 where id = $1`, [id, now])
}

export interface FlowRow {
  id: string
  user_id: string | null
  code_challenge: string
  code_challenge_method: string
  auth_code_issued_at: Date | string | null
}

export async function flowByCode(tx: ProjectTx, code: string): Promise<FlowRow | undefined> {
  const { rows } = await tx.query<FlowRow>(
    `select id, user_id, code_challenge, code_challenge_method, auth_code_issued_at from auth.flow_state where auth_code = $1`,
    [code],
  )
  return rows[0]
}

export async function deleteFlow(tx: ProjectTx, id: string) {
  await tx.query(`delete from auth.flow_state where id = $1`, [id])
}

// ---- audit log -----------------------------------------------------------------------------------------------------

export async function audit(tx: ProjectTx, action: string, actor: { id: string; email?: string | null } | null, ip: string | undefined, now: Date, traits: Record<string, unknown> = {}) {
  await tx.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ('${INSTANCE}', $1, $2, $3, $4)`,
    [
      randomUUID(),
      JSON.stringify({ action, actor_id: actor?.id ?? INSTANCE, actor_username: actor?.email ?? '', log_type: 'account', traits }),
      now,
      (ip ?? '').slice(0, 64),
    ],
  )
}

// ---- the platform store: settings, mailbox, active users -----------------------------------------------------------

export async function loadAuthSettings(db: Queryable, projectId: number): Promise<AuthSettings> {
  const { rows } = await db.query<AuthSettings>(
    `select ${SETTING_COLUMNS.join(', ')} from project_auth_settings where project_id = $1`,
    [projectId],
  )
  return rows[0] ?? { ...AUTH_DEFAULTS }
}

/** Writes the given settings (the others keep their value). */
export async function saveAuthSettings(db: Queryable, projectId: number, patch: Partial<AuthSettings>): Promise<AuthSettings> {
  const current = await loadAuthSettings(db, projectId)
  const next = { ...current, ...patch }
  const cols = SETTING_COLUMNS
  await db.query(
    `insert into project_auth_settings (project_id, ${cols.join(', ')}, updated_at)
     values ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')}, now())
     on conflict (project_id) do update set ${cols.map((col) => `${col} = excluded.${col}`).join(', ')}, updated_at = now()`,
    [projectId, ...cols.map((col) => next[col])],
  )
  return next
}

/** A user of the project counted active in the month that begins on `period` (once a month). */
export async function recordActiveUser(db: Queryable, projectId: number, period: string, userId: string) {
  await db.query(
    `insert into project_auth_active_users (project_id, period, user_id) values ($1, $2, $3) on conflict do nothing`,
    [projectId, period, userId],
  )
}

export interface MailboxMessage {
  id: number
  recipient: string
  subject: string
  body: string
  link: string | null
  kind: string
  channel: 'email' | PhoneChannel
  sent_at: string
}

/** Keeps a message in the project's local mailbox, and only the newest `keep` of them. */
export async function keepMail(
  db: Queryable,
  projectId: number,
  mail: { to: string; subject: string; body: string; link: string | null; kind: string; channel?: 'email' | PhoneChannel },
  keep: number,
) {
  await db.query(
    `insert into project_auth_mailbox (project_id, recipient, subject, body, link, kind, channel) values ($1, $2, $3, $4, $5, $6, $7)`,
    [projectId, mail.to, mail.subject, mail.body, mail.link, mail.kind, mail.channel ?? 'email'],
  )
  await db.query(
    `delete from project_auth_mailbox where project_id = $1 and id <= (
       select id from project_auth_mailbox where project_id = $1 order by id desc offset $2 limit 1)`,
    [projectId, keep],
  )
}

export async function listMail(db: Queryable, projectId: number, limit: number): Promise<MailboxMessage[]> {
  const { rows } = await db.query<MailboxMessage & { id: string | number; sent_at: Date | string }>(
    `select id, recipient, subject, body, link, kind, channel, sent_at from project_auth_mailbox where project_id = $1 order by id desc limit $2`,
    [projectId, limit],
  )
  return rows.map((r) => ({ ...r, id: Number(r.id), sent_at: new Date(r.sent_at).toISOString() }))
}

// ---- the platform store: rate limit counters -----------------------------------------------------------------------

/**
 * Counts one hit on the project's `key` in one atomic upsert: a window that started at or before `windowStart` has
 * ended, and the hit starts a new one at `now`. The count and the start of the window it fell in.
 */
export async function countHit(db: Queryable, projectId: number, key: string, now: Date, windowStart: Date): Promise<{ hits: number; windowStartedAt: Date }> {
  const { rows } = await db.query<{ hits: number; window_started_at: Date | string }>(
    `insert into project_auth_rate_limits as r (project_id, key, hits, window_started_at) values ($1, $2, 1, $3)
     on conflict (project_id, key) do update set
       hits = case when r.window_started_at <= $4 then 1 else r.hits + 1 end,
       window_started_at = case when r.window_started_at <= $4 then excluded.window_started_at else r.window_started_at end
     returning hits, window_started_at`,
    [projectId, key, now.toISOString(), windowStart.toISOString()],
  )
  return { hits: Number(rows[0].hits), windowStartedAt: new Date(rows[0].window_started_at) }
}

/** The hits of the project's `key` in a window that started after `windowStart` (0 when it ended). */
export async function hitsOf(db: Queryable, projectId: number, key: string, windowStart: Date): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `select hits from project_auth_rate_limits where project_id = $1 and key = $2 and window_started_at > $3`,
    [projectId, key, windowStart.toISOString()],
  )
  return rows.length ? Number(rows[0].hits) : 0
}

export async function clearHits(db: Queryable, projectId: number, key: string): Promise<void> {
  await db.query(`delete from project_auth_rate_limits where project_id = $1 and key = $2`, [projectId, key])
}

/** Drops the counters of every window that started at or before `before`. */
export async function sweepHits(db: Queryable, before: Date): Promise<void> {
  await db.query(`delete from project_auth_rate_limits where window_started_at <= $1`, [before.toISOString()])
}
