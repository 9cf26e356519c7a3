/**
 * The API docs' 'User Management' snippets, each run as written with @supabase/supabase-js against the project's
 * auth service, in the order a new user would: sign up, confirm by the e-mailed link, log in, magic link and e-mail
 * code (their links from the local mailbox sign the user in), the phone snippets (no SMS provider: refused in the
 * platform's shape), get and update the user, recovery, log out, invite. Then row level security with auth.uid()
 * through REST, and a JWT secret rotation that ends the user's sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SupabaseClient } from '@supabase/supabase-js'
import { authSnippets } from '../../src/views/project/apiDocs/snippets'
import { AUTH_EXAMPLES } from '../../src/views/project/apiDocs/snippets/examples'
import type { Snippet } from '../../src/views/project/apiDocs/snippets/types'
import { json, OWNER } from './helpers'
import { followLink, startAuthServer, type AuthTestServer } from './project-auth-support'

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>

let env: AuthTestServer
let snippets: Map<string, Snippet>

beforeAll(async () => {
  env = await startAuthServer('Recipe Box', { lifecycle: { jwtUpdateMs: 1_000 } })
  snippets = new Map(authSnippets({ projectUrl: env.url, anonKey: env.keys.anon, serviceKey: env.keys.service }).map((sn) => [sn.id, sn]))
}, 120_000)

afterAll(async () => {
  await env?.close()
})

interface Outcome {
  data: unknown
  error: { message: string; code?: string; status?: number } | null
}

/** Runs a snippet's JavaScript with `supabase` in scope; what it left in `data` / `user` and `error`. */
async function run(id: string, supabase: SupabaseClient): Promise<Outcome> {
  const js = snippets.get(id)!.js!
  const tail = `\nreturn { data: typeof data !== 'undefined' ? data : typeof user !== 'undefined' ? { user } : null, error: typeof error !== 'undefined' ? error : null }`
  return (await new AsyncFunction('supabase', js + tail)(supabase)) as Outcome
}

const newest = async (to: string, kind: string) => {
  const mail = (await env.mailbox()).find((m) => m.recipient === to && m.kind === kind)
  expect(mail, `${kind} to ${to}`).toBeDefined()
  return mail!
}

describe("the API docs' User Management snippets with supabase-js", () => {
  const { email, newEmail } = AUTH_EXAMPLES
  const supabase = () => user
  let user: SupabaseClient

  it('sign-up creates an unconfirmed user and mails the confirmation link, built on the project URL', async () => {
    user = env.client()
    const { data, error } = await run('sign-up', supabase())
    expect(error).toBeNull()
    const d = data as { user: { email: string; id: string; email_confirmed_at?: string }; session: unknown }
    expect(d.user.email).toBe(email)
    expect(d.user.email_confirmed_at).toBeUndefined()
    expect(d.session).toBeNull()
    const mail = await newest(email, 'confirmation')
    expect(mail.link!.startsWith(`${env.url}/auth/v1/verify?`)).toBe(true)
    expect(mail.body).toMatch(/\b\d{6}\b/)
  })

  it('log in is refused until the e-mail is confirmed; the link confirms it and lands on the Site URL signed in', async () => {
    const refused = await run('login-with-password', supabase())
    expect(refused.error).toMatchObject({ code: 'email_not_confirmed', status: 400 })
    const { location, params } = await followLink((await newest(email, 'confirmation')).link!)
    expect(location.startsWith('http://localhost:3000#')).toBe(true)
    expect(params.get('type')).toBe('signup')
    const { data } = await env.client().auth.getUser(params.get('access_token')!)
    expect(data.user?.email).toBe(email)
    expect(data.user?.email_confirmed_at).toBeTruthy()
    // Used once: the same link again is refused, sent back to the Site URL with the error.
    const again = await followLink((await newest(email, 'confirmation')).link!)
    expect(again.params.get('error_code')).toBe('otp_expired')
  })

  it('log in with password answers a session whose access token REST accepts', async () => {
    const { data, error } = await run('login-with-password', supabase())
    expect(error).toBeNull()
    const d = data as { session: { access_token: string; refresh_token: string; expires_in: number; token_type: string }; user: { email: string } }
    expect(d.user.email).toBe(email)
    expect(d.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(d.session.refresh_token.length).toBeGreaterThan(10)
  })

  it('magic link: the link read from the mailbox signs the user in', async () => {
    const { data, error } = await run('login-with-magic-link', env.client())
    expect(error).toBeNull()
    expect(data).toMatchObject({ user: null, session: null })
    const { params } = await followLink((await newest(email, 'magiclink')).link!)
    expect(params.get('type')).toBe('magiclink')
    const other = env.client()
    const set = await other.auth.setSession({ access_token: params.get('access_token')!, refresh_token: params.get('refresh_token')! })
    expect(set.error).toBeNull()
    expect((await other.auth.getUser()).data.user?.email).toBe(email)
  })

  it("e-mail code: the six digits of the mail verify with type 'email'", async () => {
    const { error } = await run('login-with-email-otp', env.client())
    expect(error).toBeNull()
    const mail = await newest(email, 'magiclink')
    const code = /\b(\d{6})\b/.exec(mail.body)![1]
    const other = env.client()
    const wrong = await other.auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'email' })
    expect(wrong.error).toMatchObject({ code: 'otp_expired', status: 403 })
    const { data, error: verifyError } = await other.auth.verifyOtp({ email, token: code, type: 'email' })
    expect(verifyError).toBeNull()
    expect(data.user?.email).toBe(email)
    expect(data.session?.access_token).toBeTruthy()
  })

  it('the phone snippets are refused in the platform shape: the project has no SMS provider', async () => {
    const sent = await run('login-with-phone-otp', env.client())
    expect(sent.error).toMatchObject({ code: 'phone_provider_disabled', status: 400 })
    const verified = await run('verify-otp', env.client())
    expect(verified.error).toMatchObject({ code: 'phone_provider_disabled', status: 400 })
  })

  it('get user answers the signed-in user', async () => {
    const { data } = await run('get-user', supabase())
    expect((data as { user: { email: string } }).user.email).toBe(email)
  })

  it('update user asks the new address to confirm; its link changes the e-mail', async () => {
    const { data, error } = await run('update-user', supabase())
    expect(error).toBeNull()
    expect((data as { user: { email: string; new_email: string } }).user).toMatchObject({ email, new_email: newEmail })
    const mail = await newest(newEmail, 'email_change')
    const { params } = await followLink(mail.link!)
    const { data: after } = await env.client().auth.getUser(params.get('access_token')!)
    expect(after.user?.email).toBe(newEmail)
    // Back to the snippets' address for the ones that follow.
    const admin = env.client(env.keys.service)
    const back = await admin.auth.admin.updateUserById(after.user!.id, { email })
    expect(back.error).toBeNull()
  })

  it('recover mails a link for a known address, and answers the same for an unknown one (no enumeration)', async () => {
    const before = (await env.mailbox()).length
    const { error } = await run('recover-password', env.client())
    expect(error).toBeNull()
    const mail = await newest(email, 'recovery')
    expect((await env.mailbox()).length).toBe(before + 1)
    const unknown = await env.client().auth.resetPasswordForEmail('nobody-here@example.com')
    expect(unknown).toEqual({ data: {}, error: null })
    expect((await env.mailbox()).length).toBe(before + 1)
    const { params } = await followLink(mail.link!)
    expect(params.get('type')).toBe('recovery')
  })

  it('log out ends the session: its access token and refresh token stop working', async () => {
    const session = (await supabase().auth.getSession()).data.session!
    const { error } = await run('logout', supabase())
    expect(error).toBeNull()
    const probe = env.client()
    const gone = await probe.auth.getUser(session.access_token)
    // auth-js reads the platform's 403 session_not_found as a missing session.
    expect(gone.error?.name).toBe('AuthSessionMissingError')
    const refreshed = await probe.auth.refreshSession({ refresh_token: session.refresh_token })
    expect(refreshed.error?.status).toBe(400)
  })

  it('invite needs the service_role key; it mails an invitation whose link signs the new user in', async () => {
    const admin = env.client(env.keys.service)
    const asAnon = await run('invite-user', env.client())
    expect(asAnon.error).toMatchObject({ code: 'not_admin', status: 403 })
    const exists = await run('invite-user', admin)
    expect(exists.error).toMatchObject({ code: 'email_exists', status: 422 })
    const { data: list, error: listError } = await admin.auth.admin.listUsers()
    expect(listError).toBeNull()
    expect(list.users.map((u) => u.email)).toContain(email)
    const existing = list.users.find((u) => u.email === email)!
    expect((await admin.auth.admin.deleteUser(existing.id)).error).toBeNull()
    const { data, error } = await run('invite-user', admin)
    expect(error).toBeNull()
    expect((data as { user: { email: string; invited_at: string } }).user).toMatchObject({ email })
    const { params } = await followLink((await newest(email, 'invite')).link!)
    expect(params.get('type')).toBe('invite')
    expect(params.get('access_token')).toBeTruthy()
  })
})

describe('sessions, REST and row level security', () => {
  it('one user cannot read or write another user’s rows through REST (a policy with auth.uid())', async () => {
    await env.s.projectDbs.transaction(env.project.ref, { role: 'postgres' }, (tx) =>
      tx.exec(`
        create table public.notes (id serial primary key, owner uuid not null default auth.uid(), body text not null);
        alter table public.notes enable row level security;
        create policy "own notes" on public.notes for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
      `),
    )
    await env.settings({ mailer_autoconfirm: true })
    const alice = env.client()
    const bob = env.client()
    const a = await alice.auth.signUp({ email: 'alice@example.com', password: 'alice-password' })
    const b = await bob.auth.signUp({ email: 'bob@example.com', password: 'bob-password' })
    expect(a.data.session).not.toBeNull()
    expect(b.data.session).not.toBeNull()
    expect((await alice.from('notes').insert({ body: 'alice note' })).error).toBeNull()
    expect((await bob.from('notes').insert({ body: 'bob note' })).error).toBeNull()
    const seenByAlice = await alice.from('notes').select('body, owner')
    expect(seenByAlice.data).toEqual([{ body: 'alice note', owner: a.data.user!.id }])
    const seenByBob = await bob.from('notes').select('body')
    expect(seenByBob.data).toEqual([{ body: 'bob note' }])
    // Writing a row as someone else is refused by the policy's check.
    const forged = await bob.from('notes').insert({ body: 'pretend', owner: a.data.user!.id })
    expect(forged.error?.code).toBe('42501')
    // The anon key sees nothing.
    expect((await env.client().from('notes').select('body')).data).toEqual([])
    // auth.uid(), auth.email(), auth.role() and auth.jwt() read the caller's claims.
    const who = await env.s.projectDbs.transaction(
      env.project.ref,
      { role: 'authenticated', claims: { sub: a.data.user!.id, email: 'alice@example.com', role: 'authenticated' }, readOnly: true },
      (tx) => tx.query<{ uid: string; email: string; role: string; jwt_email: string }>(`select auth.uid()::text as uid, auth.email() as email, auth.role() as role, auth.jwt()->>'email' as jwt_email`),
    )
    expect(who.rows[0]).toEqual({ uid: a.data.user!.id, email: 'alice@example.com', role: 'authenticated', jwt_email: 'alice@example.com' })
  })

  it("a refresh token is single use: rotated, a reuse within the grace answers the current one, a later reuse ends the session", async () => {
    const c = env.client()
    const { data } = await c.auth.signInWithPassword({ email: 'alice@example.com', password: 'alice-password' })
    const first = data.session!.refresh_token
    const r1 = await env.client().auth.refreshSession({ refresh_token: first })
    expect(r1.error).toBeNull()
    const second = r1.data.session!.refresh_token
    expect(second).not.toBe(first)
    // Two tabs refreshing at once: the used token, just after, answers the session's current token.
    const grace = await env.client().auth.refreshSession({ refresh_token: first })
    expect(grace.data.session?.refresh_token).toBe(second)
    env.s.clock.advance(11_000)
    const reused = await env.client().auth.refreshSession({ refresh_token: first })
    expect(reused.error).toMatchObject({ code: 'refresh_token_already_used', status: 400 })
    // The whole session family ended with it: the current token too.
    const after = await env.client().auth.refreshSession({ refresh_token: second })
    expect(after.error).toMatchObject({ status: 400 })
    expect((await c.auth.getUser()).error?.name).toBe('AuthSessionMissingError')
  })

  it('a JWT secret rotation ends user sessions: the access token is refused and the refresh token no longer refreshes', async () => {
    const c = env.client()
    const { data } = await c.auth.signInWithPassword({ email: 'bob@example.com', password: 'bob-password' })
    const { access_token, refresh_token } = data.session!
    expect((await c.from('notes').select('body')).data).toEqual([{ body: 'bob note' }])
    const cookie = await env.s.signIn(OWNER)
    const res = await env.s.request(`/platform/props/project/${env.project.ref}/jwt-secret-update`, json({}, { cookie }))
    expect(res.status).toBe(202)
    env.s.clock.advance(1_000)
    await env.s.engine.runDue()
    const oldSecret = env.keys.secret
    await env.refreshKeys()
    expect(env.keys.secret).not.toBe(oldSecret)
    const fresh = env.client()
    const user = await fresh.auth.getUser(access_token)
    expect(user.error?.status).toBe(401)
    const refreshed = await fresh.auth.refreshSession({ refresh_token })
    expect(refreshed.error).toMatchObject({ code: 'session_expired', status: 400 })
    // Signing in again gives a token signed with the new secret, which REST accepts.
    const again = await fresh.auth.signInWithPassword({ email: 'bob@example.com', password: 'bob-password' })
    expect(again.error).toBeNull()
    expect((await fresh.from('notes').select('body')).data).toEqual([{ body: 'bob note' }])
  })
})
