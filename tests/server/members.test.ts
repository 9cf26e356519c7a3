/**
 * Organization members and invitations: who may manage them (read from the role in the store on every request),
 * invitations (accepted once, by the invited e-mail, within 7 days, token checked), role changes seen on the very
 * next request (through the caches), the last Owner protected, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedInvitation, OrganizationTeam } from '../../src/contracts/members'
import { INVITATION_TTL_MS, MESSAGES } from '../../src/server/features/members/routes'
import { DEVELOPER, OWNER, READONLY, cookieFrom, json, signUpVerified, startTestServer, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())

let people = 0
/** A new person (their address verified) with a personal organization (its slug) and a session. */
async function newPerson(prefix = 'person') {
  const email = `${prefix}-${++people}@example.com`
  const res = await signUpVerified(s, email)
  const { id, username } = (await res.json()) as { id: number; username: string }
  const cookie = cookieFrom(res)
  const orgs = (await (await s.request('/platform/organizations', { headers: { cookie } })).json()) as Array<{ slug: string }>
  return { id, email, username, cookie, slug: orgs[0].slug }
}

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  s.request(path, { method, headers: { cookie, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

const invite = (cookie: string, slug: string, email: string, role = 'Developer') =>
  send(cookie, 'POST', `/platform/organizations/${slug}/members/invitations`, { email, role })

async function invited(cookie: string, slug: string, email: string, role = 'Developer') {
  const res = await invite(cookie, slug, email, role)
  expect(res.status).toBe(201)
  return (await res.json()) as CreatedInvitation
}

const accept = (cookie: string, token: string) => send(cookie, 'POST', '/platform/invitations/accept', { token })
const team = async (cookie: string, slug: string) => (await (await s.request(`/platform/organizations/${slug}/members`, { headers: { cookie } })).json()) as OrganizationTeam
const setRole = (cookie: string, slug: string, accountId: number, role: string) => send(cookie, 'PATCH', `/platform/organizations/${slug}/members/${accountId}`, { role })
const remove = (cookie: string, slug: string, accountId: number) => send(cookie, 'DELETE', `/platform/organizations/${slug}/members/${accountId}`)
const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message

describe('the members list', () => {
  it('shows every member with their role to any member, Owners first', async () => {
    const cookie = await s.signIn(READONLY)
    const { members, invitations } = await team(cookie, 'demo-free')
    expect(members.map((m) => [m.primary_email, m.role])).toEqual([
      [OWNER, 'Owner'],
      [DEVELOPER, 'Developer'],
      [READONLY, 'Read-only'],
    ])
    expect(invitations).toEqual([])
  })

  it('is 404 for an organization the person does not belong to', async () => {
    const stranger = await newPerson()
    const res = await s.request('/platform/organizations/demo-free/members', { headers: { cookie: stranger.cookie } })
    expect(res.status).toBe(404)
  })
})

describe('invitations', () => {
  it('an Owner invites; the invited person accepts and is a member with the role from the next request', async () => {
    const owner = await newPerson('owner')
    const guest = await newPerson('guest')
    const created = await invited(owner.cookie, owner.slug, guest.email.toUpperCase(), 'Developer')
    expect(created).toMatchObject({ email: guest.email, role: 'Developer' })
    expect(created.token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/)
    expect((await team(owner.cookie, owner.slug)).invitations).toEqual([expect.objectContaining({ email: guest.email, role: 'Developer' })])
    // The secret is kept only hashed.
    const { rows } = await s.db.query<{ secret_hash: string }>('select secret_hash from invitations where id = $1', [created.id])
    expect(rows[0].secret_hash).not.toContain(created.token.split('.')[1])

    // Before accepting, the organization is not the guest's.
    expect((await s.request(`/platform/organizations/${owner.slug}/members`, { headers: { cookie: guest.cookie } })).status).toBe(404)
    const res = await accept(guest.cookie, created.token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ slug: owner.slug, name: `${owner.username}'s Org`, role: 'Developer' })
    const permissions = (await (await s.request('/platform/profile/permissions', { headers: { cookie: guest.cookie } })).json()) as Array<{ organization_slug: string; role: string }>
    expect(permissions).toContainEqual(expect.objectContaining({ organization_slug: owner.slug, role: 'Developer' }))
    const { members, invitations } = await team(owner.cookie, owner.slug)
    expect(members.map((m) => [m.primary_email, m.role])).toEqual([
      [owner.email, 'Owner'],
      [guest.email, 'Developer'],
    ])
    expect(invitations).toEqual([])
  })

  it('an invitation is used once', async () => {
    const owner = await newPerson('owner')
    const guest = await newPerson('guest')
    const { token } = await invited(owner.cookie, owner.slug, guest.email)
    expect((await accept(guest.cookie, token)).status).toBe(200)
    const again = await accept(guest.cookie, token)
    expect(again.status).toBe(410)
    expect(await messageOf(again)).toBe(MESSAGES.used)
  })

  it('a person signed in with another e-mail is refused clearly, and the invitation stays open', async () => {
    const owner = await newPerson('owner')
    const guest = await newPerson('guest')
    const other = await newPerson('other')
    const { token } = await invited(owner.cookie, owner.slug, guest.email)
    const res = await accept(other.cookie, token)
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe(MESSAGES.otherEmail)
    expect((await accept(guest.cookie, token)).status).toBe(200)
  })

  it('expires after 7 days', async () => {
    const owner = await newPerson('owner')
    const guest = await newPerson('guest')
    const { token } = await invited(owner.cookie, owner.slug, guest.email)
    s.clock.advance(INVITATION_TTL_MS)
    // A week on, both sessions have ended: sign in again.
    const signIn = async (email: string) => cookieFrom(await s.request('/platform/auth/sign-in', json({ email, password: 'long enough' })))
    owner.cookie = await signIn(owner.email)
    const res = await accept(await signIn(guest.email), token)
    expect(res.status).toBe(410)
    expect(await messageOf(res)).toBe(MESSAGES.expired)
    expect((await team(owner.cookie, owner.slug)).invitations).toEqual([])
  })

  it('a token with a wrong secret, an unknown id or a bad shape is refused', async () => {
    const owner = await newPerson('owner')
    const guest = await newPerson('guest')
    const { token, id } = await invited(owner.cookie, owner.slug, guest.email)
    const wrongSecret = `${id}.${'A'.repeat(43)}`
    for (const bad of [wrongSecret, `999999.${token.split('.')[1]}`]) {
      const res = await accept(guest.cookie, bad)
      expect(res.status).toBe(404)
      expect(await messageOf(res)).toBe(MESSAGES.invalidLink)
    }
    for (const bad of ['', 'nonsense', `${id}.short`, `${token}x`, `0.${'A'.repeat(43)}`]) {
      const res = await accept(guest.cookie, bad)
      expect(res.status, bad).toBe(400)
    }
    expect((await accept(guest.cookie, token)).status).toBe(200)
  })

  it('accepting needs a session', async () => {
    const res = await s.request('/platform/invitations/accept', json({ token: `1.${'A'.repeat(43)}` }))
    expect(res.status).toBe(401)
  })

  it('Developer and Read-only cannot invite (403); an Administrator cannot invite an Owner', async () => {
    for (const email of [DEVELOPER, READONLY]) {
      const res = await invite(await s.signIn(email), 'demo-free', 'someone@example.com')
      expect(res.status).toBe(403)
      expect(await messageOf(res)).toBe(MESSAGES.notManager)
    }
    const owner = await newPerson('owner')
    const admin = await newPerson('admin')
    expect((await accept(admin.cookie, (await invited(owner.cookie, owner.slug, admin.email, 'Administrator')).token)).status).toBe(200)
    const asOwner = await invite(admin.cookie, owner.slug, 'x@example.com', 'Owner')
    expect(asOwner.status).toBe(403)
    expect(await messageOf(asOwner)).toBe(MESSAGES.ownerOnly)
    expect((await invite(admin.cookie, owner.slug, 'x@example.com', 'Developer')).status).toBe(201)
  })

  it('refuses to invite a member again (409)', async () => {
    const res = await invite(await s.signIn(OWNER), 'demo-free', DEVELOPER)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(MESSAGES.alreadyMember)
  })

  it('answers bad input with 400', async () => {
    const cookie = await s.signIn(OWNER)
    const cases: unknown[] = [
      { email: 'not-an-email', role: 'Developer' },
      { email: `${'a'.repeat(250)}@example.com`, role: 'Developer' },
      { email: 'a@example.com', role: 'Superuser' },
      { email: 'a@example.com' },
      { email: 'nul\u0000@example.com', role: 'Developer' },
    ]
    for (const body of cases) {
      const res = await send(cookie, 'POST', '/platform/organizations/demo-free/members/invitations', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toBeTruthy()
    }
    expect((await send(cookie, 'POST', '/platform/organizations/bad slug!/members/invitations', { email: 'a@example.com', role: 'Developer' })).status).toBe(400)
    expect((await setRole(cookie, 'demo-free', 0, 'Developer')).status).toBe(400)
    expect((await send(cookie, 'PATCH', '/platform/organizations/demo-free/members/abc', { role: 'Developer' })).status).toBe(400)
    expect((await send(cookie, 'PATCH', '/platform/organizations/demo-free/members/99999999999', { role: 'Developer' })).status).toBe(400)
    expect((await setRole(cookie, 'demo-free', 2, 'King')).status).toBe(400)
    expect((await remove(cookie, 'demo-free', 424242)).status).toBe(404)
  })
})

describe('roles', () => {
  async function orgWithDeveloper() {
    const owner = await newPerson('owner')
    const dev = await newPerson('dev')
    expect((await accept(dev.cookie, (await invited(owner.cookie, owner.slug, dev.email, 'Developer')).token)).status).toBe(200)
    // A project of the organization, so the role's effect on a project route can be seen.
    const create = await send(owner.cookie, 'POST', '/dev/projects', { organization_slug: owner.slug, name: `P ${owner.slug}`, status: 'ACTIVE_HEALTHY' })
    expect(create.status).toBeLessThan(300)
    const { rows } = await s.db.query<{ ref: string }>('select ref from projects where name = $1', [`P ${owner.slug}`])
    return { owner, dev, ref: rows[0].ref }
  }

  const settings = async (cookie: string, ref: string) =>
    (await (await s.request(`/platform/props/project/${ref}/settings`, { headers: { cookie } })).json()) as { project: { jwt_secret?: string } }
  // The JWT secret is sent only to members holding service_api_keys:read (Owner, Administrator).
  const mayReadServiceKey = async (cookie: string, ref: string) => typeof (await settings(cookie, ref)).project.jwt_secret === 'string'

  it('a role change applies on the very next request (the caches hold no stale role)', async () => {
    const { owner, dev, ref } = await orgWithDeveloper()
    // Warm the caches with the Developer's view of the project.
    expect(await mayReadServiceKey(dev.cookie, ref)).toBe(false)
    expect(await mayReadServiceKey(dev.cookie, ref)).toBe(false)
    const promoted = await setRole(owner.cookie, owner.slug, dev.id, 'Administrator')
    expect(promoted.status).toBe(200)
    expect(await promoted.json()).toMatchObject({ account_id: dev.id, role: 'Administrator' })
    expect(await mayReadServiceKey(dev.cookie, ref)).toBe(true)
    // Now an Administrator, the person may manage members.
    expect((await invite(dev.cookie, owner.slug, 'new@example.com')).status).toBe(201)

    expect((await setRole(owner.cookie, owner.slug, dev.id, 'Read-only')).status).toBe(200)
    expect(await mayReadServiceKey(dev.cookie, ref)).toBe(false)
    const refused = await invite(dev.cookie, owner.slug, 'other@example.com')
    expect(refused.status).toBe(403)
  })

  it('a removed member loses the organization and its projects on the next request', async () => {
    const { owner, dev, ref } = await orgWithDeveloper()
    expect((await s.request(`/platform/projects/${ref}`, { headers: { cookie: dev.cookie } })).status).toBe(200)
    expect((await remove(owner.cookie, owner.slug, dev.id)).status).toBe(204)
    expect((await s.request(`/platform/projects/${ref}`, { headers: { cookie: dev.cookie } })).status).toBe(404)
    expect((await s.request(`/platform/organizations/${owner.slug}/members`, { headers: { cookie: dev.cookie } })).status).toBe(404)
  })

  it('the last Owner can be neither demoted nor removed (409); with a second Owner, they can', async () => {
    const { owner, dev } = await orgWithDeveloper()
    const demote = await setRole(owner.cookie, owner.slug, owner.id, 'Developer')
    expect(demote.status).toBe(409)
    expect(await messageOf(demote)).toBe(MESSAGES.lastOwner)
    const removeSelf = await remove(owner.cookie, owner.slug, owner.id)
    expect(removeSelf.status).toBe(409)
    expect(await messageOf(removeSelf)).toBe(MESSAGES.lastOwner)

    expect((await setRole(owner.cookie, owner.slug, dev.id, 'Owner')).status).toBe(200)
    expect((await setRole(owner.cookie, owner.slug, owner.id, 'Developer')).status).toBe(200)
    // The former owner, now a Developer, may change nothing; the new Owner is now the last one.
    expect((await setRole(owner.cookie, owner.slug, dev.id, 'Developer')).status).toBe(403)
    expect((await remove(dev.cookie, owner.slug, dev.id)).status).toBe(409)
    expect((await remove(dev.cookie, owner.slug, owner.id)).status).toBe(204)
  })

  it('two demotions of the only two Owners at once leave one Owner', async () => {
    const { owner, dev } = await orgWithDeveloper()
    expect((await setRole(owner.cookie, owner.slug, dev.id, 'Owner')).status).toBe(200)
    const [a, b] = await Promise.all([
      setRole(owner.cookie, owner.slug, owner.id, 'Developer'),
      setRole(dev.cookie, owner.slug, dev.id, 'Developer'),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const owners = (await team(owner.cookie, owner.slug)).members.filter((m) => m.role === 'Owner')
    expect(owners).toHaveLength(1)
  })

  it('Developer and Read-only cannot change roles or remove members (403); an Administrator cannot touch an Owner', async () => {
    const cookie = await s.signIn(DEVELOPER)
    const { members } = await team(cookie, 'demo-free')
    const readonly = members.find((m) => m.primary_email === READONLY)!
    for (const who of [DEVELOPER, READONLY]) {
      const c = await s.signIn(who)
      expect((await setRole(c, 'demo-free', readonly.account_id, 'Developer')).status).toBe(403)
      expect((await remove(c, 'demo-free', readonly.account_id)).status).toBe(403)
    }
    const { owner, dev } = await orgWithDeveloper()
    expect((await setRole(owner.cookie, owner.slug, dev.id, 'Administrator')).status).toBe(200)
    const touchOwner = await setRole(dev.cookie, owner.slug, owner.id, 'Developer')
    expect(touchOwner.status).toBe(403)
    expect(await messageOf(touchOwner)).toBe(MESSAGES.ownerOnly)
    expect((await remove(dev.cookie, owner.slug, owner.id)).status).toBe(403)
    expect((await setRole(dev.cookie, owner.slug, dev.id, 'Owner')).status).toBe(403)
  })
})
