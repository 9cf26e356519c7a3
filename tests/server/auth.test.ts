import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessToken, AccessTokenList, CreatedAccessToken, Profile } from '../../src/contracts/session'
import { DEVELOPER, OWNER, cookieFrom, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())

describe('without a session', () => {
  it.each(['/platform/profile', '/platform/projects', '/platform/organizations', '/platform/profile/permissions'])(
    'GET %s answers 401 JSON',
    async (path) => {
      const res = await s.request(path)
      expect(res.status).toBe(401)
      expect((await res.json()).message).toMatch(/signed in/)
    },
  )

  it('GET /v1/projects answers 401 JSON', async () => {
    const res = await s.request('/v1/projects')
    expect(res.status).toBe(401)
    expect(await res.json()).toHaveProperty('message')
  })

  it('a made-up bearer token answers 401', async () => {
    const res = await s.request('/v1/projects', { headers: { authorization: 'Bearer kpat_nope' } })
    expect(res.status).toBe(401)
  })

  it('health needs no session', async () => {
    const res = await s.request('/platform/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
  })
})

describe('sign-in', () => {
  it('sets an HTTP-only, SameSite=Lax session cookie and answers the profile', async () => {
    const res = await s.request('/platform/auth/sign-in', json({ email: OWNER, password: 'demo1234' }))
    expect(res.status).toBe(200)
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^kp_session=[\w-]{20,};/)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(Profile.parse(await res.json())).toMatchObject({ username: 'owner', primary_email: OWNER })
  })

  it('accepts the e-mail in any case', async () => {
    const res = await s.request('/platform/auth/sign-in', json({ email: ' Owner@Example.com', password: 'demo1234' }))
    expect(res.status).toBe(200)
  })

  it('a wrong password and an unknown e-mail answer the same 401', async () => {
    const wrongPassword = await s.request('/platform/auth/sign-in', json({ email: OWNER, password: 'nope' }))
    const unknownEmail = await s.request(
      '/platform/auth/sign-in',
      json({ email: 'nobody@example.com', password: 'demo1234' }),
    )
    expect(wrongPassword.status).toBe(401)
    expect(unknownEmail.status).toBe(401)
    expect(await wrongPassword.json()).toEqual({ message: 'Invalid email or password' })
    expect(await unknownEmail.json()).toEqual({ message: 'Invalid email or password' })
    expect(wrongPassword.headers.get('set-cookie')).toBeNull()
  })

  it('the cookie opens /platform/profile', async () => {
    const cookie = await s.signIn(DEVELOPER)
    const res = await s.request('/platform/profile', { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(Profile.parse(await res.json()).username).toBe('developer')
  })

  it('only a hash of the session token is stored', async () => {
    const cookie = await s.signIn(OWNER)
    const token = cookie.split('=')[1]
    const { rows } = await s.db.query<{ n: number }>('select count(*)::int as n from sessions where token_hash = $1', [
      token,
    ])
    expect(rows[0].n).toBe(0)
  })
})

describe('sign-out', () => {
  it('invalidates the session and clears the cookie', async () => {
    const cookie = await s.signIn(OWNER)
    const out = await s.request('/platform/auth/sign-out', { method: 'POST', headers: { cookie } })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toMatch(/kp_session=;.*Max-Age=0/i)
    const after = await s.request('/platform/profile', { headers: { cookie } })
    expect(after.status).toBe(401)
  })

  it('a cross-site Origin is refused (CSRF)', async () => {
    const cookie = await s.signIn(OWNER)
    const res = await s.request('/platform/auth/sign-out', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example' },
    })
    expect(res.status).toBe(403)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    const sameOrigin = await s.request('/platform/auth/sign-out', {
      method: 'POST',
      headers: { cookie, origin: 'http://localhost' },
    })
    expect(sameOrigin.status).toBe(204)
  })

  it('a cross-site browser request without Origin is refused too', async () => {
    const cookie = await s.signIn(OWNER)
    const res = await s.request('/platform/profile/access-tokens', {
      ...json({ name: 'x' }, { cookie, 'sec-fetch-site': 'cross-site' }),
    })
    expect(res.status).toBe(403)
  })
})

describe('personal access tokens', () => {
  it('create → works as Bearer on /v1/projects → revoke → 401; the list never shows the value', async () => {
    const cookie = await s.signIn(OWNER)
    const created = await s.request('/platform/profile/access-tokens', json({ name: 'CI' }, { cookie }))
    expect(created.status).toBe(201)
    const token = CreatedAccessToken.parse(await created.json())
    expect(token.name).toBe('CI')
    expect(token.token).toMatch(/^sbp_[0-9a-f]{40}$/)

    const listRes = await s.request('/platform/profile/access-tokens', { headers: { cookie } })
    const listText = await listRes.text()
    expect(listText).not.toContain(token.token)
    const list = AccessTokenList.parse(JSON.parse(listText))
    expect(list.map((t) => t.id)).toContain(token.id)
    for (const item of JSON.parse(listText) as object[]) expect(item).not.toHaveProperty('token')

    const v1 = await s.request('/v1/projects', { headers: { authorization: `Bearer ${token.token}` } })
    expect(v1.status).toBe(200)
    expect(Array.isArray(await v1.json())).toBe(true)

    const used = AccessTokenList.parse(
      await (await s.request('/platform/profile/access-tokens', { headers: { cookie } })).json(),
    ).find((t) => t.id === token.id)
    expect(AccessToken.parse(used).last_used_at).not.toBeNull()

    const del = await s.request(`/platform/profile/access-tokens/${token.id}`, { method: 'DELETE', headers: { cookie } })
    expect(del.status).toBe(204)
    const after = await s.request('/v1/projects', { headers: { authorization: `Bearer ${token.token}` } })
    expect(after.status).toBe(401)
  })

  it('a token is stored only hashed', async () => {
    const cookie = await s.signIn(OWNER)
    const token = CreatedAccessToken.parse(
      await (await s.request('/platform/profile/access-tokens', json({ name: 'hashed' }, { cookie }))).json(),
    )
    const { rows } = await s.db.query<Record<string, unknown>>('select * from access_tokens where id = $1', [token.id])
    expect(JSON.stringify(rows[0])).not.toContain(token.token)
  })

  it("one person cannot revoke another's token", async () => {
    const owner = await s.signIn(OWNER)
    const developer = await s.signIn(DEVELOPER)
    const token = CreatedAccessToken.parse(
      await (await s.request('/platform/profile/access-tokens', json({ name: 'mine' }, { cookie: owner }))).json(),
    )
    const del = await s.request(`/platform/profile/access-tokens/${token.id}`, {
      method: 'DELETE',
      headers: { cookie: developer },
    })
    expect(del.status).toBe(404)
  })

  it('/v1 also accepts the session cookie', async () => {
    const cookie = await s.signIn(OWNER)
    expect((await s.request('/v1/projects', { headers: { cookie } })).status).toBe(200)
  })

  it('creating a token needs a name', async () => {
    const cookie = await s.signIn(OWNER)
    const res = await s.request('/platform/profile/access-tokens', json({ name: '  ' }, { cookie }))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toMatch(/Name is required/)
  })
})

it('cookieFrom reads the pair', () => {
  const res = new Response(null, { headers: { 'set-cookie': 'a=b; Path=/' } })
  expect(cookieFrom(res)).toBe('a=b')
})
