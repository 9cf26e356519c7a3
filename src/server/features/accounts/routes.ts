/**
 * Sign-up (no session) and the profile's username. Sign-up goes through the sign-in throttle (./../session/throttle:
 * the same per-e-mail and per-address counts) and its own count of sign-ups per client address, hashes the password with the same scrypt cost as sign-in, creates the
 * account, its personal free organization (the person its Owner), its e-mail verification link (verification.ts)
 * and a session, in one transaction; the link is delivered once that has committed.
 * A taken e-mail is refused with a clear 409: sign-up must say so. Sign-in keeps telling nothing (one message, the
 * same scrypt work, for a wrong password and an unknown e-mail).
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { hashPassword } from '../../core/secrets'
import { createSession, setSessionCookie } from '../session/auth'
import { clearSignInFailures, clientAddress, countSignInAttempt, countSignUp } from '../session/throttle'
import { baseNameOf, firstFree } from './names'
import { emailTaken, insertAccount, insertPersonalOrganization, takenSlugs, takenUsernames, updateUsername, type AccountRow } from './store'
import { newVerificationLink, printLink, type DeliverLink } from './verification'

export const EMAIL_TAKEN = 'An account with this e-mail address already exists. Sign in instead.'
export const USERNAME_TAKEN = 'This username is taken'

const isUniqueViolation = (err: unknown, constraint: string) =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505' &&
  String((err as { constraint?: string; message?: string }).constraint ?? (err as { message?: string }).message).includes(constraint)

/** Routes that need no session; the app mounts them before the session middleware. */
export function publicAccountRoutes({ db, clock, config, ownUrl }: Deps, deliver: DeliverLink = printLink) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.signUp), validate('json', endpoints.signUp.body), async (c) => {
    const { email, password } = c.req.valid('json')
    const attempt = { email, address: clientAddress(c, config.trustProxy) }
    const retryAfter =
      (await countSignUp(db, config.signInThrottle, attempt.address, clock.now())) ??
      (await countSignInAttempt(db, config.signInThrottle, attempt, clock.now()))
    if (retryAfter !== undefined) {
      c.header('Retry-After', String(retryAfter))
      const minutes = Math.ceil(retryAfter / 60)
      return errorJson(c, 429, `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)
    }
    if (await emailTaken(db, email)) return errorJson(c, 409, EMAIL_TAKEN, 'email_taken')
    const passwordHash = await hashPassword(password, config.passwordHashCost)
    const now = clock.now().toISOString()
    let account: AccountRow
    let link: string
    try {
      ;({ account, link } = await db.transaction(async (tx) => {
        const base = baseNameOf(email)
        const username = await firstFree((like) => takenUsernames(tx, like), base)
        const created = await insertAccount(tx, { username, email, passwordHash, now })
        const slug = await firstFree((like) => takenSlugs(tx, like), base)
        await insertPersonalOrganization(tx, { slug, name: `${username}'s Org`, ownerId: created.id, now })
        return { account: created, link: await newVerificationLink(tx, ownUrl, created, clock.now()) }
      }))
    } catch (err) {
      // Two sign-ups with one e-mail at once: the second finds the unique index.
      if (isUniqueViolation(err, 'primary_email')) return errorJson(c, 409, EMAIL_TAKEN, 'email_taken')
      throw err
    }
    deliver(link) // after the commit: a link is never sent for an account that does not exist
    await clearSignInFailures(db, attempt)
    const token = await createSession(db, account.id, clock.now(), config.sessionTtlMs)
    setSessionCookie(c, token, config.sessionTtlMs, { trustProxy: config.trustProxy })
    c.header('Cache-Control', 'no-store') // the answer sets the session token
    return c.json({ id: account.id, username: account.username, primary_email: account.primary_email }, 201)
  })

  return app
}

/** The profile's username (behind the session). */
export function accountRoutes({ db }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.updateProfile), validate('json', endpoints.updateProfile.body), async (c) => {
    const { username } = c.req.valid('json')
    const me = c.get('account')
    try {
      return c.json(await updateUsername(db, me.id, username))
    } catch (err) {
      if (isUniqueViolation(err, 'username')) return errorJson(c, 409, USERNAME_TAKEN, 'username_taken')
      throw err
    }
  })

  return app
}
