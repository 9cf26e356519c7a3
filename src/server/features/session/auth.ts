/**
 * Sessions (HTTP-only cookie) and personal access tokens (Bearer, /v1). Only SHA-256 hashes of
 * either secret are stored; requests are matched by hash lookup, never by comparing raw secrets.
 * A session ends at its expiry, after `idleTimeoutMs` without a request, or at sign-out. Sessions are read through
 * the in-memory cache (src/server/core/cache.ts); the last use is written at most once a minute per session, and
 * ended sessions are deleted by a periodic sweep (startSessionSweep).
 */
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { parse as parseCookie } from 'hono/utils/cookie'
import type { Clock, ServerConfig } from '../../config'
import type { Db, Queryable } from '../../db'
import { cacheFor, type CachedSession } from '../../core/cache'
import { errorJson, type AppEnv } from '../../core/http'
import type { AccountRow } from '../../core/rows'
import { ACCESS_TOKEN_PATTERN, newAccessToken, randomToken, sha256 } from '../../core/secrets'
import {
  deleteEndedSessions,
  deleteIdleSession,
  deleteSessionByHash,
  findSession,
  insertAccessToken,
  insertSession,
  toAccessToken,
  touchSession,
  useAccessToken,
} from './store'

const SESSION_COOKIE = 'kp_session'

export async function createSession(db: Db, accountId: number, now: Date, ttlMs: number): Promise<string> {
  const token = randomToken()
  await insertSession(db, { accountId, tokenHash: sha256(token), now, expiresAt: new Date(now.getTime() + ttlMs) })
  return token
}

/**
 * Whether the browser reached us over TLS: the request's own scheme, or — only with TRUST_PROXY=1, since anyone can
 * send the header — the first X-Forwarded-Proto of the TLS-terminating proxy in front.
 */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  if (!trustProxy) return false
  const forwarded = c.req.header('x-forwarded-proto')
  return forwarded !== undefined && forwarded.split(',')[0].trim().toLowerCase() === 'https'
}

export function setSessionCookie(c: Context, token: string, ttlMs: number, opts: { trustProxy?: boolean } = {}): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: Math.floor(ttlMs / 1000),
    secure: isHttps(c, opts.trustProxy ?? false),
  })
}

export async function deleteSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await deleteSessionByHash(db, sha256(token))
  deleteCookie(c, SESSION_COOKIE, { path: '/' })
}

/** How often a session's last use is written: at most once per this, per session (not on every request). */
export const SESSION_TOUCH_MS = 60_000

async function loadSession(db: Queryable, tokenHash: string): Promise<CachedSession | undefined> {
  const row = await findSession(db, tokenHash)
  if (!row) return undefined
  return {
    account: { id: row.id, username: row.username, primary_email: row.primary_email },
    expiresAt: new Date(row.expires_at).getTime(),
    lastUsedAt: new Date(row.last_used_at).getTime(),
  }
}

/**
 * The account of a session that is in memory, live, and whose last use needs no recording yet: what the status poll's
 * path on Node (features/projects/statusPoll.ts) may answer from without the store. Anything else — not cached, ended,
 * idle, due for its once-a-minute touch — is undefined, and that request takes the app's path (accountForSession).
 */
export function cachedSessionAccount(db: Db, token: string, now: Date, idleTimeoutMs: number): AccountRow | undefined {
  const session = cacheFor(db)?.session(sha256(token))
  const t = now.getTime()
  if (!session || session.expiresAt <= t || t - session.lastUsedAt >= Math.min(idleTimeoutMs, SESSION_TOUCH_MS)) return undefined
  return session.account
}

/** The session cookie's value in a Cookie header, read as hono's getCookie reads it. */
export function sessionTokenIn(cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader, SESSION_COOKIE)[SESSION_COOKIE] : undefined
}

/**
 * The account of a live session, or undefined. Expired and idle sessions are refused at once (an idle one is also
 * deleted); the last use is recorded when the recorded one is a minute old or more.
 */
export async function accountForSession(
  db: Db,
  token: string,
  now: Date,
  idleTimeoutMs: number,
): Promise<AccountRow | undefined> {
  const tokenHash = sha256(token)
  const cache = cacheFor(db)
  const read = () => loadSession(db, tokenHash)
  let session = cache ? await cache.loadSession(tokenHash, read) : await read()
  const t = now.getTime()
  if (!session || session.expiresAt <= t) return undefined
  if (t - session.lastUsedAt >= idleTimeoutMs && cache?.session(tokenHash)) {
    // The cached last use may lag behind another process's: ask the store before ending the session.
    cache.invalidateSession(tokenHash)
    session = await cache.loadSession(tokenHash, read)
    if (!session || session.expiresAt <= t) return undefined
  }
  if (t - session.lastUsedAt >= idleTimeoutMs) {
    await deleteIdleSession(db, tokenHash, new Date(t - idleTimeoutMs))
    cache?.invalidateSession(tokenHash)
    return undefined
  }
  if (t - session.lastUsedAt >= SESSION_TOUCH_MS) {
    session.lastUsedAt = t
    await touchSession(db, tokenHash, now)
  }
  return session.account
}

/** Deletes every ended session (past its expiry, or idle for `idleTimeoutMs`); resolves to how many. */
export async function sweepSessions(db: Queryable, now: Date, idleTimeoutMs: number): Promise<number> {
  return deleteEndedSessions(db, now, new Date(now.getTime() - idleTimeoutMs))
}

/** Runs sweepSessions every `sessionSweepMs` (the timer does not keep the process alive); returns the stop. */
export function startSessionSweep(
  db: Db,
  clock: Clock,
  config: Pick<ServerConfig, 'sessionSweepMs' | 'sessionIdleTimeoutMs'>,
): () => void {
  const timer = setInterval(() => {
    sweepSessions(db, clock.now(), config.sessionIdleTimeoutMs).catch((err: Error) =>
      console.error(`sessions: sweep failed: ${err.message}`),
    )
  }, config.sessionSweepMs)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * The account of a personal access token that is neither revoked nor expired (and marks it used). A value that is
 * not of a token's shape (`sbp_` or the earlier `kpat_`, and 40 lowercase hex) is refused without a query.
 */
export async function accountForAccessToken(db: Db, token: string, now: Date): Promise<AccountRow | undefined> {
  if (!ACCESS_TOKEN_PATTERN.test(token)) return undefined
  return useAccessToken(db, sha256(token), now)
}

const unauthorized = (c: Context) => errorJson(c, 401, 'You must be signed in to do this')

/** /v1: `Authorization: Bearer <personal access token>`, or the session cookie. */
export function requireApiAuth(db: Db, clock: Clock, opts: SessionOptions = {}): MiddlewareHandler<AppEnv> {
  const bySession = requireSession(db, clock, opts)
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
export interface SessionOptions {
  /** A session not used for this long ends (default: 24 h, as SESSION_IDLE_TIMEOUT_MS's default). */
  idleTimeoutMs?: number
}

export function requireSession(db: Db, clock: Clock, opts: SessionOptions = {}): MiddlewareHandler<AppEnv> {
  const idleTimeoutMs = opts.idleTimeoutMs ?? 24 * 60 * 60 * 1000
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE)
    const account = token ? await accountForSession(db, token, clock.now(), idleTimeoutMs) : undefined
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
 * Each project's REST API (src/server/features/rest) authenticates by the project's keys in headers only and never
 * reads the session cookie, so a cross-site request has nothing to ride on: browser apps on other origins are its
 * callers.
 */
const KEY_AUTH_PATH = /^\/p\//

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
    if (KEY_AUTH_PATH.test(c.req.path)) return next()
    if (BEARER_PATH.test(c.req.path) && BEARER.test(c.req.header('authorization') ?? '')) return next()
    const fetchSite = c.req.header('sec-fetch-site')
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next()
    const origin = c.req.header('origin')
    if (origin === undefined && fetchSite === undefined) return next()
    if (origin !== undefined && (origin === new URL(c.req.url).origin || allowedOrigins.includes(origin))) return next()
    return errorJson(c, 403, 'Cross-site request refused')
  }
}

const DAY_MS = 86_400_000

/**
 * Creates a personal access token, expiring after `expiresInDays`; the value is returned here once and stored only
 * hashed.
 */
export async function createAccessToken(db: Db, accountId: number, name: string, now: Date, expiresInDays: number) {
  const { token, alias } = newAccessToken()
  const expiresAt = new Date(now.getTime() + expiresInDays * DAY_MS)
  const row = await insertAccessToken(db, { accountId, name, tokenHash: sha256(token), alias, now, expiresAt })
  return { ...toAccessToken(row), token }
}
