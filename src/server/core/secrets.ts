import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'
import { OWASP_SCRYPT_COST, type ScryptCost } from '../config'

/**
 * Password hashes: `scrypt$N$r$p$salt$hash` (base64). The parameters travel with each hash, so hashes made with an
 * older, cheaper cost (N=2^14 before the accounts hardening) still verify, and `needsRehash` tells sign-in to replace them.
 */
const KEYLEN = 32
/** Bounds on parameters read back from a stored hash: a corrupt row must not make one sign-in take gigabytes. */
const MAX_N = 2 ** 20
const MAX_R = 32
const MAX_P = 16

function scryptAsync(password: string, salt: Buffer, { N, r, p }: ScryptCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (plus a little); Node refuses past `maxmem` (32 MiB by default, too small for 2^17).
  const maxmem = 128 * N * r * p + 1024 * 1024
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$')
}

interface ParsedHash {
  cost: ScryptCost
  salt: Buffer
  key: Buffer
}

function parseHash(stored: string): ParsedHash | undefined {
  const [scheme, n, r, p, saltB64, keyB64, ...rest] = stored.split('$')
  if (scheme !== 'scrypt' || !saltB64 || !keyB64 || rest.length) return undefined
  const cost = { N: Number(n), r: Number(r), p: Number(p) }
  const powerOfTwo = Number.isInteger(cost.N) && cost.N > 1 && (cost.N & (cost.N - 1)) === 0
  if (!powerOfTwo || cost.N > MAX_N) return undefined
  if (!Number.isInteger(cost.r) || cost.r < 1 || cost.r > MAX_R) return undefined
  if (!Number.isInteger(cost.p) || cost.p < 1 || cost.p > MAX_P) return undefined
  return { cost, salt: Buffer.from(saltB64, 'base64'), key: Buffer.from(keyB64, 'base64') }
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const actual = await scryptAsync(password, parsed.salt, parsed.cost)
  return actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key)
}

/** Whether a stored hash is weaker than `cost` in any parameter (sign-in then stores a new hash of the password). */
export function needsRehash(stored: string, cost: ScryptCost): boolean {
  const parsed = parseHash(stored)
  return !parsed || parsed.cost.N < cost.N || parsed.cost.r < cost.r || parsed.cost.p < cost.p
}

const dummyHashes = new Map<string, Promise<string>>()
/**
 * A hash to verify against when the e-mail is unknown, made with the same cost as new hashes, so an unknown
 * e-mail and a wrong password cost the same scrypt work.
 */
export function dummyPasswordHash(cost: ScryptCost = OWASP_SCRYPT_COST): Promise<string> {
  const key = `${cost.N}$${cost.r}$${cost.p}`
  let hash = dummyHashes.get(key)
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString('hex'), cost)
    dummyHashes.set(key, hash)
  }
  return hash
}

/** Session tokens and access tokens are stored only as this hash and looked up by it. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/**
 * Personal access token in the platform's format, `sbp_` + 40 lowercase hex characters (tools such as the CLI check
 * it). Tokens of the earlier `kpat_` + 40 hex format stay valid: tokens are looked up by their hash, whatever the format.
 */
export function newAccessToken(): { token: string; alias: string } {
  const token = `sbp_${randomBytes(20).toString('hex')}`
  return { token, alias: `${token.slice(0, 8)}…${token.slice(-4)}` }
}

/** The shapes a personal access token can have (today's and the earlier one); anything else is not looked up. */
export const ACCESS_TOKEN_PATTERN = /^(?:sbp_|kpat_)[0-9a-f]{40}$/

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
/** Project refs: 20 random lowercase letters. */
export function newProjectRef(): string {
  let ref = ''
  for (let i = 0; i < 20; i++) ref += LETTERS[randomInt(26)]
  return ref
}
