/**
 * Accounts hardened: sign-in throttling, the password hash cost and its rehash, personal access tokens in the
 * platform's format with an optional expiry, and the development start's one demo token.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccessTokenList, CreatedAccessToken } from '../../src/contracts/session'
import { createApp } from '../../src/server/app'
import { loadConfig } from '../../src/server/config'
import { dummyPasswordHash, hashPassword, sha256, verifyPassword } from '../../src/server/core/secrets'
import { demoAccessTokenFile, printBanner, type RunningServer } from '../../src/server/start'
import { DEMO_PASSWORD, DEVELOPER, OWNER, READONLY, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s?.close())
beforeEach(async () => {
  await s.db.query('delete from sign_in_failures')
})

/** A sign-in as if over a socket from `address` (what @hono/node-server passes the app as its env). */
function signInFrom(email: string, password: string, address?: string, headers: Record<string, string> = {}) {
  const env = address ? { incoming: { socket: { remoteAddress: address } } } : undefined
  return Promise.resolve(s.app.request('/platform/auth/sign-in', json({ email, password }, headers), env))
}

describe('sign-in throttling', () => {
  it('after 5 failures for an account the 6th attempt answers 429 with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await signInFrom(DEVELOPER, 'wrong')).status).toBe(401)
    const res = await signInFrom(DEVELOPER, DEMO_PASSWORD)
    expect(res.status).toBe(429)
    expect(await res.json()).toEqual({ message: 'Too many failed sign-in attempts. Try again in 15 minutes.' })
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('the block ends with the window: after Retry-After the right password works', async () => {
    for (let i = 0; i < 6; i++) await signInFrom(READONLY, 'wrong')
    const blocked = await signInFrom(READONLY, DEMO_PASSWORD)
    expect(blocked.status).toBe(429)
    s.clock.advance(Number(blocked.headers.get('retry-after')) * 1000)
    expect((await signInFrom(READONLY, DEMO_PASSWORD)).status).toBe(200)
  })

  it('an unknown e-mail is counted and answered like a known one', async () => {
    const answers: number[] = []
    for (let i = 0; i < 6; i++) answers.push((await signInFrom('nobody@example.com', 'wrong')).status)
    expect(answers).toEqual([401, 401, 401, 401, 401, 429])
  })

  it("a success resets the account's count", async () => {
    for (let i = 0; i < 4; i++) expect((await signInFrom(OWNER, 'wrong')).status).toBe(401)
    expect((await signInFrom(OWNER, DEMO_PASSWORD)).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await signInFrom(OWNER, 'wrong')).status).toBe(401)
  })

  it('parallel attempts cannot pass together: of 12 at once, 5 are checked and 7 answered 429', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => signInFrom(DEVELOPER, 'wrong')))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)])
  })

  it('after 20 failures from one address, every account answers 429 from it, and other addresses are not affected', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await signInFrom(`guess${i}@example.com`, 'wrong', '203.0.113.7')).status).toBe(401)
    }
    const blocked = await signInFrom(OWNER, DEMO_PASSWORD, '203.0.113.7')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await signInFrom(OWNER, DEMO_PASSWORD, '198.51.100.9')).status).toBe(200)
  })

  it('X-Forwarded-For is ignored without TRUST_PROXY: changing it does not escape the address limit', async () => {
    for (let i = 0; i < 20; i++) {
      await signInFrom(`guess${i}@example.com`, 'wrong', '203.0.113.8', { 'x-forwarded-for': `10.0.0.${i}` })
    }
    const res = await signInFrom(OWNER, DEMO_PASSWORD, '203.0.113.8', { 'x-forwarded-for': '10.0.1.1' })
    expect(res.status).toBe(429)
  })

  it('several processes on one store share the counts', async () => {
    const other = await createApp({ db: s.db, config: s.config, clock: s.clock, seed: false })
    try {
      for (let i = 0; i < 5; i++) expect((await signInFrom(DEVELOPER, 'wrong')).status).toBe(401)
      const res = await other.app.request('/platform/auth/sign-in', json({ email: DEVELOPER, password: DEMO_PASSWORD }))
      expect(res.status).toBe(429)
    } finally {
      await other.close()
    }
  })
})

describe('sign-in throttling behind a trusted proxy', () => {
  let p: TestServer
  beforeAll(async () => {
    p = await startTestServer({ config: { trustProxy: true } })
  })
  afterAll(() => p?.close())

  it('with TRUST_PROXY=1 the last X-Forwarded-For entry is the address counted', async () => {
    const from = (xff: string, email: string, password: string) =>
      p.app.request('/platform/auth/sign-in', json({ email, password }, { 'x-forwarded-for': xff }), {
        incoming: { socket: { remoteAddress: '127.0.0.1' } },
      })
    // The client writes the left entries; the proxy appends the address it saw.
    for (let i = 0; i < 20; i++) await from(`1.2.3.${i}, 203.0.113.50`, `guess${i}@example.com`, 'wrong')
    expect((await from('1.2.3.99, 203.0.113.50', OWNER, DEMO_PASSWORD)).status).toBe(429)
    expect((await from('203.0.113.51', OWNER, DEMO_PASSWORD)).status).toBe(200)
  })
})

describe('password hashes', () => {
  it('the default cost is the OWASP minimum for scrypt: N=2^17, r=8, p=1', () => {
    expect(loadConfig({}).passwordHashCost).toEqual({ N: 2 ** 17, r: 8, p: 1 })
  })

  it('PASSWORD_SCRYPT_N sets N, a power of 2 from 2^10 to 2^20; anything else stops the start', () => {
    expect(loadConfig({ PASSWORD_SCRYPT_N: '1024' }).passwordHashCost).toEqual({ N: 2 ** 10, r: 8, p: 1 })
    expect(loadConfig({ PASSWORD_SCRYPT_N: String(2 ** 20) }).passwordHashCost).toEqual({ N: 2 ** 20, r: 8, p: 1 })
    for (const bad of ['512', '3000', String(2 ** 21), 'many', '-1024']) {
      expect(() => loadConfig({ PASSWORD_SCRYPT_N: bad }), bad).toThrow(/PASSWORD_SCRYPT_N must be/)
    }
  })

  it('a hash at the OWASP cost can be made and verified (scrypt needs more than the default memory)', async () => {
    const hash = await hashPassword('correct horse', { N: 2 ** 17, r: 8, p: 1 })
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w+/=]+\$[\w+/=]+$/)
    expect(await verifyPassword('correct horse', hash)).toBe(true)
    expect(await verifyPassword('wrong horse', hash)).toBe(false)
  })

  it('the dummy hash for unknown e-mails has the configured cost, so both failures cost the same', async () => {
    expect(await dummyPasswordHash({ N: 2 ** 15, r: 8, p: 1 })).toMatch(/^scrypt\$32768\$8\$1\$/)
  })

  it('a stored hash with absurd parameters is refused, not computed', async () => {
    const hash = await hashPassword('x', { N: 2 ** 10, r: 8, p: 1 })
    expect(await verifyPassword('x', hash.replace('$1024$', '$1073741824$'))).toBe(false)
  })
})

describe('rehash at the next sign-in', () => {
  let r: TestServer
  beforeAll(async () => {
    r = await startTestServer({ config: { passwordHashCost: { N: 2 ** 15, r: 8, p: 1 } } })
  })
  afterAll(() => r?.close())

  const storedHash = async (email: string) =>
    (await r.db.query<{ password_hash: string }>('select password_hash from accounts where primary_email = $1', [email]))
      .rows[0].password_hash

  it('the demo accounts are seeded with the configured cost', async () => {
    expect(await storedHash(READONLY)).toMatch(/^scrypt\$32768\$8\$1\$/)
  })

  it("a hash of today's format with a lower cost keeps working and is replaced by one of the configured cost", async () => {
    const old = await hashPassword(DEMO_PASSWORD, { N: 2 ** 14, r: 8, p: 1 })
    await r.db.query('update accounts set password_hash = $1 where primary_email = $2', [old, DEVELOPER])

    const wrong = await r.request('/platform/auth/sign-in', json({ email: DEVELOPER, password: 'wrong' }))
    expect(wrong.status).toBe(401)
    expect(await storedHash(DEVELOPER)).toBe(old)

    expect((await r.request('/platform/auth/sign-in', json({ email: DEVELOPER, password: DEMO_PASSWORD }))).status).toBe(200)
    const rehashed = await storedHash(DEVELOPER)
    expect(rehashed).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(await verifyPassword(DEMO_PASSWORD, rehashed)).toBe(true)
    expect((await r.request('/platform/auth/sign-in', json({ email: DEVELOPER, password: DEMO_PASSWORD }))).status).toBe(200)
  })
})

describe('personal access tokens: format and expiry', () => {
  let cookie: string
  beforeAll(async () => {
    cookie = await s.signIn(OWNER)
  })
  const create = (body: unknown) => s.request('/platform/profile/access-tokens', json(body, { cookie }))
  const v1 = (token: string) => s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })

  it("new tokens have the platform's format: sbp_ and 40 lowercase hex characters", async () => {
    const token = CreatedAccessToken.parse(await (await create({ name: 'format' })).json())
    expect(token.token).toMatch(/^sbp_[0-9a-f]{40}$/)
    expect(token.token_alias).toBe(`${token.token.slice(0, 8)}…${token.token.slice(-4)}`)
    // Asked without an expiry: the default (ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS, 90), never a token that lives forever.
    expect(token.expires_at).toBe(new Date(s.clock.ms + 90 * 86_400_000).toISOString())
    expect((await v1(token.token)).status).toBe(200)
  })

  it('the answers that carry a secret (a new token, the session cookie) say Cache-Control: no-store', async () => {
    expect((await create({ name: 'cache' })).headers.get('cache-control')).toBe('no-store')
    expect((await signInFrom(OWNER, DEMO_PASSWORD)).headers.get('cache-control')).toBe('no-store')
  })

  it('a token of the earlier kpat_ format in an existing store keeps working', async () => {
    const old = `kpat_${'ab12'.repeat(10)}`
    await s.db.query(
      `insert into access_tokens (account_id, name, token_hash, token_alias, created_at)
       select id, 'old', $1, 'kpat_ab12…ab12', now() from accounts where primary_email = $2`,
      [sha256(old), OWNER],
    )
    expect((await v1(old)).status).toBe(200)
  })

  it('a token with an expiry works until it expires, then answers 401; the list shows when', async () => {
    const created = await create({ name: 'expiring', expires_in_days: 30 })
    expect(created.status).toBe(201)
    const token = CreatedAccessToken.parse(await created.json())
    expect(token.expires_at).toBe(new Date(s.clock.ms + 30 * 86_400_000).toISOString())
    const list = AccessTokenList.parse(await (await s.request('/platform/profile/access-tokens', { headers: { cookie } })).json())
    expect(list.find((t) => t.id === token.id)?.expires_at).toBe(token.expires_at)

    expect((await v1(token.token)).status).toBe(200)
    s.clock.advance(30 * 86_400_000)
    const expired = await v1(token.token)
    expect(expired.status).toBe(401)
    expect(await expired.json()).toHaveProperty('message')
    cookie = await s.signIn(OWNER) // the session of this block may have expired with the clock
  })

  it.each([0, -1, 366, 1.5, '30'])('expires_in_days %j answers 400 with a message', async (days) => {
    const res = await create({ name: 'bad', expires_in_days: days })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toMatch(/expires_in_days/)
  })

  it('a value that is not of a token shape answers 401', async () => {
    expect((await v1(`sbp_${'A'.repeat(40)}`)).status).toBe(401)
    expect((await v1('sbp_short')).status).toBe(401)
  })
})

describe('the development start reuses one demo token', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kp-demo-token-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  async function bannerToken(): Promise<string> {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const config = { ...s.config, dataDir: path.join(dir, 'data'), devControls: true }
      await printBanner({ db: s.db, config, url: 'http://127.0.0.1:1', wire: { port: 1 } } as unknown as RunningServer)
      const printed = log.mock.calls.map((call) => String(call[0])).join('\n')
      const match = /Bearer ((?:sbp|kpat)_[0-9a-f]{40})/.exec(printed)
      if (!match) throw new Error(`no token in the banner:\n${printed}`)
      return match[1]
    } finally {
      log.mockRestore()
    }
  }
  const ownerTokens = async () =>
    (
      await s.db.query<{ n: number }>(
        `select count(*)::int as n from access_tokens t join accounts a on a.id = t.account_id where a.primary_email = $1`,
        [OWNER],
      )
    ).rows[0].n

  it('two starts print the same token, create one token, keep only its hash in the store and the value in a 0600 file', async () => {
    const before = await ownerTokens()
    const first = await bannerToken()
    const second = await bannerToken()
    expect(second).toBe(first)
    expect(await ownerTokens()).toBe(before + 1)
    expect(first).toMatch(/^sbp_[0-9a-f]{40}$/)
    expect((await v1Status(first))).toBe(200)

    const { rows } = await s.db.query<Record<string, unknown>>('select * from access_tokens')
    expect(JSON.stringify(rows)).not.toContain(first)
    const file = demoAccessTokenFile({ ...s.config, dataDir: path.join(dir, 'data') })
    expect((await readFile(file, 'utf8')).trim()).toBe(first)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const row = rows.find((t) => t.token_hash === sha256(first))
    expect(row?.expires_at).not.toBeNull()
  })

  it('a revoked demo token is replaced by a new one at the next start', async () => {
    const first = await bannerToken()
    await s.db.query('delete from access_tokens where token_hash = $1', [sha256(first)])
    const next = await bannerToken()
    expect(next).not.toBe(first)
    expect(await v1Status(next)).toBe(200)
  })

  const v1Status = async (token: string) =>
    (await s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })).status
})
