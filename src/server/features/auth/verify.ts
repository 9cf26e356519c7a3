/**
 * The auth service's e-mailed links and codes: POST /otp and /magiclink (a link, the user made first when
 * `create_user` and sign-ups allow), POST /recover, POST /verify (a code or a token hash for a session) and GET
 * /verify, the link itself, which sends the browser back to the Site URL (or an allowed redirect URL) signed in, or
 * with the auth code of the PKCE flow the request for the link started.
 */
import type { Hono } from 'hono'
import type { GatewayEnv } from '../../gateway'
import { AuthApiError, authError } from './errors'
import { body, isVerifyType, optionalObject, optionalString, type AuthService, type C, type Session } from './service'
import { phoneFlows } from './phone'
import { redirectTarget } from './settings'
import * as store from './store'
import { normaliseEmail } from './users'

export function verifyRoutes(app: Hono<GatewayEnv>, s: AuthService) {
  const { clock, throttle } = s
  const phone = phoneFlows(s)

  const sendOtp = async (c: C) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) {
      await phone.sendOtp(c, b, settings)
      return c.json({})
    }
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const createUser = b.create_user === undefined ? true : b.create_user === true
    await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    const redirectTo = c.req.query('redirect_to') ?? optionalString(b.redirect_to, 'redirect_to')
    await s.tx(c, async (t) => {
      let user = await store.userByEmail(t, email)
      if (!user) {
        if (!createUser || settings.disable_signup) throw authError(422, 'otp_disabled', 'Signups not allowed for otp')
        user = await store.insertUser(t, { email, passwordHash: null, confirmedAt: null, userMeta: data, now: clock.now() })
        await store.audit(t, 'user_signedup', user, s.ip(c), clock.now())
      }
      s.bannedCheck(user)
      await s.startFlow(t, b, user.id, 'magiclink')
      await s.mailToken(c, t, settings, user, user.email_confirmed_at ? 'magiclink' : 'confirmation', redirectTo)
    })
    return c.json({})
  }
  app.post('/otp', sendOtp)
  app.post('/magiclink', sendOtp)

  app.post('/recover', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const email = normaliseEmail(b.email)
    await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    const redirectTo = c.req.query('redirect_to') ?? optionalString(b.redirect_to, 'redirect_to')
    await s.tx(c, async (t) => {
      const user = await store.userByEmail(t, email)
      // No enumeration: an unknown address answers the same, and gets no e-mail.
      if (!user) return
      await s.startFlow(t, b, user.id, 'recovery')
      await s.mailToken(c, t, settings, user, 'recovery', redirectTo)
    })
    return c.json({})
  })

  app.post('/verify', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const type = optionalString(b.type, 'type')
    if (type === 'sms') return c.json(await s.sessionJson(c, await phone.verify(c, b, settings), 'otp', settings))
    if (type === 'phone_change') return c.json(await s.sessionJson(c, await phone.verifyChange(c, b, settings), 'otp', settings))
    if (b.phone !== undefined) throw authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
    if (!isVerifyType(type)) throw authError(400, 'validation_failed', 'Verify requires a verification type')
    await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    const hash = optionalString(b.token_hash, 'token_hash')
    const otp = optionalString(b.token, 'token')
    const email = b.email === undefined ? undefined : normaliseEmail(b.email)
    if (!hash && !(otp && email)) throw authError(400, 'validation_failed', 'Verify requires either a token hash or an email and a token')
    const session = await s.tx(c, async (t) => {
      const user = await s.consumeToken(t, type, { hash, otp, email })
      s.bannedCheck(user)
      return s.startSession(c, t, user, type === 'recovery' ? 'user_recovery_requested' : 'login')
    })
    return c.json(await s.sessionJson(c, session, type === 'recovery' ? 'recovery' : 'otp', settings))
  })

  /** The link of an e-mail: the browser lands back on the Site URL (or an allowed redirect URL) signed in. */
  app.get('/verify', async (c) => {
    const settings = await s.settingsOf(c)
    const type = c.req.query('type') ?? ''
    const hash = c.req.query('token') ?? ''
    const target = redirectTarget(settings, c.req.query('redirect_to'))
    const fail = (code: string, description: string) =>
      c.redirect(`${target}#error=access_denied&error_code=${code}&error_description=${encodeURIComponent(description)}`, 303)
    if (!isVerifyType(type) || !hash) return fail('validation_failed', 'Verify requires a verification type and a token')
    try {
      await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    } catch {
      return fail('over_request_rate_limit', 'Request rate limit reached')
    }
    let outcome: { code: string } | { session: Session }
    try {
      outcome = await s.tx(c, async (t) => {
        const user = await s.consumeToken(t, type, { hash })
        s.bannedCheck(user)
        const method = type === 'recovery' ? 'recovery' : type === 'signup' || type === 'invite' ? 'email/signup' : 'magiclink'
        const flow = await store.pendingFlow(t, user.id, method)
        if (flow) {
          await store.markCodeIssued(t, flow.id, clock.now())
          return { code: flow.auth_code }
        }
        return { session: await s.startSession(c, t, user, 'login') }
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
    const session = await s.sessionJson(c, outcome.session, 'otp', settings)
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    })
    return c.redirect(`${target}#${fragment.toString()}`, 303)
  })
}
