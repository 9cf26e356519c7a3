/**
 * Sign-up (POST /platform/auth/sign-up): the account, its personal free organization and a session in one step;
 * a taken e-mail; the sign-in throttle; bad input. And the profile's username (PATCH /platform/profile).
 * Sign-in keeps one answer for a wrong password and an unknown e-mail (the timing of the two is printed by
 * bench/signin-timing.bench.ts, never asserted here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_TAKEN, USERNAME_TAKEN } from '../../src/server/features/accounts/routes'
import { OWNER, cookieFrom, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())

const signUp = (email: string, password = 'correct horse', headers: Record<string, string> = {}) =>
  s.request('/platform/auth/sign-up', json({ email, password }, headers))

describe('sign-up', () => {
  it('creates the account and a personal free organization it owns, and signs in', async () => {
    const res = await signUp('  Alice.Smith@Example.com ')
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toContain('no-store')
    const profile = (await res.json()) as { id: number; username: string; primary_email: string }
    expect(profile).toMatchObject({ username: 'alice-smith', primary_email: 'alice.smith@example.com' })
    const cookie = cookieFrom(res)
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i)

    const me = await s.request('/platform/profile', { headers: { cookie } })
    expect(await me.json()).toEqual(profile)
    const orgs = (await (await s.request('/platform/organizations', { headers: { cookie } })).json()) as Array<{ slug: string; name: string; plan: { id: string } }>
    expect(orgs).toEqual([expect.objectContaining({ slug: 'alice-smith', name: "alice-smith's Org", plan: { id: 'free' } })])
    const permissions = (await (await s.request('/platform/profile/permissions', { headers: { cookie } })).json()) as Array<{ role: string }>
    expect(permissions).toEqual([expect.objectContaining({ organization_slug: 'alice-smith', role: 'Owner' })])
    const projects = (await (await s.request('/platform/projects', { headers: { cookie } })).json()) as unknown[]
    expect(projects).toEqual([])

    // The password works for sign-in afterwards.
    const again = await s.request('/platform/auth/sign-in', json({ email: 'alice.smith@example.com', password: 'correct horse' }))
    expect(again.status).toBe(200)
  })

  it('gives a second person with the same local part other, unique names', async () => {
    const res = await signUp('alice-smith@elsewhere.org')
    expect(res.status).toBe(201)
    expect(((await res.json()) as { username: string }).username).toBe('alice-smith-2')
    const orgs = (await (await s.request('/platform/organizations', { headers: { cookie: cookieFrom(res) } })).json()) as Array<{ slug: string }>
    expect(orgs.map((o) => o.slug)).toEqual(['alice-smith-2'])
  })

  it('makes a name of at least 3 characters from a short local part', async () => {
    const res = await signUp('x@example.com')
    expect(((await res.json()) as { username: string }).username).toBe('x-account')
  })

  it('refuses a taken e-mail (in any case) with a clear 409 and creates nothing', async () => {
    const before = await s.db.query<{ n: number }>('select count(*)::int as n from organizations')
    const res = await signUp('OWNER@example.com')
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: EMAIL_TAKEN, code: 'email_taken' })
    expect(res.headers.get('set-cookie')).toBeNull()
    const after = await s.db.query<{ n: number }>('select count(*)::int as n from organizations')
    expect(after.rows[0].n).toBe(before.rows[0].n)
  })

  it('is throttled like sign-in: past 5 failed attempts for one e-mail, 429 with Retry-After', async () => {
    const email = 'throttled@example.com'
    expect((await signUp(email)).status).toBe(201)
    for (let i = 0; i < 5; i++) expect((await signUp(email)).status).toBe(409)
    const res = await signUp(email)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await res.json()) as { message: string }).message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/)
    // The same count as sign-in: the e-mail's sign-in is throttled too, right password or not.
    const signIn = await s.request('/platform/auth/sign-in', json({ email, password: 'correct horse' }))
    expect(signIn.status).toBe(429)
    s.clock.advance(s.config.signInThrottle.windowMs)
    expect((await s.request('/platform/auth/sign-in', json({ email, password: 'correct horse' }))).status).toBe(200)
  })

  it('counts attempts per client address too (behind a trusted proxy)', async () => {
    const proxied = await startTestServer({ config: { trustProxy: true, signInThrottle: { windowMs: 60_000, maxPerPair: 5, maxPerAccount: 5, maxPerAddress: 3, maxSignUpsPerAddress: 10 } } })
    try {
      const from = { 'x-forwarded-for': '203.0.113.9' }
      const codes: number[] = []
      for (let i = 0; i < 4; i++) codes.push((await proxied.request('/platform/auth/sign-up', json({ email: OWNER, password: 'whatever1' }, from))).status)
      expect(codes).toEqual([409, 409, 409, 429])
    } finally {
      await proxied.close()
    }
  })

  it('answers bad input with 400 and a clear message', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ email: 'not-an-email', password: 'long enough' }, /email: Enter a valid e-mail address/],
      [{ email: 'short@example.com', password: 'seven77' }, /password: Password must be at least 8 characters/],
      [{ email: `${'a'.repeat(250)}@example.com`, password: 'long enough' }, /at most 254 characters/],
      [{ email: 'big@example.com', password: 'x'.repeat(257) }, /at most 256 characters/],
      [{ email: 'missing-password@example.com' }, /password/],
      [[], /./],
    ]
    for (const [body, message] of cases) {
      const res = await s.request('/platform/auth/sign-up', json(body))
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(message)
    }
    const nul = await s.request('/platform/auth/sign-up', json({ email: 'nul@example.com', password: 'pass\u0000word' }))
    expect(nul.status).toBe(400)
    const notJson = await s.request('/platform/auth/sign-up', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
    expect(notJson.status).toBeGreaterThanOrEqual(400)
    expect(notJson.status).toBeLessThan(500)
    const { rows } = await s.db.query(`select 1 from accounts where primary_email in ('short@example.com', 'big@example.com', 'nul@example.com')`)
    expect(rows).toEqual([])
  })

  it('refuses a cross-site sign-up (the app-wide CSRF rule)', async () => {
    const res = await signUp('csrf@example.com', 'long enough', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(res.status).toBe(403)
  })
})

describe('sign-in tells nothing about which accounts exist', () => {
  it('answers a wrong password and an unknown e-mail alike', async () => {
    const wrong = await s.request('/platform/auth/sign-in', json({ email: OWNER, password: 'not the password' }))
    const unknown = await s.request('/platform/auth/sign-in', json({ email: 'nobody-here@example.com', password: 'not the password' }))
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await unknown.json()).toEqual(await wrong.json())
    expect([...unknown.headers.keys()].sort()).toEqual([...wrong.headers.keys()].sort())
  })
})

describe('the profile', () => {
  it('changes the username, seen on the very next request (the session cache is dropped)', async () => {
    const cookie = cookieFrom(await signUp('renamer@example.com'))
    expect(((await (await s.request('/platform/profile', { headers: { cookie } })).json()) as { username: string }).username).toBe('renamer')
    const res = await s.request('/platform/profile', { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ username: '  New.Name_1 ' }) })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ username: 'New.Name_1', primary_email: 'renamer@example.com' })
    expect(((await (await s.request('/platform/profile', { headers: { cookie } })).json()) as { username: string }).username).toBe('New.Name_1')
  })

  it('refuses a taken username with 409 and a bad one with 400', async () => {
    const cookie = cookieFrom(await signUp('second-renamer@example.com'))
    const patch = (body: unknown) =>
      s.request('/platform/profile', { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const taken = await patch({ username: 'owner' })
    expect(taken.status).toBe(409)
    expect(((await taken.json()) as { message: string }).message).toBe(USERNAME_TAKEN)
    for (const username of ['ab', 'x'.repeat(41), 'has space', 'semi;colon', '', 42]) {
      const res = await patch({ username })
      expect(res.status, String(username)).toBe(400)
    }
    expect((await patch({ username: 'nul\u0000name' })).status).toBe(400)
  })

  it('needs a session', async () => {
    const res = await s.request('/platform/profile', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'nobody' }) })
    expect(res.status).toBe(401)
  })
})
