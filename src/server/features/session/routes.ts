/**
 * Session and profile: health and sign-in/out (no session needed), the profile, the permissions derived from each
 * membership's role, and personal access tokens.
 */
import { Hono } from 'hono'
import * as z from 'zod'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { permissionsFor } from '../../core/permissions'
import type { AccountRow } from '../../core/rows'
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../core/secrets'
import { listMemberOrganizations } from '../organizations/access'
import { clearSignInFailures, clientAddress, countSignInAttempt } from './throttle'
import { createAccessToken, createSession, deleteSession, setSessionCookie } from './auth'
import { deleteAccessToken, findAccountForSignIn, listAccessTokens, replacePasswordHash, toAccessToken } from './store'

const TokenIdParam = z.object({ id: z.coerce.number().int().positive('Token id must be a positive number') })

const profileOf = (a: AccountRow) => ({ id: a.id, username: a.username, primary_email: a.primary_email })

/** Routes that need no session; the app mounts them before the session middleware. */
export function publicSessionRoutes({ db, clock, config }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.health), (c) => c.json({ ok: true as const }))

  app.on(...at(endpoints.signIn), validate('json', endpoints.signIn.body), async (c) => {
    const { email, password } = c.req.valid('json')
    const attempt = { email, address: clientAddress(c, config.trustProxy) }
    const retryAfter = await countSignInAttempt(db, config.signInThrottle, attempt, clock.now())
    if (retryAfter !== undefined) {
      c.header('Retry-After', String(retryAfter))
      const minutes = Math.ceil(retryAfter / 60)
      return errorJson(c, 429, `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)
    }
    const account = await findAccountForSignIn(db, email)
    // The scrypt work is done for unknown e-mails too, with the same cost as new hashes, so timing tells nothing.
    const cost = config.passwordHashCost
    const ok = await verifyPassword(password, account?.password_hash ?? (await dummyPasswordHash(cost)))
    if (!account || !ok) return errorJson(c, 401, 'Invalid email or password')
    await clearSignInFailures(db, attempt)
    if (needsRehash(account.password_hash, cost)) {
      // A hash made with a cheaper cost (by an older version of the platform): replace it now that the password is at hand. The guard on
      // the old value keeps a concurrent password change from being overwritten.
      await replacePasswordHash(db, account.id, account.password_hash, await hashPassword(password, cost))
    }
    const token = await createSession(db, account.id, clock.now(), config.sessionTtlMs)
    setSessionCookie(c, token, config.sessionTtlMs, { trustProxy: config.trustProxy })
    c.header('Cache-Control', 'no-store') // the answer sets the session token
    return c.json(profileOf(account))
  })

  app.on(...at(endpoints.signOut), async (c) => {
    await deleteSession(c, db)
    return c.body(null, 204)
  })

  return app
}

/** Routes behind the session (the app installs the middleware before mounting these). */
export function sessionRoutes({ db, clock, config }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.getProfile), (c) => c.json(profileOf(c.get('account'))))

  app.on(...at(endpoints.getPermissions), async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(
      orgs.map((o) => ({
        organization_id: o.id,
        organization_slug: o.slug,
        role: o.role,
        permissions: permissionsFor(o.role),
      })),
    )
  })

  app.on(...at(endpoints.listAccessTokens), async (c) => {
    return c.json((await listAccessTokens(db, c.get('account').id)).map(toAccessToken))
  })

  app.on(...at(endpoints.createAccessToken), validate('json', endpoints.createAccessToken.body), async (c) => {
    const { name, expires_in_days } = c.req.valid('json')
    // No token lives forever: one asked without an expiry gets ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS.
    const days = expires_in_days ?? config.accessTokenDefaultExpiryDays
    const created = await createAccessToken(db, c.get('account').id, name, clock.now(), days)
    c.header('Cache-Control', 'no-store') // the only answer that carries the token's value
    return c.json(created, 201)
  })

  app.on(...at(endpoints.revokeAccessToken), validate('param', TokenIdParam), async (c) => {
    if (!(await deleteAccessToken(db, c.req.valid('param').id, c.get('account').id))) return errorJson(c, 404, 'Access token not found')
    return c.body(null, 204)
  })

  return app
}
