/**
 * The SQL of sessions, personal access tokens, sign-in and its throttle. Secrets arrive here already hashed
 * (SHA-256): only hashes are stored and looked up.
 */
import type { Queryable } from '../../db'
import { iso, type AccountRow } from '../../core/rows'

// ---------------------------------------------------------------------------------------------------------------
// Accounts at sign-in

/** The account with this primary e-mail and its password hash. */
export async function findAccountForSignIn(db: Queryable, email: string): Promise<(AccountRow & { password_hash: string }) | undefined> {
  const { rows } = await db.query<AccountRow & { password_hash: string }>(
    'select id, username, primary_email, password_hash from accounts where primary_email = $1',
    [email],
  )
  return rows[0]
}

/** Replaces the password hash only while it is still `oldHash` (a concurrent password change wins). */
export async function replacePasswordHash(db: Queryable, accountId: number, oldHash: string, newHash: string): Promise<void> {
  await db.query('update accounts set password_hash = $1 where id = $2 and password_hash = $3', [newHash, accountId, oldHash])
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions

export interface SessionRow extends AccountRow {
  expires_at: Date | string
  last_used_at: Date | string
}

export async function insertSession(db: Queryable, s: { accountId: number; tokenHash: string; now: Date; expiresAt: Date }): Promise<void> {
  await db.query(
    'insert into sessions (account_id, token_hash, created_at, expires_at, last_used_at) values ($1, $2, $3, $4, $3)',
    [s.accountId, s.tokenHash, s.now.toISOString(), s.expiresAt.toISOString()],
  )
}

/** The session's account, expiry and last use. */
export async function findSession(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `select a.id, a.username, a.primary_email, s.expires_at, s.last_used_at
     from sessions s join accounts a on a.id = s.account_id where s.token_hash = $1`,
    [tokenHash],
  )
  return rows[0]
}

export async function deleteSessionByHash(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('delete from sessions where token_hash = $1', [tokenHash])
}

/** Deletes the session if it was last used at or before `idleSince` (another process may have used it since). */
export async function deleteIdleSession(db: Queryable, tokenHash: string, idleSince: Date): Promise<void> {
  await db.query('delete from sessions where token_hash = $1 and last_used_at <= $2', [tokenHash, idleSince.toISOString()])
}

/** Records the session's last use (never moving it back). */
export async function touchSession(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('update sessions set last_used_at = $2 where token_hash = $1 and last_used_at < $2', [tokenHash, now.toISOString()])
}

/** Deletes every session past its expiry at `now` or last used at or before `idleSince`; how many. */
export async function deleteEndedSessions(db: Queryable, now: Date, idleSince: Date): Promise<number> {
  const { rows } = await db.query<{ id: number }>('delete from sessions where expires_at <= $1 or last_used_at <= $2 returning id', [
    now.toISOString(),
    idleSince.toISOString(),
  ])
  return rows.length
}

// ---------------------------------------------------------------------------------------------------------------
// Personal access tokens

export interface AccessTokenRow {
  id: number
  name: string
  token_alias: string
  created_at: Date | string
  last_used_at: Date | string | null
  expires_at: Date | string | null
}

/** The columns toAccessToken reads. */
const ACCESS_TOKEN_COLUMNS = 'id, name, token_alias, created_at, last_used_at, expires_at'

export function toAccessToken(row: AccessTokenRow) {
  return {
    id: row.id,
    name: row.name,
    token_alias: row.token_alias,
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
  }
}

export async function listAccessTokens(db: Queryable, accountId: number): Promise<AccessTokenRow[]> {
  const { rows } = await db.query<AccessTokenRow>(`select ${ACCESS_TOKEN_COLUMNS} from access_tokens where account_id = $1 order by id`, [
    accountId,
  ])
  return rows
}

export async function insertAccessToken(
  db: Queryable,
  t: { accountId: number; name: string; tokenHash: string; alias: string; now: Date; expiresAt: Date },
): Promise<AccessTokenRow> {
  const { rows } = await db.query<AccessTokenRow>(
    `insert into access_tokens (account_id, name, token_hash, token_alias, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6)
     returning ${ACCESS_TOKEN_COLUMNS}`,
    [t.accountId, t.name, t.tokenHash, t.alias, t.now.toISOString(), t.expiresAt.toISOString()],
  )
  return rows[0]
}

/** Deletes the account's token; whether it had one with this id. */
export async function deleteAccessToken(db: Queryable, id: number, accountId: number): Promise<boolean> {
  const { rows } = await db.query<{ id: number }>('delete from access_tokens where id = $1 and account_id = $2 returning id', [id, accountId])
  return rows.length > 0
}

/** The account of a token that has not expired at `now`, its last use recorded. */
export async function useAccessToken(db: Queryable, tokenHash: string, now: Date): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `update access_tokens t set last_used_at = $2 from accounts a
     where t.token_hash = $1 and a.id = t.account_id and (t.expires_at is null or t.expires_at > $2)
     returning a.id, a.username, a.primary_email`,
    [tokenHash, now.toISOString()],
  )
  return rows[0]
}

// ---------------------------------------------------------------------------------------------------------------
// The sign-in throttle's counts

export interface FailureCountRow {
  key: string
  failures: number
  window_started_at: Date | string
}

/**
 * Counts one attempt against each key, atomically: a key whose window started at or before `windowStart` starts a
 * new window at `now`. Rows of finished windows are deleted first (indexed). Returns each key's count and window.
 */
export async function countAttempts(db: Queryable, keys: string[], now: Date, windowStart: Date): Promise<FailureCountRow[]> {
  await db.query('delete from sign_in_failures where window_started_at <= $1', [windowStart.toISOString()])
  const { rows } = await db.query<FailureCountRow>(
    `insert into sign_in_failures as f (key, failures, window_started_at)
     select k, 1, $2 from unnest($1::text[]) as k
     on conflict (key) do update set
       failures = case when f.window_started_at <= $3 then 1 else f.failures + 1 end,
       window_started_at = case when f.window_started_at <= $3 then excluded.window_started_at else f.window_started_at end
     returning key, failures, window_started_at`,
    [keys, now.toISOString(), windowStart.toISOString()],
  )
  return rows
}

/** Drops the count of `clearKey` and gives one attempt back to each of `giveBackKeys`. */
export async function clearAttempts(db: Queryable, clearKey: string, giveBackKeys: string[]): Promise<void> {
  await db.query('delete from sign_in_failures where key = $1', [clearKey])
  await db.query('update sign_in_failures set failures = greatest(failures - 1, 0) where key = any($1::text[])', [giveBackKeys])
}
