/**
 * The steps the auth service's routes share, made once per service: reading a request's JSON body, a transaction
 * on the project's database, starting a session and answering it (access token, refresh token), the signed-in user
 * of a request, and the one-time tokens of e-mailed links and codes (and the PKCE flows that wait on them).
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import { SignJWT } from 'jose'
import type { Deps } from '../../core/deps'
import type { GatewayContext, GatewayEnv } from '../../gateway'
import type { ProjectTx } from '../../projectdb/types'
import { clientAddress } from '../session/throttle'
import { authError, noAuthorization, notAdmin, otpInvalid } from './errors'
import { smtpDisplay } from '../../config'
import { composeMail, createMailer, MailNotSent, type Mail } from './mail'
import { redirectTarget, type AuthSettings } from './settings'
import * as store from './store'
import { AuthThrottle, HOUR } from './throttle'
import { newOtp, newRefreshToken, OTP_TTL_MS, sameSecret, tokenHash, withIdentities, type UserJson } from './users'

export type C = Context<GatewayEnv>
type UserRow = store.UserRow

export const EMAIL_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'] as const
export type VerifyType = (typeof EMAIL_TYPES)[number]
export const isVerifyType = (type: string | undefined): type is VerifyType => (EMAIL_TYPES as readonly (string | undefined)[]).includes(type)

/** Which stored token a verification type checks. */
const TOKEN_COLUMNS: Record<VerifyType, store.TokenColumn[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  magiclink: ['recovery_token'],
  recovery: ['recovery_token'],
  email_change: ['email_change_token_new'],
  email: ['confirmation_token', 'recovery_token'],
}
const SENT_AT: Record<store.TokenColumn, 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  email_change_token_new: 'email_change_sent_at',
}

/** The platform's answers when its mail server did not take a message (a 500, the request's writes undone). */
const NOT_SENT: Record<Mail['kind'], string> = {
  confirmation: 'Error sending confirmation email',
  magiclink: 'Error sending magic link email',
  recovery: 'Error sending recovery email',
  invite: 'Error sending invite email',
  email_change: 'Error sending email change email',
}

/**
 * Where the project's auth service is reached, for the issuer of its tokens and the links of its e-mails: under the
 * project's custom domain once that is active (as the platform reconfigures auth when a domain is activated), else
 * under the project URL. Never the request's Host.
 */
export const authBase = (g: { projectUrl: string; customDomainUrl: string | undefined }) => `${g.customDomainUrl ?? g.projectUrl}/auth/v1`

/** A digest of the secret a session began under (never the secret): a rotation makes it differ. */
export const fingerprint = (secret: string) => createHash('sha256').update(`auth-session:${secret}`).digest('hex').slice(0, 32)

/** The request's JSON body: an object, or {} when empty. */
export async function body(c: C): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw authError(400, 'bad_json', 'Could not parse request body as JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw authError(400, 'bad_json', 'The request body must be a JSON object')
  }
  return value as Record<string, unknown>
}

export function optionalObject(v: unknown, name: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'object' || Array.isArray(v)) throw authError(400, 'validation_failed', `${name} must be a JSON object`)
  return v as Record<string, unknown>
}

export function optionalString(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw authError(400, 'validation_failed', `${name} must be a string`)
  return v
}

export function secretOf(g: GatewayContext): string {
  if (!g.project.jwtSecret) throw authError(500, 'unexpected_failure', 'The project has no JWT secret yet')
  return g.project.jwtSecret
}

export function requireAdmin(c: C) {
  if (c.var.gateway.caller?.role !== 'service_role') throw notAdmin()
}

/** A started session: its id, its first (or current) refresh token and its user. */
export interface Session {
  sessionId: string
  refresh: string
  user: UserJson
}

export type AuthService = ReturnType<typeof authService>

export function authService(deps: Pick<Deps, 'db' | 'clock' | 'config'>) {
  const { db, clock, config } = deps
  const throttle = new AuthThrottle(db, clock)
  const mailer = createMailer(config.smtp)

  /** The client's address as the throttle counts it. */
  const address = (c: C) => clientAddress(c, config.trustProxy) ?? 'local'
  /** The client's address as the audit log records it (none when unknown). */
  const ip = (c: C) => clientAddress(c, config.trustProxy)
  const settingsOf = (c: C) => store.loadAuthSettings(db, c.var.gateway.project.id)

  /**
   * A transaction on the project's database as its owner (a database that predates schema auth got it when its
   * engine opened it: projectdb/upgrades.ts).
   */
  const tx = <T>(c: C, fn: (tx: ProjectTx) => Promise<T>): Promise<T> => c.var.gateway.transaction({ role: 'postgres' }, fn)

  async function recordActive(projectId: number, userId: string) {
    const now = clock.now()
    const period = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`
    await store.recordActiveUser(db, projectId, period, userId)
  }

  async function accessToken(c: C, user: UserJson, sessionId: string, method: string, settings: AuthSettings) {
    const g = c.var.gateway
    const nowS = Math.floor(clock.now().getTime() / 1000)
    const exp = nowS + settings.jwt_exp
    const token = await new SignJWT({
      aud: 'authenticated',
      sub: user.id,
      email: user.email,
      phone: user.phone,
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method, timestamp: nowS }],
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
      ref: g.project.ref,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(`${authBase(g)}`)
      .setIssuedAt(nowS)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secretOf(g)))
    return { token, exp }
  }

  /** Starts a session for the user in `t`: its row, its first refresh token, the sign-in time. */
  async function startSession(c: C, t: ProjectTx, user: UserRow, action: string): Promise<Session> {
    const now = clock.now()
    const sessionId = randomUUID()
    const refresh = newRefreshToken()
    const addr = ip(c)
    await store.insertSession(t, {
      id: sessionId,
      userId: user.id,
      now,
      userAgent: c.req.header('user-agent') ?? null,
      ip: addr && /^[0-9a-f.:]+$/i.test(addr) ? addr : null,
      secretFingerprint: fingerprint(secretOf(c.var.gateway)),
    })
    await store.insertRefreshToken(t, { token: refresh, userId: user.id, now, parent: null, sessionId })
    await store.markSignedIn(t, user.id, now)
    await store.audit(t, action, user, addr, now)
    const fresh = (await store.userById(t, user.id))!
    return { sessionId, refresh, user: await withIdentities(t, fresh) }
  }

  async function sessionJson(c: C, s: Session, method: string, settings: AuthSettings) {
    const { token, exp } = await accessToken(c, s.user, s.sessionId, method, settings)
    await recordActive(c.var.gateway.project.id, s.user.id)
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: settings.jwt_exp,
      expires_at: exp,
      refresh_token: s.refresh,
      user: s.user,
    }
  }

  /** The signed-in user of a request (an access token of this service), with its session checked. */
  async function currentUser(c: C, t: ProjectTx) {
    const caller = c.var.gateway.caller
    if (!caller?.bearer) throw noAuthorization()
    const sub = caller.claims.sub
    if (caller.role !== 'authenticated' || typeof sub !== 'string') {
      throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim')
    }
    const sessionId = caller.claims.session_id
    if (typeof sessionId === 'string' && !(await store.sessionExists(t, sessionId, sub))) {
      throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
    }
    const user = await store.userById(t, sub)
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    return { user, sessionId: typeof sessionId === 'string' ? sessionId : undefined }
  }

  /**
   * Puts a fresh one-time token of `kind` on the user and e-mails its link and code. The link is built on the
   * project URL and goes through GET /verify, which then sends the browser to `redirectTo` (or the Site URL).
   * Sent inside `t`: a message the SMTP server does not take fails the request, and its token (and a new user) are
   * rolled back with it.
   */
  async function mailToken(c: C, t: ProjectTx, settings: AuthSettings, user: UserRow, kind: Mail['kind'], redirectTo: string | undefined, to = user.email ?? '') {
    await throttle.take(c.var.gateway.project.id, 'email', settings.rate_limit_email_sent, HOUR, 'over_email_send_rate_limit')
    const { hash, otp, link } = await setToken(c, t, settings, user, kind, redirectTo, to)
    try {
      await mailer.send(db, c.var.gateway.project.id, composeMail(kind, to, link, otp))
    } catch (err) {
      if (!(err instanceof MailNotSent)) throw err
      console.error(`auth e-mail (${kind}) of project ${c.var.gateway.project.ref} not sent through ${smtpDisplay(config.smtp)}: ${err.reason}`)
      throw authError(500, 'unexpected_failure', NOT_SENT[kind])
    }
    return hash
  }

  async function setToken(c: C, t: ProjectTx, settings: AuthSettings, user: UserRow, kind: Mail['kind'], redirectTo: string | undefined, to = user.email ?? '') {
    const otp = newOtp()
    const hash = tokenHash(to, otp)
    const column = kind === 'recovery' || kind === 'magiclink' ? 'recovery' : kind === 'email_change' ? 'email_change' : 'confirmation'
    await store.setOneTimeToken(t, user.id, column, hash, clock.now(), to)
    const type = kind === 'confirmation' ? 'signup' : kind
    const target = redirectTarget(settings, redirectTo)
    const link = `${authBase(c.var.gateway)}/verify?token=${hash}&type=${type}&redirect_to=${encodeURIComponent(target)}`
    return { otp, hash, link, type, target }
  }

  /** A PKCE flow started by a request carrying a code challenge: its auth code comes back from GET /verify. */
  async function startFlow(t: ProjectTx, b: Record<string, unknown>, userId: string, method: string) {
    const challenge = optionalString(b.code_challenge, 'code_challenge')
    if (!challenge) return
    const challengeMethod = (optionalString(b.code_challenge_method, 'code_challenge_method') ?? 's256').toLowerCase()
    if (challengeMethod !== 's256' && challengeMethod !== 'plain') {
      throw authError(400, 'validation_failed', 'code_challenge_method must be s256 or plain')
    }
    await store.insertFlow(t, { userId, authCode: randomUUID(), challengeMethod, challenge, method, now: clock.now() })
  }

  /** Checks a one-time token and uses it up: the user it belongs to, their e-mail confirmed or changed. */
  async function consumeToken(t: ProjectTx, type: VerifyType, given: { email?: string; otp?: string; hash?: string }) {
    const columns = TOKEN_COLUMNS[type]
    let user: UserRow | undefined
    let column: store.TokenColumn | undefined
    if (given.hash) {
      for (const col of columns) {
        const found = await store.userByToken(t, col, given.hash)
        if (found) {
          user = found
          column = col
          break
        }
      }
    } else if (given.email && given.otp) {
      const candidate = type === 'email_change' ? await store.userByNewEmail(t, given.email) : await store.userByEmail(t, given.email)
      const expected = tokenHash(given.email, given.otp)
      column = candidate && columns.find((col) => candidate[col] && sameSecret(candidate[col]!, expected))
      if (column) user = candidate
    }
    if (!user || !column) throw otpInvalid()
    const sentAt = user[SENT_AT[column]]
    if (!sentAt || clock.now().getTime() - new Date(sentAt).getTime() > OTP_TTL_MS) throw otpInvalid()
    const now = clock.now()
    if (column === 'email_change_token_new') await store.applyEmailChange(t, user.id, now)
    else await store.useToken(t, user.id, column, now)
    return (await store.userById(t, user.id))!
  }

  function bannedCheck(user: UserRow) {
    if (user.banned_until && new Date(user.banned_until).getTime() > clock.now().getTime()) throw authError(400, 'user_banned', 'User is banned')
  }

  return { db, clock, throttle, address, ip, settingsOf, tx, startSession, sessionJson, currentUser, mailToken, setToken, startFlow, consumeToken, bannedCheck }
}
