/**
 * The auth service's ways to a session: POST /signup (a session at once when e-mails are auto-confirmed, else a
 * confirmation e-mail) and POST /token with the password, refresh_token and pkce grants. A refresh token is used
 * once: sent again within REFRESH_REUSE_GRACE_MS it answers the session's current one (two tabs refreshing at once),
 * later it ends the session; a rotation of the project's JWT secret ends every session begun before it.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Hono } from 'hono'
import type { GatewayEnv } from '../../gateway'
import { authError, invalidCredentials, type AuthApiError } from './errors'
import { body, fingerprint, optionalObject, optionalString, secretOf, type AuthService, type C, type Session } from './service'
import { phoneFlows } from './phone'
import type { AuthSettings } from './settings'
import * as store from './store'
import { FAILED_SIGN_INS_PER_EMAIL } from './throttle'
import { checkPassword, hashPassword, newRefreshToken, normaliseEmail, passwordMatches, sameSecret, withIdentities } from './users'

/** A used refresh token may be sent again this long after (two tabs refreshing at once) and get the current one. */
export const REFRESH_REUSE_GRACE_MS = 10_000
/** An auth code of the PKCE flow must be exchanged within this time. */
const AUTH_CODE_TTL_MS = 5 * 60_000

export function grantRoutes(app: Hono<GatewayEnv>, s: AuthService) {
  const { clock, throttle } = s
  const phone = phoneFlows(s)

  app.post('/signup', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) {
      const outcome = await phone.signUp(c, b, settings)
      if ('session' in outcome) return c.json(await s.sessionJson(c, outcome.session, 'password', settings))
      return c.json(await s.tx(c, (t) => withIdentities(t, outcome.user)))
    }
    if (settings.disable_signup) throw authError(422, 'signup_disabled', 'Signups not allowed for this instance')
    const email = normaliseEmail(b.email)
    const password = checkPassword(b.password, settings)
    const data = optionalObject(b.data, 'data')
    await throttle.take(c.var.gateway.project.id, `verify:${s.address(c)}`, settings.rate_limit_verify)
    const redirectTo = c.req.query('redirect_to')
    const hash = await hashPassword(password)
    const outcome = await s.tx(c, async (t) => {
      const existing = await store.userByEmail(t, email)
      const now = clock.now()
      if (existing?.email_confirmed_at) {
        if (settings.mailer_autoconfirm) throw authError(422, 'user_already_exists', 'User already registered')
        // No enumeration: an address already in use answers like a new one, without a session or an e-mail.
        return { kind: 'user' as const, user: { ...(await withIdentities(t, existing)), id: randomUUID(), identities: [], email, created_at: now.toISOString(), updated_at: now.toISOString() } }
      }
      let user: store.UserRow
      if (existing) {
        await store.resetUnconfirmedUser(t, existing.id, hash, data ?? {}, now)
        user = (await store.userById(t, existing.id))!
      } else {
        user = await store.insertUser(t, { email, passwordHash: hash, confirmedAt: settings.mailer_autoconfirm ? now : null, userMeta: data, now })
        await store.audit(t, 'user_signedup', user, s.ip(c), now)
      }
      if (settings.mailer_autoconfirm) return { kind: 'session' as const, session: await s.startSession(c, t, user, 'login') }
      await s.startFlow(t, b, user.id, 'email/signup')
      await s.mailToken(c, t, settings, user, 'confirmation', redirectTo)
      return { kind: 'user' as const, user: await withIdentities(t, (await store.userById(t, user.id))!) }
    })
    if (outcome.kind === 'session') return c.json(await s.sessionJson(c, outcome.session, 'password', settings))
    return c.json(outcome.user)
  })

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type')
    const settings = await s.settingsOf(c)
    const b = await body(c)
    if (grant === 'password') return c.json(await s.sessionJson(c, await passwordGrant(c, b, settings), 'password', settings))
    if (grant === 'refresh_token') return c.json(await s.sessionJson(c, await refreshGrant(c, b, settings), 'password', settings))
    if (grant === 'pkce') return c.json(await s.sessionJson(c, await pkceGrant(c, b, settings), 'otp', settings))
    throw authError(400, 'validation_failed', 'unsupported_grant_type')
  })

  async function passwordGrant(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    if (b.phone !== undefined && b.email === undefined) return phone.passwordGrant(c, b, settings)
    const email = normaliseEmail(b.email)
    if (typeof b.password !== 'string' || b.password.length === 0) throw authError(400, 'validation_failed', 'Password is required')
    await throttle.take(c.var.gateway.project.id, `verify:${s.address(c)}`, settings.rate_limit_verify)
    const projectId = c.var.gateway.project.id
    const failedKey = `failed:${email}`
    if (await throttle.over(projectId, failedKey, FAILED_SIGN_INS_PER_EMAIL)) {
      throw authError(429, 'over_request_rate_limit', 'Too many failed sign-ins for this e-mail: try again later', { 'retry-after': '300' })
    }
    const user = await s.tx(c, (t) => store.userByEmail(t, email))
    const ok = Buffer.byteLength(b.password) <= 72 && (await passwordMatches(b.password, user?.encrypted_password))
    if (!user || !ok) {
      await throttle.take(projectId, failedKey, Number.MAX_SAFE_INTEGER)
      throw invalidCredentials()
    }
    await throttle.clear(projectId, failedKey)
    if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed')
    s.bannedCheck(user)
    return s.tx(c, (t) => s.startSession(c, t, user, 'login'))
  }

  async function refreshGrant(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    const token = optionalString(b.refresh_token, 'refresh_token')
    if (!token) throw authError(400, 'validation_failed', 'refresh_token is required')
    await throttle.take(c.var.gateway.project.id, `refresh:${s.address(c)}`, settings.rate_limit_token_refresh)
    const secret = fingerprint(secretOf(c.var.gateway))
    // A refusal is returned rather than thrown, so that what the transaction ended (a session) stays ended.
    const result = await s.tx(c, async (t): Promise<{ error: AuthApiError } | { session: Session }> => {
      const row = await store.lockRefreshToken(t, token)
      if (!row) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
      if (row.secret_fingerprint !== null && !sameSecret(row.secret_fingerprint, secret)) {
        // The project's JWT secret was rotated since the session began: it ends, as its access tokens did.
        await store.deleteSession(t, row.session_id)
        return { error: authError(400, 'session_expired', 'Invalid Refresh Token: Session Expired') }
      }
      const now = clock.now()
      let refresh: string
      if (row.revoked) {
        const active = await store.currentRefreshToken(t, row.session_id)
        if (active && now.getTime() - new Date(row.updated_at).getTime() <= REFRESH_REUSE_GRACE_MS) {
          refresh = active
        } else {
          // A used token sent again after the grace: it may have been stolen, so the whole session ends.
          await store.deleteSession(t, row.session_id)
          await store.audit(t, 'token_revoked', { id: row.user_id }, s.ip(c), now)
          return { error: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
        }
      } else {
        await store.revokeRefreshToken(t, row.id, now)
        refresh = newRefreshToken()
        await store.insertRefreshToken(t, { token: refresh, userId: row.user_id, now, parent: token, sessionId: row.session_id })
        await store.markRefreshed(t, row.session_id, now)
        await store.audit(t, 'token_refreshed', { id: row.user_id }, s.ip(c), now)
      }
      const user = await store.userById(t, row.user_id)
      if (!user) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
      s.bannedCheck(user)
      return { session: { sessionId: row.session_id, refresh, user: await withIdentities(t, user) } }
    })
    if ('error' in result) throw result.error
    return result.session
  }

  async function pkceGrant(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    const code = optionalString(b.auth_code, 'auth_code')
    const verifier = optionalString(b.code_verifier, 'code_verifier')
    if (!code || !verifier) throw authError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
    await throttle.take(c.var.gateway.project.id, `verify:${s.address(c)}`, settings.rate_limit_verify)
    return s.tx(c, async (t) => {
      const flow = await store.flowByCode(t, code)
      if (!flow || !flow.user_id || !flow.auth_code_issued_at) throw authError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
      if (clock.now().getTime() - new Date(flow.auth_code_issued_at).getTime() > AUTH_CODE_TTL_MS) {
        await store.deleteFlow(t, flow.id)
        throw authError(403, 'flow_state_expired', 'invalid flow state, flow state has expired')
      }
      const computed = flow.code_challenge_method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url')
      if (!sameSecret(computed, flow.code_challenge)) throw authError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
      await store.deleteFlow(t, flow.id)
      const user = await store.userById(t, flow.user_id)
      if (!user) throw authError(404, 'user_not_found', 'User not found')
      return s.startSession(c, t, user, 'login')
    })
  }
}
