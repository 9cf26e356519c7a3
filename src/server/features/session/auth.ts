/**
 * Sessions (HTTP-only cookie) and personal access tokens (Bearer, /v1). Only SHA-256 hashes of
 * either secret are stored; requests are matched by hash lookup, never by comparing raw secrets.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Clock } from '../../config'
import type { Db } from '../../db'
import { errorJson, type AppEnv } from '../../core/http'
import { iso, type AccountRow } from '../../core/rows'
import { ACCESS_TOKEN_PATTERN, newAccessToken, randomToken, sha256 } from '../../core/secrets'

const SESSION_COOKIE = 'kp_session'

export async function createSession(db: Db, accountId: number, now: Date, ttlMs: number): Promise<string> {
  const token = randomToken()
  await db.query('insert into sessions (account_id, token_hash, created_at, expires_at) values ($1, $2, $3, $4)', [
    accountId,
    sha256(token),
    now.toISOString(),
    new Date(now.getTime() + ttlMs).toISOString(),
  ])
  return token
}

export function setSessionCookie(c: Context, token: string, ttlMs: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: Math.floor(ttlMs / 1000),
    secure: new URL(c.req.url).protocol === 'https:',
  })
}

export async function deleteSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await db.query('delete from sessions where token_hash = $1', [sha256(token)])
  deleteCookie(c, SESSION_COOKIE, { path: '/' })
}

async function accountForSession(db: Db, token: string, now: Date): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `select a.id, a.username, a.primary_email from sessions s join accounts a on a.id = s.account_id
     where s.token_hash = $1 and s.expires_at > $2`,
    [sha256(token), now.toISOString()],
  )
  return rows[0]
}

/**
 * The account of a personal access token that is neither revoked nor expired (and marks it used). A value that is
 * not of a token's shape (`sbp_` or the earlier `kpat_`, and 40 lowercase hex) is refused without a query.
 */
async function accountForAccessToken(db: Db, token: string, now: Date): Promise<AccountRow | undefined> {
  if (!ACCESS_TOKEN_PATTERN.test(token)) return undefined
  const { rows } = await db.query<AccountRow>(
    `update access_tokens t set last_used_at = $2 from accounts a
     where t.token_hash = $1 and a.id = t.account_id and (t.expires_at is null or t.expires_at > $2)
     returning a.id, a.username, a.primary_email`,
    [sha256(token), now.toISOString()],
  )
  return rows[0]
}

const unauthorized = (c: Context) => errorJson(c, 401, 'You must be signed in to do this')

/** /v1: `Authorization: Bearer <personal access token>`, or the session cookie. */
export function requireApiAuth(db: Db, clock: Clock): MiddlewareHandler<AppEnv> {
  const bySession = requireSession(db, clock)
  return async (c, next) => {
    const header = c.req.header('authorization')
    if (header === undefined) return bySession(c, next)
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    const account = match ? await accountForAccessToken(db, match[1], clock.now()) : undefined
    if (!account) return errorJson(c, 401, 'Invalid or revoked access token')
    c.set('account', account)
    c.set('authVia', 'bearer')
    return next()
  }
}

/** /platform (and /v1 without a bearer token): the session cookie's account on the request, or 401. */
export function requireSession(db: Db, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE)
    const account = token ? await accountForSession(db, token, clock.now()) : undefined
    if (!account) return unauthorized(c)
    c.set('account', account)
    c.set('authVia', 'cookie')
    await next()
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The paths where a bearer token, when sent, is the request's only credential (requireApiAuth: a bad token is
 * 401, never a fall back to the cookie). Elsewhere (/platform, sign-in) an Authorization header authenticates
 * nothing, so it must not exempt a request that rides on the cookie.
 */
const BEARER_PATH = /^\/v1(\/|$)/
const BEARER = /^Bearer\s+\S+\s*$/i

/**
 * CSRF protection for writes that ride on the cookie: a browser's cross-site request is refused.
 * Same-origin is recognised by Fetch metadata (Sec-Fetch-Site, which pages cannot forge) or by an
 * Origin equal to this server's or to a configured one (the Vite dev server's proxy).
 * Only a well-formed bearer token on a path that authenticates by it skips the check: `Authorization: Basic …`
 * or a malformed Bearer beside the cookie is checked like the cookie alone.
 */
export function refuseCrossSite(allowedOrigins: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next()
    if (BEARER_PATH.test(c.req.path) && BEARER.test(c.req.header('authorization') ?? '')) return next()
    const fetchSite = c.req.header('sec-fetch-site')
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next()
    const origin = c.req.header('origin')
    if (origin === undefined && fetchSite === undefined) return next()
    if (origin !== undefined && (origin === new URL(c.req.url).origin || allowedOrigins.includes(origin))) return next()
    return errorJson(c, 403, 'Cross-site request refused')
  }
}

export interface AccessTokenRow {
  id: number
  name: string
  token_alias: string
  created_at: Date | string
  last_used_at: Date | string | null
  expires_at: Date | string | null
}

/** The columns toAccessToken reads. */
export const ACCESS_TOKEN_COLUMNS = 'id, name, token_alias, created_at, last_used_at, expires_at'

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

const DAY_MS = 86_400_000

/**
 * Creates a personal access token, expiring after `expiresInDays` (never when null); the value is returned here
 * once and stored only hashed.
 */
export async function createAccessToken(
  db: Db,
  accountId: number,
  name: string,
  now: Date,
  expiresInDays: number | null = null,
) {
  const { token, alias } = newAccessToken()
  const expiresAt = expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * DAY_MS).toISOString()
  const { rows } = await db.query<AccessTokenRow>(
    `insert into access_tokens (account_id, name, token_hash, token_alias, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6)
     returning ${ACCESS_TOKEN_COLUMNS}`,
    [accountId, name, sha256(token), alias, now.toISOString(), expiresAt],
  )
  return { ...toAccessToken(rows[0]), token }
}
