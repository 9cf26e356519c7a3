/**
 * Each project's auth service, compatible with what @supabase/supabase-js (auth-js) sends and expects, behind the
 * gateway at `{origin}/p/{ref}/auth/v1`: sign-up, password / refresh-token / PKCE grants, e-mailed links and codes
 * (/otp, /magiclink, /recover, /invite, /verify), the signed-in user (/user, /logout) and the admin API for the
 * service_role key. Users live in the project's own database (schema auth); access tokens are HS256 JWTs signed
 * with the project's current JWT secret, so the gateway, REST and row level security (`auth.uid()`) accept them,
 * and a rotation of the secret ends them. Refusals are in the platform's `{ code, error_code, msg }` shape.
 */
import { createHash, randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { SignJWT } from 'jose'
import type { Deps } from '../../core/deps'
import type { GatewayContext, GatewayEnv, GatewayRefusal, Product } from '../../gateway'
import { ProjectDbError, type ProjectTx } from '../../projectdb/types'
import { clientAddress } from '../session/throttle'
import { AuthApiError, authError, authErrorResponse, invalidCredentials, noAuthorization, notAdmin, otpInvalid } from './errors'
import { composeMail, sendMail, type Mail } from './mail'
import { ensureAuthSchema } from './schema'
import { loadAuthSettings, redirectTarget, type AuthSettings } from './settings'
import { AuthThrottle, FAILED_SIGN_INS_PER_EMAIL, HOUR } from './throttle'
import {
  audit,
  checkPassword,
  hashPassword,
  insertUser,
  newOtp,
  newRefreshToken,
  normaliseEmail,
  OTP_TTL_MS,
  passwordMatches,
  sameSecret,
  tokenHash,
  userByEmail,
  userById,
  USER_COLUMNS,
  withIdentities,
  type UserJson,
  type UserRow,
} from './users'

/** A used refresh token may be sent again this long after (two tabs refreshing at once) and get the current one. */
export const REFRESH_REUSE_GRACE_MS = 10_000
/** An auth code of the PKCE flow must be exchanged within this time. */
const AUTH_CODE_TTL_MS = 5 * 60_000

const GATEWAY_CODES: Record<string, string> = {
  project_not_found: 'project_not_found',
  project_unavailable: 'service_unavailable',
  no_key: 'no_authorization',
  bad_authorization_header: 'bad_jwt',
  invalid_token: 'bad_jwt',
  other_project: 'bad_jwt',
  token_expired: 'bad_jwt',
  bad_role: 'bad_jwt',
  no_secret: 'no_authorization',
}

type Env = GatewayEnv
type C = Context<Env>

/** A digest of the secret a session began under (never the secret): a rotation makes it differ. */
const fingerprint = (secret: string) => createHash('sha256').update(`auth-session:${secret}`).digest('hex').slice(0, 32)

const EMAIL_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'] as const
type VerifyType = (typeof EMAIL_TYPES)[number]

/** Which stored token a verification type checks. */
const TOKEN_COLUMNS: Record<VerifyType, Array<'confirmation_token' | 'recovery_token' | 'email_change_token_new'>> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  magiclink: ['recovery_token'],
  recovery: ['recovery_token'],
  email_change: ['email_change_token_new'],
  email: ['confirmation_token', 'recovery_token'],
}
const SENT_AT: Record<string, 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  email_change_token_new: 'email_change_sent_at',
}

export function authProduct(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Product {
  const { db, clock, config } = deps
  const throttle = new AuthThrottle(clock)
  const app = new Hono<Env>()

  // ---- helpers --------------------------------------------------------------------------------------------------

  const address = (c: C) => clientAddress(c, config.trustProxy) ?? 'local'
  const settingsOf = (c: C) => loadAuthSettings(db, c.var.gateway.project.id)

  async function body(c: C): Promise<Record<string, unknown>> {
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

  const optionalObject = (v: unknown, name: string): Record<string, unknown> | undefined => {
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'object' || Array.isArray(v)) throw authError(400, 'validation_failed', `${name} must be a JSON object`)
    return v as Record<string, unknown>
  }
  const optionalString = (v: unknown, name: string): string | undefined => {
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'string') throw authError(400, 'validation_failed', `${name} must be a string`)
    return v
  }

  /** A transaction on the project's database as its owner, schema auth made first when it predates the template. */
  async function tx<T>(c: C, fn: (tx: ProjectTx) => Promise<T>): Promise<T> {
    await ensureAuthSchema(c.var.gateway)
    return c.var.gateway.transaction({ role: 'postgres' }, fn)
  }

  function secretOf(g: GatewayContext): string {
    if (!g.project.jwtSecret) throw authError(500, 'unexpected_failure', 'The project has no JWT secret yet')
    return g.project.jwtSecret
  }

  async function recordActive(projectId: number, userId: string) {
    const now = clock.now()
    const period = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`
    await db.query(
      `insert into project_auth_active_users (project_id, period, user_id) values ($1, $2, $3) on conflict do nothing`,
      [projectId, period, userId],
    )
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
      .setIssuer(`${g.projectUrl}/auth/v1`)
      .setIssuedAt(nowS)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secretOf(g)))
    return { token, exp }
  }

  /** Starts a session for the user in `t`: its row, its first refresh token, the sign-in time. */
  async function startSession(c: C, t: ProjectTx, user: UserRow, action: string) {
    const now = clock.now()
    const sessionId = randomUUID()
    const refresh = newRefreshToken()
    const ip = clientAddress(c, config.trustProxy)
    await t.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, secret_fingerprint)
       values ($1, $2, $3, $3, 'aal1', $4, $5, $6)`,
      [sessionId, user.id, now, c.req.header('user-agent') ?? null, ip && /^[0-9a-f.:]+$/i.test(ip) ? ip : null, fingerprint(secretOf(c.var.gateway))],
    )
    await t.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $3, null, $4)`,
      [refresh, user.id, now, sessionId],
    )
    await t.query(`update auth.users set last_sign_in_at = $2, updated_at = $2 where id = $1`, [user.id, now])
    await audit(t, action, user, ip, now)
    const fresh = (await userById(t, user.id))!
    return { sessionId, refresh, user: await withIdentities(t, fresh) }
  }

  async function sessionJson(c: C, s: { sessionId: string; refresh: string; user: UserJson }, method: string, settings: AuthSettings) {
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
    if (typeof sessionId === 'string') {
      const { rows } = await t.query(`select 1 from auth.sessions where id = $1 and user_id = $2`, [sessionId, sub])
      if (rows.length === 0) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
    }
    const user = await userById(t, sub)
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    return { user, sessionId: typeof sessionId === 'string' ? sessionId : undefined }
  }

  function requireAdmin(c: C) {
    if (c.var.gateway.caller?.role !== 'service_role') throw notAdmin()
  }

  /**
   * Puts a fresh one-time token of `kind` on the user and e-mails its link and code. The link is built on the
   * project URL and goes through GET /verify, which then sends the browser to `redirectTo` (or the Site URL).
   */
  async function mailToken(
    c: C,
    t: ProjectTx,
    settings: AuthSettings,
    user: UserRow,
    kind: Mail['kind'],
    redirectTo: string | undefined,
    to = user.email ?? '',
  ) {
    throttle.take(`email:${c.var.gateway.project.id}`, settings.rate_limit_email_sent, HOUR, 'over_email_send_rate_limit')
    const { hash, otp, link } = await setToken(c, t, settings, user, kind, redirectTo, to)
    await sendMail(db, c.var.gateway.project.id, composeMail(kind, to, link, otp))
    return hash
  }

  async function setToken(c: C, t: ProjectTx, settings: AuthSettings, user: UserRow, kind: Mail['kind'], redirectTo: string | undefined, to = user.email ?? '') {
    const otp = newOtp()
    const hash = tokenHash(to, otp)
    const now = clock.now()
    const column = kind === 'recovery' || kind === 'magiclink' ? 'recovery' : kind === 'email_change' ? 'email_change' : 'confirmation'
    if (column === 'recovery') {
      await t.query(`update auth.users set recovery_token = $2, recovery_sent_at = $3 where id = $1`, [user.id, hash, now])
    } else if (column === 'email_change') {
      await t.query(`update auth.users set email_change_token_new = $2, email_change = $3, email_change_sent_at = $4 where id = $1`, [user.id, hash, to, now])
    } else {
      await t.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = $3 where id = $1`, [user.id, hash, now])
    }
    const type = kind === 'confirmation' ? 'signup' : kind
    const target = redirectTarget(settings, redirectTo)
    const link = `${c.var.gateway.projectUrl}/auth/v1/verify?token=${hash}&type=${type}&redirect_to=${encodeURIComponent(target)}`
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
    const now = clock.now()
    await t.query(
      `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method, created_at, updated_at)
       values ($1, $2, $3, $4, $5, 'email', $6, $7, $7)`,
      [randomUUID(), userId, randomUUID(), challengeMethod, challenge, method, now],
    )
  }

  /** Checks a one-time token and uses it up: the user it belongs to, their e-mail confirmed or changed. */
  async function consumeToken(t: ProjectTx, type: VerifyType, given: { email?: string; otp?: string; hash?: string }) {
    const columns = TOKEN_COLUMNS[type]
    let user: UserRow | undefined
    let column: (typeof columns)[number] | undefined
    if (given.hash) {
      for (const col of columns) {
        const { rows } = await t.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${col} = $1 and deleted_at is null`, [given.hash])
        if (rows[0]) {
          user = rows[0]
          column = col
          break
        }
      }
    } else if (given.email && given.otp) {
      const candidate = type === 'email_change'
        ? (await t.query<UserRow>(`select ${USER_COLUMNS} from auth.users where email_change = $1 and deleted_at is null`, [given.email])).rows[0]
        : await userByEmail(t, given.email)
      const expected = tokenHash(given.email, given.otp)
      column = candidate && columns.find((col) => candidate[col] && sameSecret(candidate[col]!, expected))
      if (column) user = candidate
    }
    if (!user || !column) throw otpInvalid()
    const sentAt = user[SENT_AT[column]]
    if (!sentAt || clock.now().getTime() - new Date(sentAt).getTime() > OTP_TTL_MS) throw otpInvalid()
    const now = clock.now()
    if (column === 'email_change_token_new') {
      await t.query(
        `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_confirmed_at = coalesce(email_confirmed_at, $2), updated_at = $2 where id = $1`,
        [user.id, now],
      )
      await t.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', (select email from auth.users where id = $1)), updated_at = $2 where user_id = $1 and provider = 'email'`,
        [user.id, now],
      )
    } else {
      await t.query(`update auth.users set ${column} = '', email_confirmed_at = coalesce(email_confirmed_at, $2), updated_at = $2 where id = $1`, [user.id, now])
    }
    return (await userById(t, user.id))!
  }

  function bannedCheck(user: UserRow) {
    if (user.banned_until && new Date(user.banned_until).getTime() > clock.now().getTime()) throw authError(400, 'user_banned', 'User is banned')
  }

  // ---- public routes --------------------------------------------------------------------------------------------

  app.get('/health', (c) => c.json({ version: 'v2.170.0', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }))

  app.get('/settings', async (c) => {
    const s = await settingsOf(c)
    return c.json({
      external: { anonymous_users: false, email: true, phone: false, apple: false, azure: false, bitbucket: false, discord: false, facebook: false, figma: false, github: false, gitlab: false, google: false, keycloak: false, linkedin_oidc: false, notion: false, slack_oidc: false, spotify: false, twitch: false, twitter: false, workos: false, zoom: false },
      disable_signup: s.disable_signup,
      mailer_autoconfirm: s.mailer_autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    })
  })

  app.post('/signup', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) throw authError(400, 'phone_provider_disabled', 'Phone signups are disabled')
    if (settings.disable_signup) throw authError(422, 'signup_disabled', 'Signups not allowed for this instance')
    const email = normaliseEmail(b.email)
    const password = checkPassword(b.password, settings.password_min_length)
    const data = optionalObject(b.data, 'data')
    throttle.take(`verify:${address(c)}`, settings.rate_limit_verify)
    const redirectTo = c.req.query('redirect_to')
    const hash = await hashPassword(password)
    const outcome = await tx(c, async (t) => {
      const existing = await userByEmail(t, email)
      const now = clock.now()
      if (existing?.email_confirmed_at) {
        if (settings.mailer_autoconfirm) throw authError(422, 'user_already_exists', 'User already registered')
        // No enumeration: an address already in use answers like a new one, without a session or an e-mail.
        return { kind: 'user' as const, user: { ...(await withIdentities(t, existing)), id: randomUUID(), identities: [], email, created_at: now.toISOString(), updated_at: now.toISOString() } }
      }
      let user: UserRow
      if (existing) {
        await t.query(`update auth.users set encrypted_password = $2, raw_user_meta_data = $3, updated_at = $4 where id = $1`, [existing.id, hash, JSON.stringify(data ?? {}), now])
        user = (await userById(t, existing.id))!
      } else {
        user = await insertUser(t, { email, passwordHash: hash, confirmedAt: settings.mailer_autoconfirm ? now : null, userMeta: data, now })
        await audit(t, 'user_signedup', user, clientAddress(c, config.trustProxy), now)
      }
      if (settings.mailer_autoconfirm) return { kind: 'session' as const, session: await startSession(c, t, user, 'login') }
      await startFlow(t, b, user.id, 'email/signup')
      await mailToken(c, t, settings, user, 'confirmation', redirectTo)
      return { kind: 'user' as const, user: await withIdentities(t, (await userById(t, user.id))!) }
    })
    if (outcome.kind === 'session') return c.json(await sessionJson(c, outcome.session, 'password', settings))
    return c.json(outcome.user)
  })

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type')
    const settings = await settingsOf(c)
    const b = await body(c)
    if (grant === 'password') {
      if (b.phone !== undefined && b.email === undefined) throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled')
      const email = normaliseEmail(b.email)
      if (typeof b.password !== 'string' || b.password.length === 0) throw authError(400, 'validation_failed', 'Password is required')
      throttle.take(`verify:${address(c)}`, settings.rate_limit_verify)
      const failedKey = `failed:${c.var.gateway.project.id}:${email}`
      if (throttle.over(failedKey, FAILED_SIGN_INS_PER_EMAIL)) {
        throw authError(429, 'over_request_rate_limit', 'Too many failed sign-ins for this e-mail: try again later', { 'retry-after': '300' })
      }
      const user = await tx(c, (t) => userByEmail(t, email))
      const ok = Buffer.byteLength(b.password) <= 72 && (await passwordMatches(b.password, user?.encrypted_password))
      if (!user || !ok) {
        throttle.take(failedKey, Number.MAX_SAFE_INTEGER)
        throw invalidCredentials()
      }
      throttle.clear(failedKey)
      if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed')
      bannedCheck(user)
      const session = await tx(c, (t) => startSession(c, t, user, 'login'))
      return c.json(await sessionJson(c, session, 'password', settings))
    }
    if (grant === 'refresh_token') {
      const token = optionalString(b.refresh_token, 'refresh_token')
      if (!token) throw authError(400, 'validation_failed', 'refresh_token is required')
      throttle.take(`refresh:${address(c)}`, settings.rate_limit_token_refresh)
      const secret = fingerprint(secretOf(c.var.gateway))
      const result = await tx(c, async (t) => {
        const { rows } = await t.query<{ id: string; revoked: boolean; session_id: string; user_id: string; updated_at: Date | string; secret_fingerprint: string | null }>(
          `select rt.id, rt.revoked, rt.session_id, rt.user_id, rt.updated_at, s.secret_fingerprint
           from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id where rt.token = $1 for update of rt`,
          [token],
        )
        const row = rows[0]
        if (!row) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
        if (row.secret_fingerprint !== null && !sameSecret(row.secret_fingerprint, secret)) {
          // The project's JWT secret was rotated since the session began: it ends, as its access tokens did.
          await t.query(`delete from auth.sessions where id = $1`, [row.session_id])
          return { error: authError(400, 'session_expired', 'Invalid Refresh Token: Session Expired') }
        }
        const now = clock.now()
        let refresh: string
        if (row.revoked) {
          const { rows: active } = await t.query<{ token: string }>(
            `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
            [row.session_id],
          )
          if (active[0] && now.getTime() - new Date(row.updated_at).getTime() <= REFRESH_REUSE_GRACE_MS) {
            refresh = active[0].token
          } else {
            // A used token sent again after the grace: it may have been stolen, so the whole session ends.
            await t.query(`delete from auth.sessions where id = $1`, [row.session_id])
            await audit(t, 'token_revoked', { id: row.user_id }, clientAddress(c, config.trustProxy), now)
            return { error: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
          }
        } else {
          await t.query(`update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1`, [row.id, now])
          refresh = newRefreshToken()
          await t.query(
            `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
             values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $3, $4, $5)`,
            [refresh, row.user_id, now, token, row.session_id],
          )
          await t.query(`update auth.sessions set refreshed_at = $2, updated_at = $3 where id = $1`, [row.session_id, now, now])
          await audit(t, 'token_refreshed', { id: row.user_id }, clientAddress(c, config.trustProxy), now)
        }
        const user = await userById(t, row.user_id)
        if (!user) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
        bannedCheck(user)
        return { session: { sessionId: row.session_id, refresh, user: await withIdentities(t, user) } }
      })
      if ('error' in result) throw result.error
      return c.json(await sessionJson(c, result.session!, 'password', settings))
    }
    if (grant === 'pkce') {
      const code = optionalString(b.auth_code, 'auth_code')
      const verifier = optionalString(b.code_verifier, 'code_verifier')
      if (!code || !verifier) throw authError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
      throttle.take(`verify:${address(c)}`, settings.rate_limit_verify)
      const session = await tx(c, async (t) => {
        const { rows } = await t.query<{ id: string; user_id: string | null; code_challenge: string; code_challenge_method: string; auth_code_issued_at: Date | string | null }>(
          `select id, user_id, code_challenge, code_challenge_method, auth_code_issued_at from auth.flow_state where auth_code = $1`,
          [code],
        )
        const flow = rows[0]
        if (!flow || !flow.user_id || !flow.auth_code_issued_at) throw authError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
        if (clock.now().getTime() - new Date(flow.auth_code_issued_at).getTime() > AUTH_CODE_TTL_MS) {
          await t.query(`delete from auth.flow_state where id = $1`, [flow.id])
          throw authError(403, 'flow_state_expired', 'invalid flow state, flow state has expired')
        }
        const computed = flow.code_challenge_method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url')
        if (!sameSecret(computed, flow.code_challenge)) throw authError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
        await t.query(`delete from auth.flow_state where id = $1`, [flow.id])
        const user = await userById(t, flow.user_id)
        if (!user) throw authError(404, 'user_not_found', 'User not found')
        return startSession(c, t, user, 'login')
      })
      return c.json(await sessionJson(c, session, 'otp', settings))
    }
    throw authError(400, 'validation_failed', 'unsupported_grant_type')
  })

  /** /otp and /magiclink: a link and a code by e-mail, the user made first when `create_user` and sign-ups allow. */
  const sendOtp = async (c: C) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) throw authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const createUser = b.create_user === undefined ? true : b.create_user === true
    throttle.take(`otp:${address(c)}`, settings.rate_limit_otp)
    const redirectTo = c.req.query('redirect_to') ?? optionalString(b.redirect_to, 'redirect_to')
    await tx(c, async (t) => {
      let user = await userByEmail(t, email)
      if (!user) {
        if (!createUser || settings.disable_signup) throw authError(422, 'otp_disabled', 'Signups not allowed for otp')
        user = await insertUser(t, { email, passwordHash: null, confirmedAt: null, userMeta: data, now: clock.now() })
        await audit(t, 'user_signedup', user, clientAddress(c, config.trustProxy), clock.now())
      }
      bannedCheck(user)
      await startFlow(t, b, user.id, 'magiclink')
      await mailToken(c, t, settings, user, user.email_confirmed_at ? 'magiclink' : 'confirmation', redirectTo)
    })
    return c.json({})
  }
  app.post('/otp', sendOtp)
  app.post('/magiclink', sendOtp)

  app.post('/recover', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    const email = normaliseEmail(b.email)
    throttle.take(`otp:${address(c)}`, settings.rate_limit_otp)
    const redirectTo = c.req.query('redirect_to') ?? optionalString(b.redirect_to, 'redirect_to')
    await tx(c, async (t) => {
      const user = await userByEmail(t, email)
      // No enumeration: an unknown address answers the same, and gets no e-mail.
      if (!user) return
      await startFlow(t, b, user.id, 'recovery')
      await mailToken(c, t, settings, user, 'recovery', redirectTo)
    })
    return c.json({})
  })

  app.post('/verify', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    const type = optionalString(b.type, 'type')
    if (type === 'sms' || type === 'phone_change' || b.phone !== undefined) throw authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
    if (!type || !(EMAIL_TYPES as readonly string[]).includes(type)) throw authError(400, 'validation_failed', 'Verify requires a verification type')
    throttle.take(`otp:${address(c)}`, settings.rate_limit_otp)
    const hash = optionalString(b.token_hash, 'token_hash')
    const otp = optionalString(b.token, 'token')
    const email = b.email === undefined ? undefined : normaliseEmail(b.email)
    if (!hash && !(otp && email)) throw authError(400, 'validation_failed', 'Verify requires either a token hash or an email and a token')
    const session = await tx(c, async (t) => {
      const user = await consumeToken(t, type as VerifyType, { hash, otp, email })
      bannedCheck(user)
      return startSession(c, t, user, type === 'recovery' ? 'user_recovery_requested' : 'login')
    })
    return c.json(await sessionJson(c, session, type === 'recovery' ? 'recovery' : 'otp', settings))
  })

  /** The link of an e-mail: the browser lands back on the Site URL (or an allowed redirect URL) signed in. */
  app.get('/verify', async (c) => {
    const settings = await settingsOf(c)
    const type = c.req.query('type') ?? ''
    const hash = c.req.query('token') ?? ''
    const target = redirectTarget(settings, c.req.query('redirect_to'))
    const fail = (code: string, description: string) =>
      c.redirect(`${target}#error=access_denied&error_code=${code}&error_description=${encodeURIComponent(description)}`, 303)
    if (!(EMAIL_TYPES as readonly string[]).includes(type) || !hash) return fail('validation_failed', 'Verify requires a verification type and a token')
    try {
      throttle.take(`otp:${address(c)}`, settings.rate_limit_otp)
    } catch {
      return fail('over_request_rate_limit', 'Request rate limit reached')
    }
    let outcome: { code: string } | { session: Awaited<ReturnType<typeof startSession>> }
    try {
      outcome = await tx(c, async (t) => {
        const user = await consumeToken(t, type as VerifyType, { hash })
        bannedCheck(user)
        const method = type === 'recovery' ? 'recovery' : type === 'signup' || type === 'invite' ? 'email/signup' : 'magiclink'
        const { rows } = await t.query<{ id: string; auth_code: string }>(
          `select id, auth_code from auth.flow_state where user_id = $1 and auth_code_issued_at is null and authentication_method = $2 order by created_at desc limit 1`,
          [user.id, method],
        )
        if (rows[0]) {
          await t.query(`update auth.flow_state set auth_code_issued_at = $2, updated_at = $2 where id = $1`, [rows[0].id, clock.now()])
          return { code: rows[0].auth_code }
        }
        return { session: await startSession(c, t, user, 'login') }
      })
    } catch (err) {
      if (err instanceof AuthApiError) return fail(err.errorCode, err.message)
      throw err
    }
    if ('code' in outcome) {
      const url = new URL(target)
      url.searchParams.set('code', outcome.code)
      return c.redirect(url.toString(), 303)
    }
    const s = await sessionJson(c, outcome.session, 'otp', settings)
    const fragment = new URLSearchParams({
      access_token: s.access_token,
      expires_at: String(s.expires_at),
      expires_in: String(s.expires_in),
      refresh_token: s.refresh_token,
      token_type: 'bearer',
      type,
    })
    return c.redirect(`${target}#${fragment.toString()}`, 303)
  })

  app.get('/user', async (c) => {
    const user = await tx(c, async (t) => withIdentities(t, (await currentUser(c, t)).user))
    return c.json(user)
  })

  app.put('/user', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    const data = optionalObject(b.data, 'data')
    const newEmail = b.email === undefined ? undefined : normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings.password_min_length)
    const hash = password === undefined ? undefined : await hashPassword(password)
    const redirectTo = c.req.query('redirect_to')
    const user = await tx(c, async (t) => {
      const { user } = await currentUser(c, t)
      const now = clock.now()
      if (data) {
        await t.query(`update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = $3 where id = $1`, [user.id, JSON.stringify(data), now])
      }
      if (hash) {
        await t.query(`update auth.users set encrypted_password = $2, updated_at = $3 where id = $1`, [user.id, hash, now])
        await audit(t, 'user_updated_password', user, clientAddress(c, config.trustProxy), now)
      }
      if (newEmail && newEmail !== user.email) {
        const taken = await userByEmail(t, newEmail)
        if (taken) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
        await mailToken(c, t, settings, user, 'email_change', redirectTo, newEmail)
      }
      return withIdentities(t, (await userById(t, user.id))!)
    })
    return c.json(user)
  })

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global'
    if (!['global', 'local', 'others'].includes(scope)) throw authError(400, 'validation_failed', 'Unsupported logout scope')
    await tx(c, async (t) => {
      const { user, sessionId } = await currentUser(c, t)
      if (scope === 'global' || !sessionId) await t.query(`delete from auth.sessions where user_id = $1`, [user.id])
      else if (scope === 'local') await t.query(`delete from auth.sessions where id = $1`, [sessionId])
      else await t.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [user.id, sessionId])
      await audit(t, 'logout', user, clientAddress(c, config.trustProxy), clock.now())
    })
    return c.body(null, 204)
  })

  app.post('/invite', async (c) => {
    requireAdmin(c)
    const settings = await settingsOf(c)
    const b = await body(c)
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const redirectTo = c.req.query('redirect_to')
    const user = await tx(c, async (t) => {
      const existing = await userByEmail(t, email)
      if (existing?.email_confirmed_at) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
      const now = clock.now()
      const user = existing ?? (await insertUser(t, { email, passwordHash: null, confirmedAt: null, userMeta: data, invitedAt: now, now }))
      await t.query(`update auth.users set invited_at = $2 where id = $1`, [user.id, now])
      await audit(t, 'user_invited', user, clientAddress(c, config.trustProxy), now)
      await mailToken(c, t, settings, user, 'invite', redirectTo)
      return withIdentities(t, (await userById(t, user.id))!)
    })
    return c.json(user)
  })

  // ---- admin (service_role) -----------------------------------------------------------------------------------------

  app.use('/admin/*', async (c, next) => {
    requireAdmin(c)
    await next()
  })

  app.get('/admin/users', async (c) => {
    const page = Number(c.req.query('page') || '1')
    const perPage = Number(c.req.query('per_page') || '50')
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
      throw authError(400, 'validation_failed', 'page must be a positive integer and per_page an integer from 1 to 1000')
    }
    const filter = (c.req.query('filter') ?? '').trim().toLowerCase()
    const { users, total } = await tx(c, async (t) => {
      const where = `deleted_at is null${filter ? ` and lower(email) like '%' || $3 || '%'` : ''}`
      const params: unknown[] = [perPage, (page - 1) * perPage, ...(filter ? [filter.replace(/[\\%_]/g, (m) => `\\${m}`)] : [])]
      const { rows } = await t.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${where} order by created_at desc, id limit $1 offset $2`, params)
      const count = await t.query<{ n: string | number }>(
        `select count(*) as n from auth.users where ${filter ? `deleted_at is null and lower(email) like '%' || $1 || '%'` : 'deleted_at is null'}`,
        filter ? [params[2]] : [],
      )
      const users: UserJson[] = []
      for (const row of rows) users.push(await withIdentities(t, row))
      return { users, total: Number(count.rows[0].n) }
    })
    const last = Math.max(1, Math.ceil(total / perPage))
    const links: string[] = []
    if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`)
    links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`)
    c.header('x-total-count', String(total))
    c.header('link', links.join(', '))
    return c.json({ aud: 'authenticated', users })
  })

  app.post('/admin/users', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) throw authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
    const email = normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings.password_min_length)
    const hash = password === undefined ? null : await hashPassword(password)
    const userMeta = optionalObject(b.user_metadata, 'user_metadata')
    const appMeta = optionalObject(b.app_metadata, 'app_metadata')
    const user = await tx(c, async (t) => {
      if (await userByEmail(t, email)) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
      const now = clock.now()
      const user = await insertUser(t, { email, passwordHash: hash, confirmedAt: b.email_confirm === true ? now : null, userMeta, appMeta, now })
      await audit(t, 'user_signedup', user, clientAddress(c, config.trustProxy), now, { provider: 'email' })
      return withIdentities(t, user)
    })
    return c.json(user)
  })

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  const userIdParam = (c: C) => {
    const id = c.req.param('id') ?? ''
    if (!UUID.test(id)) throw authError(404, 'user_not_found', 'User not found')
    return id.toLowerCase()
  }

  app.get('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    const user = await tx(c, async (t) => {
      const row = await userById(t, id)
      if (!row) throw authError(404, 'user_not_found', 'User not found')
      return withIdentities(t, row)
    })
    return c.json(user)
  })

  app.put('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    const settings = await settingsOf(c)
    const b = await body(c)
    const email = b.email === undefined ? undefined : normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings.password_min_length)
    const hash = password === undefined ? undefined : await hashPassword(password)
    const userMeta = optionalObject(b.user_metadata, 'user_metadata')
    const appMeta = optionalObject(b.app_metadata, 'app_metadata')
    const ban = optionalString(b.ban_duration, 'ban_duration')
    let bannedUntil: Date | null | undefined
    if (ban !== undefined) {
      if (ban === 'none') bannedUntil = null
      else {
        const m = /^(\d+)h$/.exec(ban)
        if (!m) throw authError(400, 'validation_failed', 'ban_duration must be "none" or a number of hours such as "24h"')
        bannedUntil = new Date(clock.now().getTime() + Number(m[1]) * HOUR)
      }
    }
    const user = await tx(c, async (t) => {
      const row = await userById(t, id)
      if (!row) throw authError(404, 'user_not_found', 'User not found')
      const now = clock.now()
      if (email && email !== row.email) {
        const taken = await userByEmail(t, email)
        if (taken) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
        await t.query(`update auth.users set email = $2, updated_at = $3 where id = $1`, [id, email, now])
      }
      if (hash) await t.query(`update auth.users set encrypted_password = $2, updated_at = $3 where id = $1`, [id, hash, now])
      if (b.email_confirm === true) await t.query(`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, $2) where id = $1`, [id, now])
      if (userMeta) await t.query(`update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = $3 where id = $1`, [id, JSON.stringify(userMeta), now])
      if (appMeta) await t.query(`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = $3 where id = $1`, [id, JSON.stringify(appMeta), now])
      if (bannedUntil !== undefined) {
        await t.query(`update auth.users set banned_until = $2, updated_at = $3 where id = $1`, [id, bannedUntil, now])
        if (bannedUntil) await t.query(`delete from auth.sessions where user_id = $1`, [id])
      }
      return withIdentities(t, (await userById(t, id))!)
    })
    return c.json(user)
  })

  app.delete('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    await tx(c, async (t) => {
      const row = await userById(t, id)
      if (!row) throw authError(404, 'user_not_found', 'User not found')
      await t.query(`delete from auth.users where id = $1`, [id])
      await audit(t, 'user_deleted', { id, email: row.email }, clientAddress(c, config.trustProxy), clock.now())
    })
    return c.json({})
  })

  app.post('/admin/generate_link', async (c) => {
    const settings = await settingsOf(c)
    const b = await body(c)
    const type = optionalString(b.type, 'type')
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const redirectTo = optionalString(b.redirect_to, 'redirect_to') ?? c.req.query('redirect_to')
    const kinds: Record<string, Mail['kind']> = { signup: 'confirmation', invite: 'invite', magiclink: 'magiclink', recovery: 'recovery', email_change_new: 'email_change' }
    if (!type || !kinds[type]) throw authError(400, 'validation_failed', 'Invalid link type: one of signup, invite, magiclink, recovery, email_change_new')
    const newEmail = type === 'email_change_new' ? normaliseEmail(b.new_email) : undefined
    const password = type === 'signup' ? checkPassword(b.password, settings.password_min_length) : undefined
    const hash = password === undefined ? null : await hashPassword(password)
    const result = await tx(c, async (t) => {
      const now = clock.now()
      let user = await userByEmail(t, email)
      if (type === 'signup' || type === 'invite') {
        if (user?.email_confirmed_at) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
        user ??= await insertUser(t, { email, passwordHash: hash, confirmedAt: null, userMeta: data, invitedAt: type === 'invite' ? now : null, now })
      }
      if (!user) throw authError(404, 'user_not_found', 'User with this email not found')
      const kind = type === 'magiclink' && !user.email_confirmed_at ? 'confirmation' : kinds[type]
      const link = await setToken(c, t, settings, user, kind, redirectTo, newEmail ?? user.email ?? '')
      return { user: await withIdentities(t, (await userById(t, user.id))!), link }
    })
    return c.json({
      ...result.user,
      action_link: result.link.link,
      email_otp: result.link.otp,
      hashed_token: result.link.hash,
      verification_type: result.link.type,
      redirect_to: result.link.target,
    })
  })

  // Last: what no route above answered (a sub-app's notFound is not used once mounted).
  app.all('*', (c) => c.json({ code: 404, error_code: 'not_found', msg: `No route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404))

  app.onError((err, c) => {
    if (err instanceof AuthApiError) {
      const res = authErrorResponse(c, err)
      const reasons = (err as { reasons?: string[] }).reasons
      if (reasons) return c.json({ code: err.status, error_code: err.errorCode, msg: err.message, weak_password: { reasons } }, err.status)
      return res
    }
    if (err instanceof ProjectDbError && (err.code === 'database_unavailable' || err.code === 'database_busy' || err.code === 'query_timeout')) {
      return c.json({ code: 503, error_code: 'service_unavailable', msg: 'The project database is not available: try again in a moment' }, 503)
    }
    // The name and SQLSTATE only: a message may quote a value of the request.
    console.error('auth service failure:', err instanceof Error ? err.name : 'error', err instanceof ProjectDbError ? err.code : '')
    return c.json({ code: 500, error_code: 'unexpected_failure', msg: 'Unexpected failure, please check server logs for more information' }, 500)
  })

  return {
    name: 'auth',
    app,
    keys: 'required',
    // The links of e-mails are opened by a browser, which has no key to send.
    keyless: (method, path) => method === 'GET' && path === '/verify',
    refuse: (c: Context, refusal: GatewayRefusal) => {
      for (const [k, v] of Object.entries(refusal.headers)) c.header(k, v)
      return c.json({ code: refusal.status, error_code: GATEWAY_CODES[refusal.reason] ?? 'bad_jwt', msg: refusal.message }, refusal.status)
    },
  }
}


