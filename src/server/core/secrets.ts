import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'

/** Password hashes: `scrypt$N$r$p$salt$hash` (base64). */
const N = 16_384
const R = 8
const P = 1
const KEYLEN = 32

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, N, R, P)
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$')
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) return false
  const expected = Buffer.from(keyB64, 'base64')
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

let dummyHash: Promise<string> | undefined
/** A hash to verify against when the e-mail is unknown, so both failures cost the same. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  return dummyHash
}

/** Session tokens and access tokens are stored only as this hash and looked up by it. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** Personal access token: `kpat_` + 40 hex characters. */
export function newAccessToken(): { token: string; alias: string } {
  const token = `kpat_${randomBytes(20).toString('hex')}`
  return { token, alias: `${token.slice(0, 9)}…${token.slice(-4)}` }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
/** Project refs: 20 random lowercase letters. */
export function newProjectRef(): string {
  let ref = ''
  for (let i = 0; i < 20; i++) ref += LETTERS[randomInt(26)]
  return ref
}
