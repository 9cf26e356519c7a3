/**
 * The project auth service against bad input and abuse: every refusal a clear 4xx in the platform's
 * `{ code, error_code, msg }` shape, never a 500, nothing half-written. Also what a real project brings along: users
 * imported from a dump of the platform's auth.users (bcrypt hashes) sign in, a project database made before the
 * template carried schema auth gets it, redirect URLs obey the allow list, sign-ups can be turned off, the PKCE
 * flow of supabase-js, the admin API's pagination as auth-js reads it.
 */
import http from 'node:http'
import { SignJWT } from 'jose'
import bcrypt from 'bcryptjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import pg from 'pg'
import { projectDbPrefix } from '../../src/server/projectdb/postgres'
import { saveAuthSettings } from '../../src/server/features/auth/store'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { isPostgres, projectByName } from './helpers'
import { followLink, startAuthServer, type AuthTestServer } from './project-auth-support'

let env: AuthTestServer

beforeAll(async () => {
  env = await startAuthServer()
  // Confirmations off for most cases here; the e-mail flows have their own file.
  await env.settings({ mailer_autoconfirm: true })
}, 120_000)

afterAll(async () => {
  await env?.close()
})

/**
 * Takes schema auth out of a project's database, as it was before the template carried it: on PGlite as its owner;
 * on PostgreSQL the platform owns the schema, so through the engine's own connection.
 */
async function dropAuthSchema(ref: string) {
  if (!isPostgres) {
    await env.s.projectDbs.transaction(ref, { role: 'postgres' }, (tx) => tx.exec('drop schema auth cascade'))
    return
  }
  const url = new URL(env.s.config.databaseUrl!)
  url.pathname = `/${projectDbPrefix(env.s.config.databaseUrl!)}${ref}`
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  try {
    await admin.query('drop schema auth cascade')
  } finally {
    await admin.end()
  }
}

const post = (path: string, body: string | object, headers: Record<string, string> = {}) =>
  fetch(`${env.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: env.keys.anon, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

/**
 * A POST on a connection of its own, closed after the answer. A body refused before it is read leaves its
 * connection mid-body: sent through fetch's pool, the next request handed that connection would be cut off.
 */
const postAlone = (path: string, body: object) =>
  new Promise<{ status: number }>((resolve, reject) => {
    const text = JSON.stringify(body)
    const req = http.request(`${env.url}/auth/v1${path}`, {
      method: 'POST',
      agent: false,
      headers: { apikey: env.keys.anon, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    })
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0 })
        req.destroy()
      })
    })
    // The server may refuse before the body is sent: the rest then cannot be written.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)))
    req.end(text)
  })

async function expectRefusal(res: Response, status: number, errorCode: string) {
  const body = (await res.json()) as Record<string, unknown>
  expect({ status: res.status, body }).toMatchObject({ status, body: { code: status, error_code: errorCode } })
  expect(typeof body.msg).toBe('string')
}

const userCount = async (email: string) =>
  (
    await env.s.projectDbs.transaction(env.project.ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from auth.users where email = $1`, [email]),
    )
  ).rows[0].n

describe('bad input', () => {
  it('malformed JSON, a body that is no object, an e-mail that is not one, missing passwords: 400/422 in the platform shape', async () => {
    await expectRefusal(await post('/signup', '{"email": '), 400, 'bad_json')
    await expectRefusal(await post('/signup', '[1,2]'), 400, 'bad_json')
    await expectRefusal(await post('/token?grant_type=password', '{'), 400, 'bad_json')
    for (const email of ['not-an-email', 'a@b', '@example.com', 'two@@example.com', 42, null, 'x'.repeat(250) + '@example.com']) {
      await expectRefusal(await post('/signup', { email, password: 'long enough' }), 400, 'validation_failed')
    }
    await expectRefusal(await post('/signup', { email: 'nopass@example.com' }), 422, 'validation_failed')
    await expectRefusal(await post('/signup', { email: 'nopass@example.com', password: 12345678 }), 422, 'validation_failed')
    await expectRefusal(await post('/token?grant_type=password', { email: 'nopass@example.com' }), 400, 'validation_failed')
    await expectRefusal(await post('/token?grant_type=nonsense', {}), 400, 'validation_failed')
    await expectRefusal(await post('/signup', { email: 'meta@example.com', password: 'long enough', data: 'text' }), 400, 'validation_failed')
    expect(await userCount('nopass@example.com')).toBe(0)
    expect(await userCount('meta@example.com')).toBe(0)
  })

  it('a short password is weak (auth-js reads the reasons); a long one is refused before bcrypt would cut it; a 1 MB one never reaches a handler', async () => {
    const weak = await post('/signup', { email: 'short@example.com', password: '123' })
    expect(weak.status).toBe(422)
    expect(await weak.json()).toEqual({ code: 422, error_code: 'weak_password', msg: 'Password should be at least 6 characters.', weak_password: { reasons: ['length'] } })
    const { error } = await env.client().auth.signUp({ email: 'short@example.com', password: '123' })
    expect(error).toMatchObject({ name: 'AuthWeakPasswordError', code: 'weak_password', reasons: ['length'] })
    await expectRefusal(await post('/signup', { email: 'long@example.com', password: 'p'.repeat(73) }), 422, 'validation_failed')
    const huge = await postAlone('/signup', { email: 'huge@example.com', password: 'p'.repeat(1024 * 1024) })
    expect(huge.status).toBe(413)
    expect(await userCount('short@example.com')).toBe(0)
    expect(await userCount('long@example.com')).toBe(0)
    expect(await userCount('huge@example.com')).toBe(0)
  })

  it('unicode and case in e-mails: stored trimmed, NFC and lower-cased, so any spelling signs the one user in', async () => {
    const decomposed = ' Ju\u0308rgen.Müller@Example.COM '
    const { data, error } = await env.client().auth.signUp({ email: decomposed, password: 'unicode-pass' })
    expect(error).toBeNull()
    expect(data.user?.email).toBe('jürgen.müller@example.com')
    const again = await env.client().auth.signInWithPassword({ email: 'JÜRGEN.MÜLLER@example.com', password: 'unicode-pass' })
    expect(again.error).toBeNull()
    const dup = await env.client().auth.signUp({ email: 'jürgen.müller@EXAMPLE.com', password: 'unicode-pass' })
    expect(dup.error).toMatchObject({ code: 'user_already_exists', status: 422 })
    expect(await userCount('jürgen.müller@example.com')).toBe(1)
  })

  it('forged and foreign tokens are refused by the gateway in the auth shape: alg none, a wrong secret, an expired token, another project', async () => {
    const user = (await env.client().auth.signUp({ email: 'tokens@example.com', password: 'token-pass' })).data.user!
    const claims = { sub: user.id, role: 'authenticated', aud: 'authenticated', session_id: crypto.randomUUID() }
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: env.s.clock.epoch(600) })}.`
    const wrong = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(env.s.clock.epoch(600)).sign(new TextEncoder().encode('x'.repeat(40)))
    const expired = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(1_000).setExpirationTime(2_000).sign(new TextEncoder().encode(env.keys.secret))
    for (const token of [none, wrong, expired]) {
      const res = await fetch(`${env.url}/auth/v1/user`, { headers: { apikey: env.keys.anon, authorization: `Bearer ${token}` } })
      await expectRefusal(res, 401, 'bad_jwt')
    }
    // A user token of another project: its signature does not verify here.
    const other = await projectByName(env.s, 'Acme Storefront')
    const otherKeys = (await findProjectKeys(env.s.db, other.id))!
    const otherClient = createClient(`${env.origin}/p/${other.ref}`, otherKeys.anon_key, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    })
    await env.s.db.query(`insert into project_auth_settings (project_id, mailer_autoconfirm) values ($1, true)`, [other.id])
    const foreign = await otherClient.auth.signUp({ email: 'tokens@example.com', password: 'token-pass' })
    expect(foreign.error).toBeNull()
    const res = await fetch(`${env.url}/auth/v1/user`, { headers: { apikey: env.keys.anon, authorization: `Bearer ${foreign.data.session!.access_token}` } })
    await expectRefusal(res, 401, 'bad_jwt')
    // The anon key as the bearer is no user.
    await expectRefusal(await fetch(`${env.url}/auth/v1/user`, { headers: { apikey: env.keys.anon, authorization: `Bearer ${env.keys.anon}` } }), 403, 'bad_jwt')
    await expectRefusal(await fetch(`${env.url}/auth/v1/user`, { headers: { apikey: env.keys.anon } }), 401, 'no_authorization')
  })

  it('a verify token used twice, or a made-up one, is refused; an unknown refresh token too', async () => {
    await env.settings({ mailer_autoconfirm: false })
    const admin = env.client(env.keys.service)
    const { data, error } = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'tokens@example.com' })
    expect(error).toBeNull()
    const first = await post('/verify', { type: 'magiclink', token_hash: data.properties!.hashed_token })
    expect(first.status).toBe(200)
    await expectRefusal(await post('/verify', { type: 'magiclink', token_hash: data.properties!.hashed_token }), 403, 'otp_expired')
    await expectRefusal(await post('/verify', { type: 'magiclink', token_hash: 'f'.repeat(56) }), 403, 'otp_expired')
    await expectRefusal(await post('/verify', { type: 'bogus', token_hash: 'f'.repeat(56) }), 400, 'validation_failed')
    await expectRefusal(await post('/token?grant_type=refresh_token', { refresh_token: 'no-such-token' }), 400, 'refresh_token_not_found')
    // A code past its hour is refused.
    const late = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'tokens@example.com' })
    env.s.clock.advance(61 * 60_000)
    await expectRefusal(await post('/verify', { type: 'magiclink', token_hash: late.data.properties!.hashed_token }), 403, 'otp_expired')
    await env.settings({ mailer_autoconfirm: true })
  })

  it('a redirect URL not allowed is not followed (the Site URL is); an allowed one is', async () => {
    await env.settings({ site_url: 'https://app.example.com', uri_allow_list: 'https://preview-*.example.com/**' })
    const admin = env.client(env.keys.service)
    const evil = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'tokens@example.com', options: { redirectTo: 'https://evil.example.net/steal' } })
    expect(evil.data.properties!.redirect_to).toBe('https://app.example.com')
    const landed = await followLink(evil.data.properties!.action_link)
    expect(landed.location.startsWith('https://app.example.com#access_token=')).toBe(true)
    const good = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'tokens@example.com', options: { redirectTo: 'https://preview-42.example.com/welcome' } })
    expect((await followLink(good.data.properties!.action_link)).location.startsWith('https://preview-42.example.com/welcome#access_token=')).toBe(true)
    // The link is on the project URL whatever Host the request came with.
    const spoofed = await fetch(`${env.url}/auth/v1/admin/generate_link`, {
      method: 'POST',
      headers: { apikey: env.keys.service, authorization: `Bearer ${env.keys.service}`, 'content-type': 'application/json', 'x-forwarded-host': 'evil.example.net' },
      body: JSON.stringify({ type: 'recovery', email: 'tokens@example.com' }),
    })
    expect(((await spoofed.json()) as { action_link: string }).action_link.startsWith(`${env.url}/auth/v1/verify?`)).toBe(true)
    await env.settings({ site_url: 'http://localhost:3000', uri_allow_list: '' })
  })

  it('sign-ups turned off: sign-up and OTP for a new address are refused, existing users still sign in', async () => {
    await env.settings({ disable_signup: true })
    await expectRefusal(await post('/signup', { email: 'closed@example.com', password: 'long enough' }), 422, 'signup_disabled')
    await expectRefusal(await post('/otp', { email: 'closed@example.com' }), 422, 'otp_disabled')
    expect((await env.client().auth.signInWithPassword({ email: 'tokens@example.com', password: 'token-pass' })).error).toBeNull()
    expect(await userCount('closed@example.com')).toBe(0)
    await env.settings({ disable_signup: false })
  })

  it('the admin API wants the service_role key; unknown routes and users answer 404 in the platform shape', async () => {
    const anon = { apikey: env.keys.anon }
    await expectRefusal(await fetch(`${env.url}/auth/v1/admin/users`, { headers: anon }), 403, 'not_admin')
    await expectRefusal(await post('/invite', { email: 'x@example.com' }), 403, 'not_admin')
    await expectRefusal(await fetch(`${env.url}/auth/v1/nothing-here`, { headers: anon }), 404, 'not_found')
    const service = { apikey: env.keys.service, authorization: `Bearer ${env.keys.service}` }
    await expectRefusal(await fetch(`${env.url}/auth/v1/admin/users/not-a-uuid`, { headers: service }), 404, 'user_not_found')
    await expectRefusal(await fetch(`${env.url}/auth/v1/admin/users/${crypto.randomUUID()}`, { headers: service }), 404, 'user_not_found')
    await expectRefusal(await fetch(`${env.url}/auth/v1/admin/users?page=0`, { headers: service }), 400, 'validation_failed')
    await expectRefusal(await fetch(`${env.url}/auth/v1/logout?scope=everyone`, { method: 'POST', headers: service }), 400, 'validation_failed')
    await expectRefusal(await fetch(`${env.url}/auth/v1/user`, { headers: {} }), 401, 'no_authorization')
    await expectRefusal(await fetch(`${env.url}/auth/v1/user`, { method: 'DELETE', headers: anon }), 404, 'not_found')
  })
})

describe('abuse', () => {
  it('50 sign-ups at once from one address: the first rate_limit_verify pass, the rest 429 with Retry-After, nothing half-written', async () => {
    await env.settings({ rate_limit_verify: 30 })
    // A fresh window: the sign-ups of the cases above counted in the current one.
    env.s.clock.advance(5 * 60_000)
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post('/signup', { email: `flood${i}@example.com`, password: 'flood-pass' })),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    expect(statuses.filter((s) => s === 200)).toHaveLength(30)
    const refused = answers.find((r) => r.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    await expectRefusal(refused, 429, 'over_request_rate_limit')
    const { rows } = await env.s.projectDbs.transaction(env.project.ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query<{ users: number; identities: number }>(
        `select (select count(*)::int from auth.users where email like 'flood%') as users,
                (select count(*)::int from auth.identities where email like 'flood%') as identities`,
      ),
    )
    expect(rows[0]).toEqual({ users: 30, identities: 30 })
    env.s.clock.advance(5 * 60_000)
    expect((await post('/signup', { email: 'after-the-window@example.com', password: 'flood-pass' })).status).toBe(200)
    await env.settings({ rate_limit_verify: 1000 })
  })

  it('password guessing on one account stops after 10 failures, even with the right password, until the window ends', async () => {
    await env.client().auth.signUp({ email: 'guessed@example.com', password: 'the-right-one' })
    for (let i = 0; i < 10; i++) {
      await expectRefusal(await post('/token?grant_type=password', { email: 'guessed@example.com', password: `wrong-${i}` }), 400, 'invalid_credentials')
    }
    await expectRefusal(await post('/token?grant_type=password', { email: 'guessed@example.com', password: 'the-right-one' }), 429, 'over_request_rate_limit')
    env.s.clock.advance(5 * 60_000)
    expect((await post('/token?grant_type=password', { email: 'guessed@example.com', password: 'the-right-one' })).status).toBe(200)
  })

  it('an unknown e-mail and a wrong password answer alike (no enumeration)', async () => {
    const unknown = await post('/token?grant_type=password', { email: 'nobody@example.com', password: 'whatever-1' })
    const wrong = await post('/token?grant_type=password', { email: 'guessed@example.com', password: 'whatever-1' })
    expect([unknown.status, await unknown.json()]).toEqual([wrong.status, await wrong.json()])
    const recoverUnknown = await post('/recover', { email: 'nobody@example.com' })
    const recoverKnown = await post('/recover', { email: 'guessed@example.com' })
    expect([recoverUnknown.status, await recoverUnknown.json()]).toEqual([recoverKnown.status, await recoverKnown.json()])
  })
})

describe('what a real project brings along', () => {
  it("users imported from a dump of the platform's auth.users sign in with their bcrypt password", async () => {
    const id = crypto.randomUUID()
    const hash = bcrypt.hashSync('imported-password', 10).replace(/^\$2b\$/, '$2a$')
    await env.s.projectDbs.transaction(env.project.ref, { role: 'postgres' }, (tx) =>
      tx.query(
        `INSERT INTO auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_token,
           confirmation_sent_at, recovery_token, recovery_sent_at, email_change_token_new, email_change, email_change_sent_at,
           last_sign_in_at, raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, phone, phone_confirmed_at,
           phone_change, phone_change_token, phone_change_sent_at, email_change_token_current, email_change_confirm_status,
           banned_until, reauthentication_token, reauthentication_sent_at, is_sso_user, deleted_at, is_anonymous)
         VALUES ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', 'imported@example.com', $2,
           '2024-05-01 10:00:00+00', NULL, '', NULL, '', NULL, '', '', NULL, '2024-06-01 10:00:00+00',
           '{"provider": "email", "providers": ["email"]}', '{"name": "Imported"}', NULL, '2024-05-01 10:00:00+00',
           '2024-06-01 10:00:00+00', NULL, NULL, '', '', NULL, '', 0, NULL, '', NULL, false, NULL, false)`,
        [id, hash],
      ),
    )
    const { data, error } = await env.client().auth.signInWithPassword({ email: 'imported@example.com', password: 'imported-password' })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id, email: 'imported@example.com', user_metadata: { name: 'Imported' } })
    expect((await env.client().auth.signInWithPassword({ email: 'imported@example.com', password: 'not-it' })).error?.code).toBe('invalid_credentials')
  })

  it("a new password is stored as the platform's bcrypt ($2b$, cost 10), which bcryptjs and the platform read back", async () => {
    const { data, error } = await env.client().auth.signUp({ email: 'hashed@example.com', password: 'stored-as-bcrypt' })
    expect(error).toBeNull()
    const { rows } = await env.s.projectDbs.transaction(env.project.ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query<{ encrypted_password: string }>('select encrypted_password from auth.users where id = $1', [data.user!.id]),
    )
    const stored = rows[0].encrypted_password
    expect(stored).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/)
    expect(bcrypt.compareSync('stored-as-bcrypt', stored)).toBe(true)
    expect(bcrypt.compareSync('stored-as-bcryp', stored)).toBe(false)
  })

  it('a project database made before the template carried schema auth gets it when its engine opens it, and again harmlessly', async () => {
    const other = await projectByName(env.s, 'Acme Storefront')
    const keys = (await findProjectKeys(env.s.db, other.id))!
    await saveAuthSettings(env.s.db, other.id, { mailer_autoconfirm: true })
    const present = () =>
      env.s.projectDbs.transaction(other.ref, { role: 'postgres', readOnly: true }, (tx) =>
        tx.query<{ present: boolean }>(`select to_regclass('auth.users') is not null as present`),
      )
    // Its database is made on first use, from the template.
    expect((await present()).rows[0].present).toBe(true)
    await dropAuthSchema(other.ref)
    expect((await present()).rows[0].present).toBe(false)
    // Closed and opened again, as a server started on an older store would open it.
    await env.s.projectDbs.close(other.ref)
    expect((await present()).rows[0].present).toBe(true)
    const signUp = (email: string) =>
      fetch(`${env.origin}/p/${other.ref}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: keys.anon_key, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'late-password' }),
      })
    expect((await signUp('late@example.com')).status).toBe(200)
    // Opened again: the schema is there, nothing is made twice, what it holds stays.
    await env.s.projectDbs.close(other.ref)
    expect((await signUp('later@example.com')).status).toBe(200)
    const { rows } = await env.s.projectDbs.transaction(other.ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from auth.users where email in ('late@example.com', 'later@example.com')`),
    )
    expect(rows[0].n).toBe(2)
    // REST's row level security reads the helpers the upgrade made, with the grants a template database has.
    const { data, error } = await createClient(`${env.origin}/p/${other.ref}`, keys.anon_key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    }).auth.signInWithPassword({ email: 'late@example.com', password: 'late-password' })
    expect(error).toBeNull()
    const uid = await env.s.projectDbs.transaction(other.ref, { role: 'authenticated', claims: { sub: data.user!.id, role: 'authenticated' } }, (tx) =>
      tx.query<{ uid: string }>(`select auth.uid()::text as uid`),
    )
    expect(uid.rows[0].uid).toBe(data.user!.id)
  }, 120_000)

  it('the PKCE flow of supabase-js: the link answers a code that the client exchanges for a session', async () => {
    const client = createClient(env.url, env.keys.anon, {
      auth: { persistSession: true, autoRefreshToken: false, detectSessionInUrl: false, flowType: 'pkce', storage: new MemoryStorage() },
      realtime: { transport: WebSocket as never },
    })
    expect((await client.auth.signInWithOtp({ email: 'tokens@example.com' })).error).toBeNull()
    const mail = (await env.mailbox()).find((m) => m.recipient === 'tokens@example.com')!
    const { location } = await followLink(mail.link!)
    const code = new URL(location).searchParams.get('code')
    expect(code).toBeTruthy()
    const { data, error } = await client.auth.exchangeCodeForSession(code!)
    expect(error).toBeNull()
    expect(data.user?.email).toBe('tokens@example.com')
    const again = await client.auth.exchangeCodeForSession(code!)
    expect(again.error?.status).toBeGreaterThanOrEqual(400)
  })

  it('the admin list pages as auth-js reads it: total and the next and last pages from the headers, each user with its identities', async () => {
    const admin = env.client(env.keys.service)
    const { data, error } = await admin.auth.admin.listUsers({ page: 1, perPage: 10 })
    expect(error).toBeNull()
    expect(data.users).toHaveLength(10)
    const { total } = data as { total: number }
    expect(total).toBeGreaterThan(30)
    expect(data).toMatchObject({ nextPage: 2, lastPage: Math.ceil(total / 10) })
    // Each listed user carries its own identities, as reading the user alone answers them.
    for (const listed of data.users) {
      const one = await admin.auth.admin.getUserById(listed.id)
      expect(listed.identities, listed.email).toEqual(one.data.user!.identities)
      expect(listed.identities!.length, listed.email).toBeGreaterThan(0)
    }
    const raw = await fetch(`${env.url}/auth/v1/admin/users?page=3&per_page=10&filter=FLOOD`, { headers: { apikey: env.keys.service, authorization: `Bearer ${env.keys.service}` } })
    expect(raw.headers.get('x-total-count')).toBe('30')
    expect(raw.headers.get('link')).toBe('</admin/users?page=3&per_page=10>; rel="last"')
    const page = (await raw.json()) as { users: { email: string }[] }
    expect(page.users).toHaveLength(10)
    expect(page.users.every((u) => u.email.startsWith('flood'))).toBe(true)
  })
})

class MemoryStorage {
  private items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}
