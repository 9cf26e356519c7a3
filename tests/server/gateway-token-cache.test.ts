/**
 * The gateway's cache of verified tokens (identity.ts): a token's signature is checked once per secret, yet a cached
 * token is refused as soon as it expires, under another secret (a rotation), for another project, or altered by one
 * character; refused tokens are never kept, the claims handed out cannot be changed, and the cache stays within its
 * bound, the least recently used going first. JWT_CACHE_ENTRIES sets the bound (0: no cache).
 */
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config'
import { GatewayRefusal, identify, VerifiedTokens } from '../../src/server/gateway/identity'

const REF = 'abcdefghijklmnopqrst'
const SECRET = 'a-project-jwt-secret-of-at-least-32-characters'
const T0 = new Date('2026-11-26T12:00:00Z')
const epoch = (d: Date, plus = 0) => Math.floor(d.getTime() / 1000) + plus
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)

const sign = (claims: Record<string, unknown>, opts: { secret?: string; exp?: number; nbf?: number } = {}) => {
  const jwt = new SignJWT({ ref: REF, ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(epoch(T0))
  if (opts.exp !== undefined) jwt.setExpirationTime(opts.exp)
  if (opts.nbf !== undefined) jwt.setNotBefore(opts.nbf)
  return jwt.sign(new TextEncoder().encode(opts.secret ?? SECRET))
}

/** The refusal's reason, or 'accepted'. */
async function outcome(credentials: { apikey?: string; authorization?: string }, cache: VerifiedTokens, now: Date, secret = SECRET, ref = REF) {
  try {
    await identify(credentials, secret, ref, false, now, cache)
    return 'accepted'
  } catch (err) {
    if (err instanceof GatewayRefusal) return err.reason
    throw err
  }
}

describe('verified tokens', () => {
  it('keeps a token that verified, and answers the same claims from the cache', async () => {
    const cache = new VerifiedTokens(100)
    const anon = await sign({ role: 'anon' }, { exp: epoch(T0, 3600) })
    const first = await identify({ apikey: anon }, SECRET, REF, false, T0, cache)
    expect(cache.size).toBe(1)
    expect(cache.get(anon, SECRET, T0)).toBe(first!.claims)
    const again = await identify({ apikey: anon }, SECRET, REF, false, at(10), cache)
    expect(again).toEqual({ role: 'anon', claims: first!.claims, bearer: undefined })
    expect(again!.claims).toBe(first!.claims)
  })

  it('refuses a cached token once it expires, as an uncached one would be, and drops it', async () => {
    const cache = new VerifiedTokens(100)
    const user = await sign({ role: 'authenticated', sub: 'u1' }, { exp: epoch(T0, 60) })
    expect(await outcome({ apikey: user }, cache, T0)).toBe('accepted')
    expect(await outcome({ apikey: user }, cache, at(59))).toBe('accepted')
    expect(await outcome({ apikey: user }, cache, at(60))).toBe('token_expired')
    expect(cache.size).toBe(0)
    expect(await outcome({ apikey: user }, new VerifiedTokens(0), at(60))).toBe('token_expired')
  })

  it('checks a cached token’s not-before again at each use', async () => {
    const cache = new VerifiedTokens(100)
    const later = await sign({ role: 'anon' }, { exp: epoch(T0, 3600), nbf: epoch(T0, 30) })
    expect(await outcome({ apikey: later }, cache, at(30))).toBe('accepted')
    expect(cache.get(later, SECRET, at(29))).toBeUndefined()
    expect(await outcome({ apikey: later }, cache, at(29))).toBe('invalid_token')
  })

  it('refuses a cached token under another secret (a rotation) and for another project', async () => {
    const cache = new VerifiedTokens(100)
    const anon = await sign({ role: 'anon' }, { exp: epoch(T0, 3600) })
    expect(await outcome({ apikey: anon }, cache, T0)).toBe('accepted')
    expect(await outcome({ apikey: anon }, cache, T0, 'the-rotated-secret-of-at-least-32-characters!')).toBe('invalid_token')
    expect(await outcome({ apikey: anon }, cache, T0, SECRET, 'tsrqponmlkjihgfedcba')).toBe('other_project')
    // Still good where it belongs.
    expect(await outcome({ apikey: anon }, cache, T0)).toBe('accepted')
  })

  it('refuses a cached token altered in its signature or its claims, and keeps no refused token', async () => {
    const cache = new VerifiedTokens(100)
    const anon = await sign({ role: 'anon' }, { exp: epoch(T0, 3600) })
    expect(await outcome({ apikey: anon }, cache, T0)).toBe('accepted')
    const [head, body, signature] = anon.split('.')
    const flipped = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`
    const promoted = `${head}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), role: 'service_role' })).toString('base64url')}.${signature}`
    const forged = await sign({ role: 'service_role' }, { secret: 'not-the-project-secret-but-32-characters-long', exp: epoch(T0, 3600) })
    for (const bad of [flipped, promoted, forged]) expect(await outcome({ apikey: anon, authorization: `Bearer ${bad}` }, cache, T0)).toBe('invalid_token')
    expect(cache.size).toBe(1)
  })

  it('hands out claims that cannot be changed, so one request cannot alter what the next one sees', async () => {
    const cache = new VerifiedTokens(100)
    const user = await sign({ role: 'authenticated', sub: 'u1', app_metadata: { provider: 'email' } }, { exp: epoch(T0, 3600) })
    const caller = await identify({ authorization: `Bearer ${user}` }, SECRET, REF, false, T0, cache)
    expect(() => {
      ;(caller!.claims as Record<string, unknown>).role = 'service_role'
    }).toThrow(TypeError)
    expect(() => {
      ;(caller!.claims.app_metadata as Record<string, unknown>).provider = 'other'
    }).toThrow(TypeError)
    expect((await identify({ authorization: `Bearer ${user}` }, SECRET, REF, false, T0, cache))!.role).toBe('authenticated')
  })

  it('holds at most its bound, the least recently used going first', async () => {
    const cache = new VerifiedTokens(2)
    const tokens = await Promise.all(['a', 'b', 'c'].map((sub) => sign({ role: 'authenticated', sub }, { exp: epoch(T0, 3600) })))
    await identify({ apikey: tokens[0] }, SECRET, REF, false, T0, cache)
    await identify({ apikey: tokens[1] }, SECRET, REF, false, T0, cache)
    await identify({ apikey: tokens[0] }, SECRET, REF, false, T0, cache) // a is now the most recent
    await identify({ apikey: tokens[2] }, SECRET, REF, false, T0, cache)
    expect(cache.size).toBe(2)
    expect(cache.get(tokens[0], SECRET, T0)).toBeDefined()
    expect(cache.get(tokens[1], SECRET, T0)).toBeUndefined()
    expect(cache.get(tokens[2], SECRET, T0)).toBeDefined()
  })

  it('keeps nothing with a bound of 0', async () => {
    const cache = new VerifiedTokens(0)
    expect(await outcome({ apikey: await sign({ role: 'anon' }, { exp: epoch(T0, 3600) }) }, cache, T0)).toBe('accepted')
    expect(cache.size).toBe(0)
  })

  it('takes its bound from JWT_CACHE_ENTRIES', () => {
    expect(loadConfig({}).jwtCacheEntries).toBe(10_000)
    expect(loadConfig({ JWT_CACHE_ENTRIES: '0' }).jwtCacheEntries).toBe(0)
    expect(() => loadConfig({ JWT_CACHE_ENTRIES: '-1' })).toThrow(/JWT_CACHE_ENTRIES/)
  })
})
