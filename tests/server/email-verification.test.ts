/**
 * E-mail verification before an invitation is accepted: sign-up prints one verification link (no SMTP), an unverified
 * account's join is refused with a clear 403 email_not_verified, the link verifies once, a new link can be asked for
 * (at most one a minute) and replaces the old one, links expire; the demo accounts are verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_NOT_VERIFIED, type CreatedInvitation } from '../../src/contracts/members'
import { MESSAGES } from '../../src/server/features/members/routes'
import { VERIFICATION_MESSAGES, VERIFICATION_TTL_MS } from '../../src/server/features/accounts/verification'
import { DEVELOPER, OWNER, READONLY, cookieFrom, json, startTestServer, withPrintedLinks, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())

const PASSWORD = 'a password of the invited'

async function invite(email: string, slug = 'demo-pro') {
  const owner = await s.signIn(OWNER) // afresh: tests move the clock past a session's idle time
  const res = await s.request(`/platform/organizations/${slug}/members/invitations`, json({ email, role: 'Developer' }, { cookie: owner }))
  expect(res.status).toBe(201)
  return ((await res.json()) as CreatedInvitation).token
}

const accept = (cookie: string, token: string) => s.request('/platform/invitations/accept', json({ token }, { cookie }))
const resend = (cookie: string) => s.request('/platform/profile/email-verification', { method: 'POST', headers: { cookie } })

async function signUp(email: string) {
  const { result: res, lines, links } = await withPrintedLinks(() => s.request('/platform/auth/sign-up', json({ email, password: PASSWORD })))
  expect(res.status).toBe(201)
  return { cookie: cookieFrom(res), lines, links }
}

describe('an invitation needs a verified address', () => {
  it('whoever signs up with the invited address cannot join before opening the link sent to it', async () => {
    const token = await invite('invited-1@example.com')
    const { cookie, lines, links } = await signUp('invited-1@example.com')

    // One line, the link only: no password, no invitation token, no session.
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^E-mail verification link: http:\/\/\S+\/platform\/auth\/verify-email\?token=\d+\.[A-Za-z0-9_-]{43}$/)
    expect(lines[0]).not.toContain(PASSWORD)
    expect(lines[0]).not.toContain(token.split('.')[1])
    expect(lines[0]).not.toContain(cookie.split('=')[1])

    const refused = await accept(cookie, token)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ message: MESSAGES.unverified, code: EMAIL_NOT_VERIFIED })
    const { rows } = await s.db.query(`select 1 from members m join accounts a on a.id = m.account_id where a.primary_email = 'invited-1@example.com'
      and m.organization_id = (select id from organizations where slug = 'demo-pro')`)
    expect(rows).toEqual([])

    const opened = await s.request(links[0])
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe('/projects')
    expect((await accept(cookie, token)).status).toBe(200)
    // The link works once.
    const again = await s.request(links[0])
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({ message: VERIFICATION_MESSAGES.invalid })
  })

  it('the invitation is for another address: that refusal comes first, verified or not', async () => {
    const token = await invite('invited-2@example.com')
    const { cookie } = await signUp('someone-else-2@example.com')
    const res = await accept(cookie, token)
    expect(res.status).toBe(403)
    expect(((await res.json()) as { message: string }).message).toBe(MESSAGES.otherEmail)
  })

  it('the demo accounts are verified; a new account is not until it opens its link', async () => {
    const { rows } = await s.db.query<{ primary_email: string; verified: boolean }>(
      `select primary_email, email_verified_at is not null as verified from accounts where primary_email = any($1::text[]) order by 1`,
      [[DEVELOPER, OWNER, READONLY, 'someone-else-2@example.com']],
    )
    expect(rows).toEqual([
      { primary_email: DEVELOPER, verified: true },
      { primary_email: OWNER, verified: true },
      { primary_email: READONLY, verified: true },
      { primary_email: 'someone-else-2@example.com', verified: false },
    ])
  })
})

describe('a new verification link', () => {
  it('is sent on request (202, the address), at most once a minute, and replaces the earlier one', async () => {
    const token = await invite('invited-3@example.com')
    const { cookie, links: [first] } = await signUp('invited-3@example.com')
    const tooSoon = await resend(cookie)
    expect(tooSoon.status).toBe(429)
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0)
    s.clock.advance(60_000)
    const { result: sent, links } = await withPrintedLinks(() => resend(cookie))
    expect(sent.status).toBe(202)
    expect(await sent.json()).toEqual({ email: 'invited-3@example.com' })
    expect(links).toHaveLength(1)
    expect(links[0]).not.toBe(first)
    expect((await s.request(first)).status).toBe(404)
    expect((await s.request(links[0])).status).toBe(303)
    expect((await accept(cookie, token)).status).toBe(200)
    const done = await resend(cookie)
    expect(done.status).toBe(409)
    expect(await done.json()).toEqual({ message: VERIFICATION_MESSAGES.alreadyVerified, code: 'email_verified' })
  })

  it('expires after a day (410), and a new one can be asked for', async () => {
    const { links } = await signUp('late-4@example.com')
    s.clock.advance(VERIFICATION_TTL_MS)
    const late = await s.request(links[0])
    expect(late.status).toBe(410)
    expect(await late.json()).toEqual({ message: VERIFICATION_MESSAGES.expired })
    const cookie = await s.signIn('late-4@example.com', PASSWORD) // the sign-up's session went idle meanwhile
    const { result, links: fresh } = await withPrintedLinks(() => resend(cookie))
    expect(result.status).toBe(202)
    expect((await s.request(fresh[0])).status).toBe(303)
  })

  it('answers bad input clearly: a malformed link 400, a forged secret 404, a body that is not empty 400, no session 401', async () => {
    const { cookie, links } = await signUp('forger-5@example.com')
    const bad = await s.request('/platform/auth/verify-email?token=nope')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(/This verification link is not valid/)
    const forged = links[0].replace(/\.[A-Za-z0-9_-]{43}$/, `.${'A'.repeat(43)}`)
    expect((await s.request(forged)).status).toBe(404)
    expect((await s.request('/platform/profile/email-verification', json({ extra: 1 }, { cookie }))).status).toBe(400)
    expect((await s.request('/platform/profile/email-verification', { method: 'POST' })).status).toBe(401)
  })
})
