/**
 * The project's database password as PostgreSQL keeps one: a SCRAM-SHA-256 verifier (RFC 5803,
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`), from which the password cannot be read back. The
 * port checks a client's proof against StoredKey in constant time.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { SCRAM_ITERATIONS as ITERATIONS } from '../../projectdb/password'

export interface ScramData {
  /** base64 */
  salt: string
  iterations: number
  /** base64 */
  storedKey: string
  /** base64 */
  serverKey: string
}

const VERIFIER = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/

export function parseVerifier(verifier: string): ScramData | undefined {
  const m = VERIFIER.exec(verifier)
  if (!m) return undefined
  return { iterations: Number(m[1]), salt: m[2], storedKey: m[3], serverKey: m[4] }
}

/**
 * A fake verifier's data for a user with no password (or no project): the exchange goes on to fail at the proof,
 * as PostgreSQL does, so the answer does not tell whether the user exists. Stable per name within the process.
 */
const mockKey = randomBytes(32)
export function mockScramData(user: string): ScramData {
  const h = (what: string) => createHmac('sha256', mockKey).update(`${what}\0${user}`).digest()
  return { iterations: ITERATIONS, salt: h('salt').subarray(0, 16).toString('base64'), storedKey: h('stored').toString('base64'), serverKey: h('server').toString('base64') }
}

/**
 * RFC 5802: ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage); the proof holds when H(ClientKey) = StoredKey.
 */
export function proofHolds(authMessage: string, clientProof: string, storedKey: string): boolean {
  const stored = Buffer.from(storedKey, 'base64')
  const proof = Buffer.from(clientProof, 'base64')
  if (proof.length !== 32 || stored.length !== 32) return false
  const signature = createHmac('sha256', stored).update(authMessage).digest()
  const clientKey = Buffer.alloc(32)
  for (let i = 0; i < 32; i++) clientKey[i] = proof[i] ^ signature[i]
  return timingSafeEqual(createHash('sha256').update(clientKey).digest(), stored)
}
