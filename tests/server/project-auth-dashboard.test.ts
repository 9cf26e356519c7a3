/**
 * The dashboard's Authentication → Users calls (/platform/auth/{ref}/…): forwarded to the project's auth service as
 * its service_role after the member's permission, answered in the platform's shape and through the contracts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthUser, AuthUserPage } from '../../src/contracts/projectAuth'
import { json, OWNER, READONLY } from './helpers'
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

const base = () => `/platform/auth/${env.project.ref}`
const get = (path: string, cookie = owner) => env.s.request(`${base()}${path}`, { headers: { cookie } })
const send = (method: string, path: string, body: unknown, cookie = owner) =>
  env.s.request(`${base()}${path}`, { ...json(body, { cookie }), method })
const list = async (query: string, cookie = owner) => {
  const res = await get(`/users?${query}`, cookie)
  expect(res.status).toBe(200)
  return AuthUserPage.parse(await res.json())
}

describe('the users list and a user', () => {
  it('creates a user who then signs in with the real client, and finds them by search, one page at a time', async () => {
    const created = await send('POST', '/users', { email: 'Ada@Example.com', password: 'correct horse', email_confirm: true })
    expect(created.status).toBe(200)
    const ada = AuthUser.parse(await created.json())
    expect(ada.email).toBe('ada@example.com')
    const { error } = await env.client().auth.signInWithPassword({ email: 'ada@example.com', password: 'correct horse' })
    expect(error).toBeNull()

    for (const name of ['bob', 'carol', 'dave']) {
      expect((await send('POST', '/users', { email: `${name}@example.com`, password: 'long enough' })).status).toBe(200)
    }
    const all = await list('page=1&per_page=2')
    expect(all.total).toBe(4)
    expect(all.users).toHaveLength(2)
    const second = await list('page=2&per_page=2')
    expect(second.users.map((u) => u.email)).not.toContain(all.users[0].email)
    expect(new Set([...all.users, ...second.users].map((u) => u.email)).size).toBe(4)

    const found = await list('keywords=ADA')
    expect(found).toMatchObject({ total: 1, users: [{ id: ada.id, email: 'ada@example.com' }] })
    expect((await list('keywords=nobody')).total).toBe(0)

    const one = await get(`/users/${ada.id}`, readonly)
    expect(one.status).toBe(200)
    expect(AuthUser.parse(await one.json()).last_sign_in_at).toBeTruthy()
  })

  it('sends a magic link and a recovery e-mail to the local mailbox, invites, bans and removes', async () => {
    expect((await send('POST', '/magiclink', { email: 'bob@example.com' })).status).toBe(200)
    expect((await send('POST', '/recover', { email: 'carol@example.com' })).status).toBe(200)
    const invited = await send('POST', '/invite', { email: 'erin@example.com' })
    expect(invited.status).toBe(200)
    expect(AuthUser.parse(await invited.json()).invited_at).toBeTruthy()
    const mail = await env.mailbox()
    expect(mail.slice(0, 3).map((m) => [m.recipient, m.kind])).toEqual([
      ['erin@example.com', 'invite'],
      ['carol@example.com', 'recovery'],
      // bob was created unconfirmed: his link confirms the address as it signs him in
      ['bob@example.com', 'confirmation'],
    ])

    const dave = (await list('keywords=dave')).users[0]
    const banned = await send('PATCH', `/users/${dave.id}`, { ban_duration: '24h' })
    expect(banned.status).toBe(200)
    expect(AuthUser.parse(await banned.json()).banned_until).toBeTruthy()
    const lifted = AuthUser.parse(await (await send('PATCH', `/users/${dave.id}`, { ban_duration: 'none' })).json())
    expect(lifted.banned_until ?? null).toBeNull()

    const removed = await env.s.request(`${base()}/users/${dave.id}`, { method: 'DELETE', headers: { cookie: owner } })
    expect(removed.status).toBe(200)
    expect((await list('keywords=dave')).total).toBe(0)
    const gone = await get(`/users/${dave.id}`)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toMatchObject({ message: 'User not found', code: 'user_not_found' })
  })
})

describe('permissions and bad input', () => {
  it('lets a read-only member list users and refuses every change with 403, writing nothing', async () => {
    const before = await list('per_page=100', readonly)
    const ada = before.users.find((u) => u.email === 'ada@example.com')!
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/users', { email: 'ro@example.com', password: 'long enough' }],
      ['POST', '/invite', { email: 'ro@example.com' }],
      ['POST', '/magiclink', { email: 'ada@example.com' }],
      ['POST', '/recover', { email: 'ada@example.com' }],
      ['PATCH', `/users/${ada.id}`, { ban_duration: '1h' }],
    ]
    const mailBefore = (await env.mailbox()).length
    for (const [method, path, body] of calls) {
      const res = await send(method, path, body, readonly)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(await res.json()).toEqual({ message: "Your role may not change this project's users" })
    }
    expect((await env.s.request(`${base()}/users/${ada.id}`, { method: 'DELETE', headers: { cookie: readonly } })).status).toBe(403)
    expect(await list('per_page=100')).toEqual(before)
    expect((await env.mailbox()).length).toBe(mailBefore)
  })

  it('answers bad input with 400, a taken e-mail with 422 and an unknown user with 404, in the platform shape', async () => {
    for (const [method, path, body] of [
      ['POST', '/users', { email: 'not an email', password: 'long enough' }],
      ['POST', '/users', { email: 'x@example.com' }],
      ['POST', '/users', { email: 'x@example.com', password: 'long enough', role: 'service_role' }],
      ['POST', '/users', { email: 'x@example.com', password: 'p'.repeat(73) }],
      ['POST', '/invite', { email: '' }],
      ['PATCH', '/users/not-a-uuid', { ban_duration: '1h' }],
      ['PATCH', '/users/00000000-0000-4000-8000-000000000000', { ban_duration: 'forever' }],
    ] as const) {
      const res = await send(method, path, body)
      expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400)
      expect(typeof ((await res.json()) as { message: unknown }).message).toBe('string')
    }
    for (const query of ['page=0', 'per_page=0', 'per_page=1001', 'page=x']) expect((await get(`/users?${query}`)).status, query).toBe(400)

    const weak = await send('POST', '/users', { email: 'weak@example.com', password: '123' })
    expect(weak.status).toBe(422)
    expect(await weak.json()).toMatchObject({ code: 'weak_password' })
    const taken = await send('POST', '/users', { email: 'ADA@example.com', password: 'long enough' })
    expect(taken.status).toBe(422)
    expect(await taken.json()).toMatchObject({ code: 'email_exists', message: 'A user with this email address has already been registered' })
    const unknown = await env.s.request(`${base()}/users/00000000-0000-4000-8000-000000000000`, { method: 'DELETE', headers: { cookie: owner } })
    expect(unknown.status).toBe(404)
    expect((await env.s.request(`/platform/auth/zzzzzzzzzzzzzzzzzzzz/users`, { headers: { cookie: owner } })).status).toBe(404)
    expect((await env.s.request(`${base()}/users`)).status).toBe(401)
  })
})
