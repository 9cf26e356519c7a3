/**
 * Phone sign-up and sign-in, when the phone provider is on in the settings (external_phone_enabled): a six-digit code
 * by text message (POST /otp {phone}, checked by POST /verify {type: 'sms'}), and sign-up / sign-in with phone and
 * password, and a signed-in user's change of number (PUT /user {phone}, confirmed by POST /verify {type:
 * 'phone_change'}). There is no messaging provider here: messages go to the project's local mailbox, by the channel the
 * caller asked for (auth-js' `channel`: 'sms', or 'whatsapp' for a code by /otp or a phone sign-up). Phones are
 * stored as the platform stores them, digits only (no '+'). Refused as the platform refuses them when the provider
 * is off: 400 phone_provider_disabled.
 */
import type { ProjectTx } from '../../projectdb/types'
import { authError, invalidCredentials, otpInvalid } from './errors'
import { sendSms } from './mail'
import { optionalObject, type AuthService, type C, type Session } from './service'
import type { AuthSettings } from './settings'
import * as store from './store'
import { FAILED_SIGN_INS_PER_EMAIL, HOUR } from './throttle'
import { checkPassword, hashPassword, newOtp, OTP_TTL_MS, passwordMatches, sameSecret, tokenHash } from './users'

export function requirePhoneProvider(settings: AuthSettings, what = 'Unsupported phone provider') {
  if (!settings.external_phone_enabled) throw authError(400, 'phone_provider_disabled', what)
}

/** A phone number as the platform keeps it: E.164 digits without the '+', 8 to 15 of them. */
export function normalisePhone(value: unknown): string {
  if (typeof value !== 'string') throw authError(400, 'validation_failed', 'Phone number is required')
  const digits = value.replace(/[\s().-]/g, '').replace(/^\+/, '')
  if (!/^[1-9][0-9]{7,14}$/.test(digits)) throw authError(400, 'validation_failed', 'Invalid phone number format (E.164 required)')
  return digits
}

/**
 * The channel a code is asked for by (`channel`, auth-js sends 'sms' unless told 'whatsapp'); anything else is
 * refused as the platform refuses it.
 */
export function phoneChannel(value: unknown): store.PhoneChannel {
  if (value === undefined || value === null || value === 'sms') return 'sms'
  if (value === 'whatsapp') return 'whatsapp'
  throw authError(400, 'validation_failed', "Invalid channel, supported values are 'sms' or 'whatsapp'")
}

export function phoneFlows(s: AuthService) {
  const { db, clock, throttle } = s

  /** Puts a fresh code on the user (confirmation for an unconfirmed phone, else sign-in) and texts it. */
  async function textCode(c: C, t: ProjectTx, settings: AuthSettings, user: store.UserRow, phone: string, channel: store.PhoneChannel) {
    await throttle.take(c.var.gateway.project.id, 'sms', settings.rate_limit_sms_sent, HOUR, 'over_sms_send_rate_limit')
    const otp = newOtp()
    const confirming = !user.phone_confirmed_at
    await store.setOneTimeToken(t, user.id, confirming ? 'confirmation' : 'recovery', tokenHash(phone, otp), clock.now(), user.email ?? '')
    await sendSms(db, c.var.gateway.project.id, {
      to: `+${phone}`,
      body: `Your code is ${otp}`,
      kind: confirming ? 'phone_confirmation' : 'sms_otp',
      channel,
    })
  }

  /** POST /signup with a phone: a session at once with sms_autoconfirm, else a code to confirm it. */
  async function signUp(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<{ session: Session } | { user: store.UserRow }> {
    requirePhoneProvider(settings, 'Phone signups are disabled')
    if (settings.disable_signup) throw authError(422, 'signup_disabled', 'Signups not allowed for this instance')
    const phone = normalisePhone(b.phone)
    const channel = phoneChannel(b.channel)
    const password = checkPassword(b.password, settings)
    const data = optionalObject(b.data, 'data')
    await throttle.take(c.var.gateway.project.id, `verify:${s.address(c)}`, settings.rate_limit_verify)
    const hash = await hashPassword(password)
    return s.tx(c, async (t) => {
      const now = clock.now()
      if (await store.userByPhone(t, phone)) throw authError(422, 'phone_exists', 'Phone number already registered by another user')
      const user = await store.insertPhoneUser(t, { phone, passwordHash: hash, confirmedAt: settings.sms_autoconfirm ? now : null, userMeta: data, now })
      await store.audit(t, 'user_signedup', user, s.ip(c), now)
      if (settings.sms_autoconfirm) return { session: await s.startSession(c, t, user, 'login') }
      await textCode(c, t, settings, user, phone, channel)
      return { user: (await store.userById(t, user.id))! }
    })
  }

  /** POST /token?grant_type=password with a phone. */
  async function passwordGrant(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    requirePhoneProvider(settings, 'Phone logins are disabled')
    const phone = normalisePhone(b.phone)
    if (typeof b.password !== 'string' || b.password.length === 0) throw authError(400, 'validation_failed', 'Password is required')
    const projectId = c.var.gateway.project.id
    await throttle.take(projectId, `verify:${s.address(c)}`, settings.rate_limit_verify)
    const failedKey = `failed-phone:${phone}`
    if (await throttle.over(projectId, failedKey, FAILED_SIGN_INS_PER_EMAIL)) {
      throw authError(429, 'over_request_rate_limit', 'Too many failed sign-ins for this phone: try again later', { 'retry-after': '300' })
    }
    const user = await s.tx(c, (t) => store.userByPhone(t, phone))
    const ok = Buffer.byteLength(b.password) <= 72 && (await passwordMatches(b.password, user?.encrypted_password))
    if (!user || !ok) {
      await throttle.take(projectId, failedKey, Number.MAX_SAFE_INTEGER)
      throw invalidCredentials()
    }
    await throttle.clear(projectId, failedKey)
    if (!user.phone_confirmed_at) throw authError(400, 'phone_not_confirmed', 'Phone not confirmed')
    s.bannedCheck(user)
    return s.tx(c, (t) => s.startSession(c, t, user, 'login'))
  }

  /** POST /otp with a phone: a code by text message; a new phone makes a user unless create_user is false. */
  async function sendOtp(c: C, b: Record<string, unknown>, settings: AuthSettings) {
    requirePhoneProvider(settings)
    const phone = normalisePhone(b.phone)
    const channel = phoneChannel(b.channel)
    const data = optionalObject(b.data, 'data')
    const createUser = b.create_user === undefined ? true : b.create_user === true
    await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    await s.tx(c, async (t) => {
      let user = await store.userByPhone(t, phone)
      if (!user) {
        if (!createUser || settings.disable_signup) throw authError(422, 'otp_disabled', 'Signups not allowed for otp')
        user = await store.insertPhoneUser(t, { phone, passwordHash: null, confirmedAt: null, userMeta: data, now: clock.now() })
        await store.audit(t, 'user_signedup', user, s.ip(c), clock.now())
      }
      s.bannedCheck(user)
      await textCode(c, t, settings, user, phone, channel)
    })
  }

  /** What both kinds of POST /verify by phone check first: the provider, the number, a code, the caller's rate. */
  async function codeBrought(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<{ phone: string; otp: string }> {
    requirePhoneProvider(settings)
    const phone = normalisePhone(b.phone)
    if (typeof b.token !== 'string' || b.token === '') throw authError(400, 'validation_failed', 'Verify requires a phone and a token')
    await throttle.take(c.var.gateway.project.id, `otp:${s.address(c)}`, settings.rate_limit_otp)
    return { phone, otp: b.token }
  }

  /** A code sent at `sentAt` (none: never sent) no longer counts. */
  const expired = (sentAt: string | Date | null | undefined) => !sentAt || clock.now().getTime() - new Date(sentAt).getTime() > OTP_TTL_MS

  /** POST /verify {type: 'sms', phone, token}: the code is used up, the phone confirmed, a session begins. */
  async function verify(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    const { phone, otp } = await codeBrought(c, b, settings)
    return s.tx(c, async (t) => {
      const user = await store.userByPhone(t, phone)
      const expected = tokenHash(phone, otp)
      const column = user && (['confirmation_token', 'recovery_token'] as const).find((col) => user[col] && sameSecret(user[col]!, expected))
      if (!user || !column) throw otpInvalid()
      const sentAt = column === 'confirmation_token' ? user.confirmation_sent_at : user.recovery_sent_at
      if (expired(sentAt)) throw otpInvalid()
      await store.usePhoneToken(t, user.id, column, clock.now())
      s.bannedCheck(user)
      return s.startSession(c, t, (await store.userById(t, user.id))!, 'login')
    })
  }

  /**
   * PUT /user {phone}: a code is texted to the new number, which becomes the user's once POST /verify
   * {type: 'phone_change'} brings the code back; with sms_autoconfirm it is the user's at once. Their old number
   * stays until then.
   */
  async function requestChange(c: C, t: ProjectTx, settings: AuthSettings, user: store.UserRow, rawPhone: unknown) {
    requirePhoneProvider(settings)
    const phone = normalisePhone(rawPhone)
    if (phone === user.phone) return
    const taken = await store.userByPhone(t, phone)
    if (taken && taken.id !== user.id) throw authError(422, 'phone_exists', 'Phone number already registered by another user')
    const now = clock.now()
    if (settings.sms_autoconfirm) {
      await store.setPhoneChange(t, user.id, phone, '', now)
      await store.applyPhoneChange(t, user.id, now)
      await store.audit(t, 'user_modified', user, s.ip(c), now)
      return
    }
    await throttle.take(c.var.gateway.project.id, 'sms', settings.rate_limit_sms_sent, HOUR, 'over_sms_send_rate_limit')
    const otp = newOtp()
    await store.setPhoneChange(t, user.id, phone, tokenHash(phone, otp), now)
    await sendSms(db, c.var.gateway.project.id, { to: `+${phone}`, body: `Your code is ${otp}`, kind: 'phone_change' })
  }

  /** POST /verify {type: 'phone_change', phone, token}: the new number is the user's, and a session begins. */
  async function verifyChange(c: C, b: Record<string, unknown>, settings: AuthSettings): Promise<Session> {
    const { phone, otp } = await codeBrought(c, b, settings)
    return s.tx(c, async (t) => {
      const user = await store.userByPhoneChange(t, phone)
      const expected = tokenHash(phone, otp)
      if (!user || !user.phone_change_token || !sameSecret(user.phone_change_token, expected)) throw otpInvalid()
      if (expired(user.phone_change_sent_at)) throw otpInvalid()
      // Another user may have taken the number since the code was sent.
      const holder = await store.userByPhone(t, phone)
      if (holder && holder.id !== user.id) throw authError(422, 'phone_exists', 'Phone number already registered by another user')
      s.bannedCheck(user)
      await store.applyPhoneChange(t, user.id, clock.now())
      await store.audit(t, 'user_modified', user, s.ip(c), clock.now())
      return s.startSession(c, t, (await store.userById(t, user.id))!, 'login')
    })
  }

  return { signUp, passwordGrant, sendOtp, verify, requestChange, verifyChange }
}
