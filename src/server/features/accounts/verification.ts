/**
 * E-mail verification: an account proves it receives mail at its primary e-mail by opening a link sent there. An
 * invitation is accepted only by a verified address (features/members), so signing up with someone else's address
 * gains nothing.
 *   POST /platform/profile/email-verification   a new link for the signed-in account (at most one a minute)
 *   GET  /platform/auth/verify-email?token=…     the link: marks the address verified, redirects to the dashboard
 * Sign-up sends the first link. No SMTP exists yet: the link is printed as one line on the server's standard output,
 * and that line carries nothing but the link (its one-time secret, never a password or another token).
 * The link carries `<account id>.<secret>`; only the secret's SHA-256 is kept, compared in constant time, valid for
 * VERIFICATION_TTL_MS, once, and only while the account's primary e-mail is still the address it was sent to.
 */
import { timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import { routeOf } from '../../../contracts/endpoint'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, emptyBody, errorJson, validate, type AppEnv, type OwnUrl } from '../../core/http'
import { randomToken, sha256 } from '../../core/secrets'
import type { Queryable } from '../../db'
import { lockVerification, lockVerificationState, markVerified, upsertVerification } from './store'

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000
/** A new link is sent at most this often per account: the log (later a mailbox) is not a channel to flood. */
export const RESEND_INTERVAL_MS = 60 * 1000

export const VERIFICATION_MESSAGES = {
  invalid: 'This verification link is not valid. Ask for a new one from the page that sent you.',
  expired: 'This verification link has expired. Ask for a new one.',
  alreadyVerified: 'Your e-mail address is already verified',
} as const

/** Where the link goes: no SMTP yet, so one line on standard output. */
export type DeliverLink = (link: string) => void
export const printLink: DeliverLink = (link) => console.log(`E-mail verification link: ${link}`)

/**
 * Makes the account's verification link (replacing any earlier one) in the caller's transaction; returns the link,
 * which the caller delivers once its transaction has committed.
 */
export async function newVerificationLink(tx: Queryable, own: OwnUrl, account: { id: number; primary_email: string }, now: Date): Promise<string> {
  const secret = randomToken()
  await upsertVerification(tx, {
    accountId: account.id,
    email: account.primary_email,
    secretHash: sha256(secret),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS).toISOString(),
  })
  const query = new URLSearchParams({ token: `${account.id}.${secret}` })
  return `${baseUrl(own)}${routeOf(endpoints.verifyEmail)}?${query}`
}

const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8')
  const y = Buffer.from(b, 'utf8')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The link's answer (no session): the address verified and a redirect to the dashboard, or a clear 4xx. */
export function publicVerificationRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.verifyEmail), validate('query', endpoints.verifyEmail.query), async (c) => {
    const [idText, secret] = c.req.valid('query').token.split('.')
    const now = clock.now()
    const outcome = await db.transaction(async (tx): Promise<'ok' | 'invalid' | 'expired'> => {
      const row = await lockVerification(tx, Number(idText))
      const matches = sameHash(sha256(secret), row?.secret_hash ?? sha256(''))
      if (!row || !matches || row.email !== row.primary_email) return 'invalid'
      if (new Date(row.expires_at).getTime() <= now.getTime()) return 'expired'
      await markVerified(tx, Number(idText), now.toISOString())
      return 'ok'
    })
    if (outcome === 'invalid') return errorJson(c, 404, VERIFICATION_MESSAGES.invalid)
    if (outcome === 'expired') return errorJson(c, 410, VERIFICATION_MESSAGES.expired)
    c.header('Cache-Control', 'no-store')
    return c.redirect('/projects', 303)
  })

  return app
}

/** A new link for the signed-in account (behind the session). */
export function verificationRoutes({ db, clock, ownUrl }: Deps, deliver: DeliverLink = printLink) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.sendEmailVerification), emptyBody, async (c) => {
    const me = c.get('account')
    const now = clock.now()
    const outcome = await db.transaction(async (tx): Promise<{ link: string } | { verified: true } | { waitMs: number }> => {
      // The account's row locked: two requests at once cannot both pass the once-a-minute check.
      const row = await lockVerificationState(tx, me.id)
      if (row?.email_verified_at) return { verified: true }
      const since = row?.sent_at ? now.getTime() - new Date(row.sent_at).getTime() : Infinity
      if (since < RESEND_INTERVAL_MS) return { waitMs: RESEND_INTERVAL_MS - since }
      return { link: await newVerificationLink(tx, ownUrl, me, now) }
    })
    if ('verified' in outcome) return errorJson(c, 409, VERIFICATION_MESSAGES.alreadyVerified, 'email_verified')
    if ('waitMs' in outcome) {
      const seconds = Math.max(1, Math.ceil(outcome.waitMs / 1000))
      c.header('Retry-After', String(seconds))
      return errorJson(c, 429, `A verification link was sent less than a minute ago. Try again in ${seconds} seconds.`)
    }
    deliver(outcome.link)
    return c.json({ email: me.primary_email }, 202)
  })

  return app
}
