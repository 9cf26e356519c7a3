/**
 * The auth service's admin API, for the service_role key only: POST /invite, and the users under /admin/users
 * (list with paging headers as auth-js reads them, create, read, change, ban, delete) and /admin/generate_link (a
 * link and code handed back rather than e-mailed).
 */
import type { Hono } from 'hono'
import type { GatewayEnv } from '../../gateway'
import { authError } from './errors'
import type { Mail } from './mail'
import { body, optionalObject, optionalString, requireAdmin, type AuthService, type C } from './service'
import * as store from './store'
import { HOUR } from './throttle'
import { checkPassword, hashPassword, normaliseEmail, userJson, withIdentities, type UserJson } from './users'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const userIdParam = (c: C) => {
  const id = c.req.param('id') ?? ''
  if (!UUID.test(id)) throw authError(404, 'user_not_found', 'User not found')
  return id.toLowerCase()
}

const emailTaken = () => authError(422, 'email_exists', 'A user with this email address has already been registered')
const userNotFound = () => authError(404, 'user_not_found', 'User not found')

export function adminRoutes(app: Hono<GatewayEnv>, s: AuthService) {
  const { clock } = s

  app.post('/invite', async (c) => {
    requireAdmin(c)
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const redirectTo = c.req.query('redirect_to')
    const user = await s.tx(c, async (t) => {
      const existing = await store.userByEmail(t, email)
      if (existing?.email_confirmed_at) throw emailTaken()
      const now = clock.now()
      const user = existing ?? (await store.insertUser(t, { email, passwordHash: null, confirmedAt: null, userMeta: data, invitedAt: now, now }))
      await store.markInvited(t, user.id, now)
      await store.audit(t, 'user_invited', user, s.ip(c), now)
      await s.mailToken(c, t, settings, user, 'invite', redirectTo)
      return withIdentities(t, (await store.userById(t, user.id))!)
    })
    return c.json(user)
  })

  app.use('/admin/*', async (c, next) => {
    requireAdmin(c)
    await next()
  })

  app.get('/admin/users', async (c) => {
    const page = Number(c.req.query('page') || '1')
    const perPage = Number(c.req.query('per_page') || '50')
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
      throw authError(400, 'validation_failed', 'page must be a positive integer and per_page an integer from 1 to 1000')
    }
    const filter = (c.req.query('filter') ?? '').trim().toLowerCase()
    const { users, total } = await s.tx(c, async (t) => {
      const { rows, total } = await store.listUsers(t, { limit: perPage, offset: (page - 1) * perPage, filter })
      // One query for the page's identities, not one per user.
      const identities = await store.identitiesOfUsers(t, rows.map((row) => row.id))
      const users: UserJson[] = rows.map((row) => userJson(row, identities.get(row.id) ?? []))
      return { users, total }
    })
    const last = Math.max(1, Math.ceil(total / perPage))
    const links: string[] = []
    if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`)
    links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`)
    c.header('x-total-count', String(total))
    c.header('link', links.join(', '))
    return c.json({ aud: 'authenticated', users })
  })

  app.post('/admin/users', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    if (b.phone !== undefined && b.email === undefined) throw authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
    const email = normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings)
    const hash = password === undefined ? null : await hashPassword(password)
    const userMeta = optionalObject(b.user_metadata, 'user_metadata')
    const appMeta = optionalObject(b.app_metadata, 'app_metadata')
    const user = await s.tx(c, async (t) => {
      if (await store.userByEmail(t, email)) throw emailTaken()
      const now = clock.now()
      const user = await store.insertUser(t, { email, passwordHash: hash, confirmedAt: b.email_confirm === true ? now : null, userMeta, appMeta, now })
      await store.audit(t, 'user_signedup', user, s.ip(c), now, { provider: 'email' })
      return withIdentities(t, user)
    })
    return c.json(user)
  })

  app.get('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    const user = await s.tx(c, async (t) => {
      const row = await store.userById(t, id)
      if (!row) throw userNotFound()
      return withIdentities(t, row)
    })
    return c.json(user)
  })

  app.put('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const email = b.email === undefined ? undefined : normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings)
    const hash = password === undefined ? undefined : await hashPassword(password)
    const userMeta = optionalObject(b.user_metadata, 'user_metadata')
    const appMeta = optionalObject(b.app_metadata, 'app_metadata')
    const ban = optionalString(b.ban_duration, 'ban_duration')
    let bannedUntil: Date | null | undefined
    if (ban !== undefined) {
      if (ban === 'none') bannedUntil = null
      else {
        const m = /^(\d+)h$/.exec(ban)
        if (!m) throw authError(400, 'validation_failed', 'ban_duration must be "none" or a number of hours such as "24h"')
        bannedUntil = new Date(clock.now().getTime() + Number(m[1]) * HOUR)
      }
    }
    const user = await s.tx(c, async (t) => {
      const row = await store.userById(t, id)
      if (!row) throw userNotFound()
      const now = clock.now()
      if (email && email !== row.email) {
        if (await store.userByEmail(t, email)) throw emailTaken()
        await store.setEmail(t, id, email, now)
      }
      if (hash) await store.setPassword(t, id, hash, now)
      if (b.email_confirm === true) await store.confirmEmail(t, id, now)
      if (userMeta) await store.mergeMetadata(t, id, 'user', userMeta, now)
      if (appMeta) await store.mergeMetadata(t, id, 'app', appMeta, now)
      if (bannedUntil !== undefined) {
        await store.setBannedUntil(t, id, bannedUntil, now)
        if (bannedUntil) await store.deleteSessions(t, id)
      }
      return withIdentities(t, (await store.userById(t, id))!)
    })
    return c.json(user)
  })

  app.delete('/admin/users/:id', async (c) => {
    const id = userIdParam(c)
    await s.tx(c, async (t) => {
      const row = await store.userById(t, id)
      if (!row) throw userNotFound()
      await store.deleteUser(t, id)
      await store.audit(t, 'user_deleted', { id, email: row.email }, s.ip(c), clock.now())
    })
    return c.json({})
  })

  app.post('/admin/generate_link', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const type = optionalString(b.type, 'type')
    const email = normaliseEmail(b.email)
    const data = optionalObject(b.data, 'data')
    const redirectTo = optionalString(b.redirect_to, 'redirect_to') ?? c.req.query('redirect_to')
    const kinds: Record<string, Mail['kind']> = { signup: 'confirmation', invite: 'invite', magiclink: 'magiclink', recovery: 'recovery', email_change_new: 'email_change' }
    if (!type || !kinds[type]) throw authError(400, 'validation_failed', 'Invalid link type: one of signup, invite, magiclink, recovery, email_change_new')
    const newEmail = type === 'email_change_new' ? normaliseEmail(b.new_email) : undefined
    const password = type === 'signup' ? checkPassword(b.password, settings) : undefined
    const hash = password === undefined ? null : await hashPassword(password)
    const result = await s.tx(c, async (t) => {
      const now = clock.now()
      let user = await store.userByEmail(t, email)
      if (type === 'signup' || type === 'invite') {
        if (user?.email_confirmed_at) throw emailTaken()
        user ??= await store.insertUser(t, { email, passwordHash: hash, confirmedAt: null, userMeta: data, invitedAt: type === 'invite' ? now : null, now })
      }
      if (!user) throw authError(404, 'user_not_found', 'User with this email not found')
      const kind = type === 'magiclink' && !user.email_confirmed_at ? 'confirmation' : kinds[type]
      const link = await s.setToken(c, t, settings, user, kind, redirectTo, newEmail ?? user.email ?? '')
      return { user: await withIdentities(t, (await store.userById(t, user.id))!), link }
    })
    return c.json({
      ...result.user,
      action_link: result.link.link,
      email_otp: result.link.otp,
      hashed_token: result.link.hash,
      verification_type: result.link.type,
      redirect_to: result.link.target,
    })
  })
}
