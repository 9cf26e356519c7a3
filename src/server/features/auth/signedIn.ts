/**
 * The signed-in user's own endpoints: GET and PUT /user (metadata, password, a new e-mail confirmed by a link sent
 * to it) and POST /logout (this session, the others, or all of them).
 */
import type { Hono } from 'hono'
import type { GatewayEnv } from '../../gateway'
import { authError } from './errors'
import { body, optionalObject, type AuthService } from './service'
import { phoneFlows } from './phone'
import * as store from './store'
import { checkPassword, hashPassword, normaliseEmail, withIdentities } from './users'

export function signedInRoutes(app: Hono<GatewayEnv>, s: AuthService) {
  const { clock } = s
  const phone = phoneFlows(s)

  app.get('/user', async (c) => {
    const user = await s.tx(c, async (t) => withIdentities(t, (await s.currentUser(c, t)).user))
    return c.json(user)
  })

  app.put('/user', async (c) => {
    const settings = await s.settingsOf(c)
    const b = await body(c)
    const data = optionalObject(b.data, 'data')
    const newEmail = b.email === undefined ? undefined : normaliseEmail(b.email)
    const password = b.password === undefined ? undefined : checkPassword(b.password, settings)
    const hash = password === undefined ? undefined : await hashPassword(password)
    const redirectTo = c.req.query('redirect_to')
    const user = await s.tx(c, async (t) => {
      const { user } = await s.currentUser(c, t)
      const now = clock.now()
      if (data) await store.mergeMetadata(t, user.id, 'user', data, now)
      if (hash) {
        await store.setPassword(t, user.id, hash, now)
        await store.audit(t, 'user_updated_password', user, s.ip(c), now)
      }
      if (newEmail && newEmail !== user.email) {
        const taken = await store.userByEmail(t, newEmail)
        if (taken) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
        await s.mailToken(c, t, settings, user, 'email_change', redirectTo, newEmail)
      }
      if (b.phone !== undefined) await phone.requestChange(c, t, settings, user, b.phone)
      return withIdentities(t, (await store.userById(t, user.id))!)
    })
    return c.json(user)
  })

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global'
    if (!['global', 'local', 'others'].includes(scope)) throw authError(400, 'validation_failed', 'Unsupported logout scope')
    await s.tx(c, async (t) => {
      const { user, sessionId } = await s.currentUser(c, t)
      if (scope === 'global' || !sessionId) await store.deleteSessions(t, user.id)
      else if (scope === 'local') await store.deleteSession(t, sessionId)
      else await store.deleteSessions(t, user.id, sessionId)
      await store.audit(t, 'logout', user, s.ip(c), clock.now())
    })
    return c.body(null, 204)
  })
}
