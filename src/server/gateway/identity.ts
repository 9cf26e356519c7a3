/**
 * Who a request to a project's API is: the `apikey` header and/or `Authorization: Bearer <jwt>`, each a JWT that must
 * verify (HS256, jose: its signature check is constant-time) with the project's CURRENT secret — so after a rotation
 * the old keys and every user token signed with the old secret are refused. The role claim (anon, authenticated,
 * service_role) is the database role the request runs as; the claims go to `request.jwt.claims`. A token carrying
 * another project's ref is refused even if the secrets happened to match. No secret ever reaches a message.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { LRUCache } from 'lru-cache'
import { API_ROLES, type DbRole } from '../projectdb/types'

export interface Caller {
  role: DbRole
  claims: Record<string, unknown>
  /** The bearer token as sent (a user's access token for the auth service's /user), when there was one. */
  bearer?: string
}

/**
 * Why the gateway refused a request. Each product answers it in its own error shape (PostgREST's PGRST codes,
 * the auth service's `{code, error_code, msg}`, storage's `{statusCode, error, message}` …).
 */
export type RefusalReason =
  | 'project_not_found'
  | 'project_unavailable'
  | 'no_key'
  | 'bad_authorization_header'
  | 'invalid_token'
  | 'token_expired'
  | 'other_project'
  | 'bad_role'
  | 'no_secret'

export class GatewayRefusal extends Error {
  readonly status: 401 | 404 | 503
  readonly reason: RefusalReason
  readonly details: string | null
  readonly hint: string | null
  /** WWW-Authenticate on 401s. */
  readonly headers: Record<string, string>
  constructor(status: 401 | 404 | 503, reason: RefusalReason, message: string, opts: { details?: string; hint?: string } = {}) {
    super(message)
    this.name = 'GatewayRefusal'
    this.status = status
    this.reason = reason
    this.details = opts.details ?? null
    this.hint = opts.hint ?? null
    this.headers =
      status === 401 ? { 'www-authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"` } : {}
  }
}

const unauthorized = (reason: RefusalReason, message: string, hint?: string) =>
  new GatewayRefusal(401, reason, message, { hint })

/**
 * Tokens that verified, each with the secret it verified with: an app sends the same anon key on every request and a
 * signed-in user the same access token for its hour, and checking the signature again (an HMAC through WebCrypto, a
 * key import and two hops to the thread pool) cost more than the rest of the gateway. A hit is a token string
 * identical, signature included, to one that verified with this very secret: a rotation (another secret) finds
 * nothing, a forged or altered token is another string. Its time claims are checked again at every use, against the
 * request's `now`, as the verification would. Bounded: the least recently used goes first. Refused tokens are never
 * kept, so a stream of bad tokens cannot push the good ones out faster than any other traffic.
 */
export class VerifiedTokens {
  private readonly entries: LRUCache<string, { secret: string; payload: JWTPayload }> | undefined

  /** `max` 0: no cache, every token verified at every use. */
  constructor(readonly max: number) {
    this.entries = max > 0 ? new LRUCache({ max }) : undefined
  }

  get size(): number {
    return this.entries?.size ?? 0
  }

  /** The claims of `token` when it verified with `secret` before and its time claims still hold at `now`. */
  get(token: string, secret: string, now: Date): JWTPayload | undefined {
    const entry = this.entries?.get(token)
    if (!entry || entry.secret !== secret) return undefined
    // jose's checks (no clock tolerance): expired at exp, not yet valid before nbf.
    const nowS = Math.floor(now.getTime() / 1000)
    const { exp, nbf } = entry.payload
    if ((typeof exp === 'number' && exp <= nowS) || (typeof nbf === 'number' && nbf > nowS)) {
      this.entries!.delete(token)
      return undefined
    }
    return entry.payload
  }

  set(token: string, secret: string, payload: JWTPayload): void {
    // One object shared by every request that sends the token: nothing may change it.
    this.entries?.set(token, { secret, payload: deepFreeze(payload) })
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

async function verify(token: string, secret: string, ref: string, now: Date, cache: VerifiedTokens | undefined): Promise<JWTPayload> {
  let payload: JWTPayload | undefined = cache?.get(token, secret, now)
  try {
    if (!payload) {
      ;({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: now }))
      cache?.set(token, secret, payload)
    }
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'JWT expired')
    throw unauthorized(
      'invalid_token',
      "Invalid JWT: its signature does not match this project's JWT secret, or it is malformed",
      "Use a key from the project's API settings; keys signed with a previous JWT secret stop working when it is rotated",
    )
  }
  if (payload.ref !== undefined && payload.ref !== ref) {
    throw unauthorized('other_project', 'Invalid JWT: the key belongs to another project')
  }
  return payload
}

/**
 * The credentials a request carries: the `apikey` and `Authorization` headers and, for a product that takes it there
 * (`keyInQuery`), the `apikey` query parameter. A browser cannot set headers on a WebSocket upgrade, so realtime-js
 * sends its key in the URL; the header wins when both are sent. The key is still verified as any other (identify).
 */
export function credentialsOf(
  header: (name: string) => string | undefined,
  url: URL,
  keyInQuery = false,
): { apikey?: string; authorization?: string } {
  const apikey = header('apikey') ?? (keyInQuery ? (url.searchParams.get('apikey') ?? undefined) : undefined)
  return { apikey, authorization: header('authorization') }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

/**
 * The caller of a request from its credentials, given the project's current JWT secret (undefined: the project has
 * no keys yet, so nothing can be authorized). Undefined when the request carries no credential at all and
 * `optional`: the product decides what an anonymous request may do (a public storage object, a function that does
 * not verify JWTs). `now` is the time a token's `exp` and `nbf` are checked against: the gateway gives its clock's
 * (deps.clock), the one the platform's tokens are signed with, so both agree under a test's clock too. `cache`: the
 * tokens verified before, which skip the signature check.
 */
export async function identify(
  credentials: { apikey?: string; authorization?: string },
  secret: string | undefined,
  ref: string,
  optional = false,
  now: Date = new Date(),
  cache?: VerifiedTokens,
): Promise<Caller | undefined> {
  const apikey = credentials.apikey?.trim() || undefined
  let bearer: string | undefined
  if (credentials.authorization !== undefined) {
    const m = BEARER.exec(credentials.authorization)
    if (!m) throw unauthorized('bad_authorization_header', 'The Authorization header must be "Bearer <JWT>"')
    bearer = m[1]
  }
  if (apikey === undefined && bearer === undefined) {
    if (optional) return undefined
    throw unauthorized(
      'no_key',
      'No API key found in request',
      "Send the project's anon or service_role key in the apikey header (or Authorization: Bearer)",
    )
  }
  if (secret === undefined) throw unauthorized('no_secret', 'The project has no JWT secret yet: it is still being set up')
  // The platform's gateway checks the apikey (a key of this project), then the product checks the bearer token's
  // role. Both are verified even when they are the same token: no comparison of tokens needed.
  const fromApikey = apikey !== undefined ? await verify(apikey, secret, ref, now, cache) : undefined
  const payload = bearer !== undefined ? await verify(bearer, secret, ref, now, cache) : (fromApikey as JWTPayload)
  const role = payload.role
  if (typeof role !== 'string' || !(API_ROLES as readonly string[]).includes(role)) {
    throw unauthorized('bad_role', `The JWT's role claim must be one of ${API_ROLES.join(', ')}`)
  }
  return { role: role as DbRole, claims: payload as Record<string, unknown>, bearer }
}
