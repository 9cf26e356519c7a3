/**
 * Who a REST request is: the `apikey` header and/or `Authorization: Bearer <jwt>`, each a JWT that must verify
 * (HS256, jose: its signature check is constant-time) with the project's CURRENT secret — so after a rotation the
 * old keys are refused. The role claim (anon, authenticated, service_role) is the role the request runs as; the
 * claims go to `request.jwt.claims`. A key carrying another project's ref is refused even if the secrets happened
 * to match. Every refusal is a 401 in PostgREST's shape, with WWW-Authenticate; no secret ever reaches a message.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { API_ROLES, type DbRole } from '../../projectdb/types'
import { RestError } from './errors'

export interface RestIdentity {
  role: DbRole
  claims: Record<string, unknown>
}

function unauthorized(code: string, message: string, hint?: string): RestError {
  return new RestError(401, code, message, {
    hint,
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"` },
  })
}

async function verify(token: string, secret: Uint8Array, ref: string): Promise<JWTPayload> {
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }))
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized('PGRST303', 'JWT expired')
    throw unauthorized('PGRST301', 'Invalid JWT: its signature does not match this project\'s JWT secret, or it is malformed', 'Use a key from the project\'s API settings; keys signed with a previous JWT secret stop working when it is rotated')
  }
  if (payload.ref !== undefined && payload.ref !== ref) {
    throw unauthorized('PGRST301', 'Invalid JWT: the key belongs to another project')
  }
  return payload
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

/**
 * The identity of a request from its headers, given the project's current JWT secret (undefined: the project
 * has no keys yet, so nothing can be authorized).
 */
export async function identify(
  headers: { apikey?: string; authorization?: string },
  secret: string | undefined,
  ref: string,
): Promise<RestIdentity> {
  const apikey = headers.apikey?.trim() || undefined
  let bearer: string | undefined
  if (headers.authorization !== undefined) {
    const m = BEARER.exec(headers.authorization)
    if (!m) throw unauthorized('PGRST301', 'The Authorization header must be "Bearer <JWT>"')
    bearer = m[1]
  }
  if (apikey === undefined && bearer === undefined) {
    throw unauthorized('PGRST302', 'No API key found in request', 'Send the project\'s anon or service_role key in the apikey header (or Authorization: Bearer)')
  }
  if (secret === undefined) throw unauthorized('PGRST300', 'The project has no JWT secret yet: it is still being set up')
  const key = new TextEncoder().encode(secret)
  // The gateway's check (the apikey is a key of this project), then PostgREST's (the bearer token's role). Both
  // are verified even when they are the same token: no comparison of tokens needed.
  const fromApikey = apikey !== undefined ? await verify(apikey, key, ref) : undefined
  const payload = bearer !== undefined ? await verify(bearer, key, ref) : (fromApikey as JWTPayload)
  const role = payload.role
  if (typeof role !== 'string' || !(API_ROLES as readonly string[]).includes(role)) {
    throw unauthorized('PGRST303', `The JWT's role claim must be one of ${API_ROLES.join(', ')}`)
  }
  return { role: role as DbRole, claims: payload as Record<string, unknown> }
}
