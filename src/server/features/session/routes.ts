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
import { dummyPasswordHash, verifyPassword } from '../../core/secrets'
import { listMemberOrganizations } from '../organizations/store'
import { createAccessToken, createSession, deleteSession, setSessionCookie, toAccessToken, type AccessTokenRow } from './auth'

const TokenIdParam = z.object({ id: z.coerce.number().int().positive('Token id must be a positive number') })

const profileOf = (a: AccountRow) => ({ id: a.id, username: a.username, primary_email: a.primary_email })

/** Routes that need no session; the app mounts them before the session middleware. */
export function publicSessionRoutes({ db, clock, config }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.health), (c) => c.json({ ok: true as const }))

  app.on(...at(endpoints.signIn), validate('json', endpoints.signIn.body), async (c) => {
    const { email, password } = c.req.valid('json')
    const { rows } = await db.query<AccountRow & { password_hash: string }>(
      'select id, username, primary_email, password_hash from accounts where primary_email = $1',
      [email],
    )
    const account = rows[0]
    // The scrypt work is done for unknown e-mails too, so timing tells nothing.
    const ok = await verifyPassword(password, account?.password_hash ?? (await dummyPasswordHash()))
    if (!account || !ok) return errorJson(c, 401, 'Invalid email or password')
    const token = await createSession(db, account.id, clock.now(), config.sessionTtlMs)
    setSessionCookie(c, token, config.sessionTtlMs, { trustProxy: config.trustProxy })
    return c.json(profileOf(account))
  })

  app.on(...at(endpoints.signOut), async (c) => {
    await deleteSession(c, db)
    return c.body(null, 204)
  })

  return app
}

/** Routes behind the session (the app installs the middleware before mounting these). */
export function sessionRoutes({ db, clock }: Deps) {
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
    const { rows } = await db.query<AccessTokenRow>(
      `select id, name, token_alias, created_at, last_used_at from access_tokens where account_id = $1 order by id`,
      [c.get('account').id],
    )
    return c.json(rows.map(toAccessToken))
  })

  app.on(...at(endpoints.createAccessToken), validate('json', endpoints.createAccessToken.body), async (c) => {
    const created = await createAccessToken(db, c.get('account').id, c.req.valid('json').name, clock.now())
    return c.json(created, 201)
  })

  app.on(...at(endpoints.revokeAccessToken), validate('param', TokenIdParam), async (c) => {
    const { rows } = await db.query('delete from access_tokens where id = $1 and account_id = $2 returning id', [
      c.req.valid('param').id,
      c.get('account').id,
    ])
    if (!rows.length) return errorJson(c, 404, 'Access token not found')
    return c.body(null, 204)
  })

  return app
}
