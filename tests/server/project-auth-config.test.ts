/**
 * The auth settings through the Management API's `GET/PATCH /v1/projects/{ref}/config/auth` (its answer valid against
 * the contract's AuthConfigResponse) and the local mailbox for the dashboard: saved settings are obeyed by the
 * service at once; read-only members read the settings but change nothing and read no mail.
 */
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthConfig, AuthMailbox } from '../../src/contracts/auth'
import { json, OWNER, READONLY } from './helpers'
import { expectValid, responseValidator } from './openapi'
import { startAuthServer, type AuthTestServer } from './project-auth-support'

let env: AuthTestServer
let owner: string
let readonly: string

beforeAll(async () => {
  env = await startAuthServer()
  owner = await env.s.signIn(OWNER)
  readonly = await env.s.signIn(READONLY)
}, 120_000)

afterAll(async () => {
  await env?.close()
})

const configPath = () => `/v1/projects/${env.project.ref}/config/auth`
const patch = (body: unknown, cookie = owner) => env.s.request(configPath(), { ...json(body, { cookie }), method: 'PATCH' })

describe('GET/PATCH /v1/projects/{ref}/config/auth', () => {
  it("answers every field of the contract's AuthConfigResponse, with the platform's defaults", async () => {
    const res = await env.s.request(configPath(), { headers: { cookie: readonly } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expectValid(responseValidator('/v1/projects/{ref}/config/auth'), body)
    expect(AuthConfig.parse(body)).toMatchObject({
      site_url: 'http://localhost:3000',
      uri_allow_list: '',
      disable_signup: false,
      mailer_autoconfirm: false,
      jwt_exp: 3600,
      password_min_length: 6,
      external_email_enabled: true,
    })
  })

  it('a saved change is obeyed by the service at once: sign-ups off, confirmations off, JWT expiry, minimum password length', async () => {
    const res = await patch({ disable_signup: true })
    expect(res.status).toBe(200)
    expectValid(responseValidator('/v1/projects/{ref}/config/auth', 'patch'), await res.json())
    expect((await env.client().auth.signUp({ email: 'off@example.com', password: 'long enough' })).error).toMatchObject({ code: 'signup_disabled' })

    expect((await patch({ disable_signup: false, mailer_autoconfirm: true, jwt_exp: 120, password_min_length: 10 })).status).toBe(200)
    expect((await env.client().auth.signUp({ email: 'on@example.com', password: 'nine-char' })).error).toMatchObject({ code: 'weak_password' })
    const { data, error } = await env.client().auth.signUp({ email: 'on@example.com', password: 'ten-chars!' })
    expect(error).toBeNull()
    const claims = decodeJwt(data.session!.access_token)
    expect(claims.exp! - claims.iat!).toBe(120)
    expect(data.session!.expires_in).toBe(120)
    const got = AuthConfig.parse(await (await env.s.request(configPath(), { headers: { cookie: owner } })).json())
    expect(got).toMatchObject({ disable_signup: false, mailer_autoconfirm: true, jwt_exp: 120, password_min_length: 10 })
  })

  it('the leaked-password rule, once on, refuses a common breached password on sign-up, password change and admin create', async () => {
    expect((await patch({ mailer_autoconfirm: true, password_min_length: 6 })).status).toBe(200)
    // Off (the default): a common password is only as weak as its length says.
    const off = await env.client().auth.signUp({ email: 'leaky-off@example.com', password: 'password123' })
    expect(off.error).toBeNull()

    const on = await patch({ password_hibp_enabled: true })
    expect(on.status).toBe(200)
    expect(AuthConfig.parse(await on.json())).toMatchObject({ password_hibp_enabled: true })
    const expectPwned = (error: unknown) => {
      expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] })
    }
    expectPwned((await env.client().auth.signUp({ email: 'leaky@example.com', password: 'password123' })).error)
    expectPwned((await env.client().auth.signUp({ email: 'leaky@example.com', password: 'Qwerty123' })).error)
    const raw = await fetch(`${env.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'leaky@example.com', password: 'iloveyou' }),
    })
    expect(raw.status).toBe(422)
    expect(await raw.json()).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password is known to be weak and easy to guess, please choose a different one.',
      weak_password: { reasons: ['pwned'] },
    })

    const user = env.client()
    expect((await user.auth.signUp({ email: 'leaky@example.com', password: 'a long unusual phrase' })).error).toBeNull()
    expectPwned((await user.auth.updateUser({ password: 'letmein123' })).error)
    expect((await user.auth.updateUser({ password: 'another unusual phrase' })).error).toBeNull()

    const admin = env.client(env.keys.service).auth.admin
    expectPwned((await admin.createUser({ email: 'leaky-admin@example.com', password: 'football', email_confirm: true })).error)
    expect((await admin.createUser({ email: 'leaky-admin@example.com', password: 'a third unusual phrase', email_confirm: true })).error).toBeNull()
    // Nothing was written by the refusals: the refused sign-up's address was free for the accepted one, and the
    // password that stands is the one accepted.
    expect((await env.client().auth.signInWithPassword({ email: 'leaky@example.com', password: 'another unusual phrase' })).error).toBeNull()
    expect((await patch({ password_hibp_enabled: false })).status).toBe(200)
  })

  it('phone sign-in by code and sign-up with phone and password, once the phone provider is on; refused while it is off', async () => {
    expect((await patch({ mailer_autoconfirm: true, password_min_length: 6 })).status).toBe(200)
    const client = env.client()
    const off = await client.auth.signInWithOtp({ phone: '+15555550100' })
    expect(off.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' })
    expect((await client.auth.signUp({ phone: '+15555550101', password: 'a phone password' })).error).toMatchObject({ status: 400, code: 'phone_provider_disabled' })
    expect((await client.auth.signInWithPassword({ phone: '+15555550101', password: 'a phone password' })).error).toMatchObject({ status: 400, code: 'phone_provider_disabled' })

    const on = await patch({ external_phone_enabled: true })
    expect(AuthConfig.parse(await on.json())).toMatchObject({ external_phone_enabled: true, sms_autoconfirm: false })
    const settings = await (await fetch(`${env.url}/auth/v1/settings`, { headers: { apikey: env.keys.anon } })).json()
    expect(settings).toMatchObject({ external: { phone: true }, phone_autoconfirm: false })

    // The code of the text message, read from the local mailbox.
    const codeFor = async (phone: string) => {
      const message = (await env.mailbox()).find((m) => m.recipient === phone)!
      expect(message).toMatchObject({ channel: 'sms', link: null })
      return /Your code is (\d{6})/.exec(message.body)![1]
    }
    expect((await client.auth.signInWithOtp({ phone: '+1 555 555 0100' })).error).toBeNull()
    const token = await codeFor('+15555550100')
    expect((await client.auth.verifyOtp({ phone: '+15555550100', token: token === '000000' ? '000001' : '000000', type: 'sms' })).error).toMatchObject({ code: 'otp_expired' })
    const verified = await client.auth.verifyOtp({ phone: '+15555550100', token, type: 'sms' })
    expect(verified.error).toBeNull()
    expect(verified.data.user).toMatchObject({ phone: '15555550100', app_metadata: { provider: 'phone' } })
    expect(decodeJwt(verified.data.session!.access_token)).toMatchObject({ phone: '15555550100', role: 'authenticated' })
    expect((await client.auth.verifyOtp({ phone: '+15555550100', token, type: 'sms' })).error).toMatchObject({ code: 'otp_expired' })

    const signedUp = await client.auth.signUp({ phone: '+15555550101', password: 'a phone password' })
    expect(signedUp.error).toBeNull()
    expect(signedUp.data.session).toBeNull()
    expect((await client.auth.signInWithPassword({ phone: '+15555550101', password: 'a phone password' })).error).toMatchObject({ code: 'phone_not_confirmed' })
    expect((await client.auth.verifyOtp({ phone: '+15555550101', token: await codeFor('+15555550101'), type: 'sms' })).error).toBeNull()
    const signedIn = await client.auth.signInWithPassword({ phone: '+15555550101', password: 'a phone password' })
    expect(signedIn.error).toBeNull()
    expect(signedIn.data.user?.phone).toBe('15555550101')
    expect((await client.auth.signInWithPassword({ phone: '+15555550101', password: 'not the one' })).error).toMatchObject({ code: 'invalid_credentials' })
    expect((await client.auth.signInWithOtp({ phone: 'not a phone' })).error).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((await patch({ external_phone_enabled: false })).status).toBe(200)
  })

  it("the channel auth-js asks for: a code by WhatsApp is kept as a WhatsApp message and signs in; an unknown channel is refused", async () => {
    expect((await patch({ external_phone_enabled: true, sms_autoconfirm: false })).status).toBe(200)
    const client = env.client()
    expect((await client.auth.signInWithOtp({ phone: '+15555550120', options: { channel: 'whatsapp' } })).error).toBeNull()
    const message = (await env.mailbox()).find((m) => m.recipient === '+15555550120')!
    expect(message).toMatchObject({ channel: 'whatsapp', subject: 'WhatsApp message', link: null })
    const token = /Your code is (\d{6})/.exec(message.body)![1]
    const verified = await client.auth.verifyOtp({ phone: '+15555550120', token, type: 'sms' })
    expect(verified.error).toBeNull()
    expect(verified.data.user?.phone).toBe('15555550120')

    const signedUp = await client.auth.signUp({ phone: '+15555550121', password: 'a phone password', options: { channel: 'whatsapp' } })
    expect(signedUp.error).toBeNull()
    expect((await env.mailbox()).find((m) => m.recipient === '+15555550121')).toMatchObject({ channel: 'whatsapp', kind: 'phone_confirmation' })

    const before = (await env.mailbox()).length
    const unknown = await fetch(`${env.url}/auth/v1/otp`, {
      method: 'POST',
      headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+15555550122', channel: 'pigeon' }),
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ code: 400, error_code: 'validation_failed', msg: "Invalid channel, supported values are 'sms' or 'whatsapp'" })
    expect(await env.mailbox()).toHaveLength(before)
    expect((await patch({ external_phone_enabled: false })).status).toBe(200)
  })

  it('a phone change: updateUser({ phone }) texts a code to the new number, verifyOtp({ type: phone_change }) makes it the user\'s', async () => {
    expect((await patch({ mailer_autoconfirm: true, password_min_length: 6, external_phone_enabled: false, sms_autoconfirm: false })).status).toBe(200)
    const client = env.client()
    const { data: signedUp, error } = await client.auth.signUp({ email: 'phone-change@example.com', password: 'change my phone' })
    expect(error).toBeNull()
    expect(signedUp.session).not.toBeNull()
    expect((await client.auth.updateUser({ phone: '+15555550102' })).error).toMatchObject({ status: 400, code: 'phone_provider_disabled' })

    expect((await patch({ external_phone_enabled: true })).status).toBe(200)
    const asked = await client.auth.updateUser({ phone: '+1 (555) 555-0102' })
    expect(asked.error).toBeNull()
    expect(asked.data.user).toMatchObject({ phone: '', new_phone: '15555550102' })
    const message = (await env.mailbox()).find((m) => m.recipient === '+15555550102')!
    expect(message).toMatchObject({ channel: 'sms', kind: 'phone_change', link: null })
    const code = /Your code is (\d{6})/.exec(message.body)![1]

    // A wrong code, a code for another number, and a phone_change code used as a sign-in code are refused alike.
    const wrong = code === '000000' ? '000001' : '000000'
    expect((await client.auth.verifyOtp({ phone: '+15555550102', token: wrong, type: 'phone_change' })).error).toMatchObject({ status: 403, code: 'otp_expired' })
    expect((await client.auth.verifyOtp({ phone: '+15555550199', token: code, type: 'phone_change' })).error).toMatchObject({ status: 403, code: 'otp_expired' })
    expect((await client.auth.verifyOtp({ phone: '+15555550102', token: code, type: 'sms' })).error).toMatchObject({ status: 403, code: 'otp_expired' })
    expect((await client.auth.getUser()).data.user).toMatchObject({ phone: '', new_phone: '15555550102' })

    const verified = await client.auth.verifyOtp({ phone: '+15555550102', token: code, type: 'phone_change' })
    expect(verified.error).toBeNull()
    expect(verified.data.user).toMatchObject({ email: 'phone-change@example.com', phone: '15555550102' })
    expect(verified.data.user!.new_phone).toBeUndefined()
    expect(verified.data.user!.phone_confirmed_at).toBeTruthy()
    expect(verified.data.user!.app_metadata.providers).toEqual(expect.arrayContaining(['email', 'phone']))
    expect(verified.data.user!.identities!.map((i) => i.provider).sort()).toEqual(['email', 'phone'])
    expect(decodeJwt(verified.data.session!.access_token)).toMatchObject({ phone: '15555550102', email: 'phone-change@example.com' })
    expect((await client.auth.verifyOtp({ phone: '+15555550102', token: code, type: 'phone_change' })).error).toMatchObject({ status: 403, code: 'otp_expired' })
    // The number now signs the user in by text message too.
    expect((await env.client().auth.signInWithOtp({ phone: '+15555550102', options: { shouldCreateUser: false } })).error).toBeNull()

    // Another user cannot take it; a number that is not one is refused; nothing is half-written.
    const other = env.client()
    expect((await other.auth.signUp({ email: 'phone-other@example.com', password: 'another phone' })).error).toBeNull()
    expect((await other.auth.updateUser({ phone: '+15555550102' })).error).toMatchObject({ status: 422, code: 'phone_exists' })
    expect((await other.auth.updateUser({ phone: 'call me', data: { half: 'written' } })).error).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((await other.auth.getUser()).data.user).toMatchObject({ phone: '', user_metadata: {} })
    expect((await other.auth.getUser()).data.user!.new_phone).toBeUndefined()
    const noToken = await fetch(`${env.url}/auth/v1/verify`, {
      method: 'POST',
      headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'phone_change', phone: '+15555550103' }),
    })
    expect(noToken.status).toBe(400)
    expect(await noToken.json()).toMatchObject({ code: 400, error_code: 'validation_failed' })

    // With sms_autoconfirm the new number is the user's at once, without a text message.
    expect((await patch({ sms_autoconfirm: true })).status).toBe(200)
    const sent = (await env.mailbox()).length
    const at = await other.auth.updateUser({ phone: '+15555550103' })
    expect(at.error).toBeNull()
    expect(at.data.user).toMatchObject({ phone: '15555550103' })
    expect(at.data.user!.new_phone).toBeUndefined()
    expect((await env.mailbox()).length).toBe(sent)
    expect((await patch({ external_phone_enabled: false, sms_autoconfirm: false })).status).toBe(200)
  })

  it('refuses bad values and fields it does not obey with 400, and read-only members with 403; nothing changes', async () => {
    const before = await (await env.s.request(configPath(), { headers: { cookie: owner } })).json()
    for (const body of [{ jwt_exp: -1 }, { jwt_exp: 10 ** 9 }, { password_min_length: 3 }, { site_url: 'not a url' }, { site_url: 'https://a.com,https://b.com' }, { rate_limit_otp: 0 }, { external_github_enabled: true }, { disable_signup: 'yes' }]) {
      const res = await patch(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof ((await res.json()) as { message: string }).message).toBe('string')
    }
    const refused = await patch({ disable_signup: true }, readonly)
    expect(refused.status).toBe(403)
    expect(await (await env.s.request(configPath(), { headers: { cookie: owner } })).json()).toEqual(before)
  })
})

describe('monthly active users on the usage page', () => {
  const mau = async () => {
    const day = env.s.clock.now().toISOString().slice(0, 10)
    const q = new URLSearchParams({ project_ref: env.project.ref, start: `${day.slice(0, 8)}01`, end: day })
    const { rows } = await env.s.db.query<{ slug: string }>(`select o.slug from organizations o join projects p on p.organization_id = o.id where p.id = $1`, [env.project.id])
    const res = await env.s.request(`/platform/organizations/${rows[0].slug}/usage?${q}`, { headers: { cookie: owner } })
    expect(res.status).toBe(200)
    const { usages } = (await res.json()) as { usages: { metric: string; usage: number }[] }
    return usages.find((u) => u.metric === 'MONTHLY_ACTIVE_USERS')!.usage
  }

  it('counts each user who signed in or refreshed this month once', async () => {
    const before = await mau()
    await patch({ mailer_autoconfirm: true, password_min_length: 6 })
    const c = env.client()
    const { data } = await c.auth.signUp({ email: 'active@example.com', password: 'active-pass' })
    expect(await mau()).toBe(before + 1)
    await env.client().auth.signInWithPassword({ email: 'active@example.com', password: 'active-pass' })
    await env.client().auth.refreshSession({ refresh_token: data.session!.refresh_token })
    expect(await mau()).toBe(before + 1)
    // Made by the admin API without signing in: not active.
    await env.client(env.keys.service).auth.admin.createUser({ email: 'idle@example.com', password: 'idle-pass', email_confirm: true })
    expect(await mau()).toBe(before + 1)
  })
})

describe('the local mailbox for the dashboard', () => {
  it('lists the messages newest first for members who manage auth; read-only members are refused', async () => {
    await patch({ mailer_autoconfirm: false, password_min_length: 6 })
    await env.client().auth.signUp({ email: 'mail-one@example.com', password: 'long enough' })
    await env.client().auth.signInWithOtp({ email: 'mail-two@example.com' })
    const res = await env.s.request(`/platform/projects/${env.project.ref}/auth/mailbox`, { headers: { cookie: owner } })
    expect(res.status).toBe(200)
    const { messages } = AuthMailbox.parse(await res.json())
    expect(messages.slice(0, 2).map((m) => [m.recipient, m.kind])).toEqual([
      ['mail-two@example.com', 'confirmation'],
      ['mail-one@example.com', 'confirmation'],
    ])
    expect(messages[0].link).toMatch(new RegExp(`^${env.url}/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup`))
    expect((await env.s.request(`/platform/projects/${env.project.ref}/auth/mailbox`, { headers: { cookie: readonly } })).status).toBe(403)
  })

  it('keeps the last 200 messages of a project', async () => {
    await patch({ rate_limit_email_sent: 1000, rate_limit_otp: 1000 })
    const admin = env.client(env.keys.service)
    for (let i = 0; i < 205; i++) {
      // A recovery mail is the cheapest message to send: no user is made.
      await admin.auth.resetPasswordForEmail('mail-one@example.com')
    }
    const { rows } = await env.s.db.query<{ n: number }>(`select count(*)::int as n from project_auth_mailbox where project_id = $1`, [env.project.id])
    expect(rows[0].n).toBe(200)
  })
})
