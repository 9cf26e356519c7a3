/**
 * E-mail of the auth service. With SMTP set in the server config (SMTP_URL), real SMTP through nodemailer; without
 * it, every message goes to the project's local mailbox in the store (the last 200 kept), which the dashboard shows.
 * Links in messages are built on the project URL, never on a request's Host.
 */
import nodemailer from 'nodemailer'
import type { Queryable } from '../../db'
import type { SmtpConfig } from '../../config'
import { keepMail, listMail, type MailboxMessage, type PhoneChannel } from './store'

export const MAILBOX_KEEP = 200

export interface Mail {
  to: string
  subject: string
  body: string
  link: string | null
  kind: 'confirmation' | 'magiclink' | 'recovery' | 'invite' | 'email_change'
}

/** A message the SMTP server did not take: what the log may say of it (never the URL's user or password). */
export class MailNotSent extends Error {
  constructor(
    readonly kind: Mail['kind'],
    /** nodemailer's code (ECONNECTION, EAUTH, EENVELOPE, ETIMEDOUT …) and the server's reply code, when it gave one. */
    readonly reason: string,
  ) {
    super(`the SMTP server did not take the message: ${reason}`)
    this.name = 'MailNotSent'
  }
}

export interface Mailer {
  send(db: Queryable, projectId: number, mail: Mail): Promise<void>
}

/** The mailer of a server config: its SMTP server, or each project's local mailbox. */
export function createMailer(smtp: SmtpConfig | undefined): Mailer {
  if (!smtp) return { send: (db, projectId, mail) => keepMail(db, projectId, mail, MAILBOX_KEEP).then(() => undefined) }
  const transport = nodemailer.createTransport({
    host: smtp.host,
    ...(smtp.port ? { port: smtp.port } : {}),
    secure: smtp.secure,
    ...(smtp.auth ? { auth: smtp.auth } : {}),
    // Each phase bounded too, so a server that stops answering frees its socket when the delivery gives up.
    connectionTimeout: smtp.timeoutMs,
    greetingTimeout: smtp.timeoutMs,
    socketTimeout: smtp.timeoutMs,
  })
  return {
    async send(_db, _projectId, mail) {
      try {
        await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.body, signal: AbortSignal.timeout(smtp.timeoutMs) })
      } catch (err) {
        const e = err as { code?: unknown; responseCode?: unknown; name?: unknown }
        const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error'
        throw new MailNotSent(mail.kind, typeof e.responseCode === 'number' ? `${code} ${e.responseCode}` : code)
      }
    },
  }
}

/**
 * A message to a phone, by text message or WhatsApp (the caller's `channel`). There is no messaging provider here:
 * every one goes to the project's local mailbox, kept with the e-mails under its channel.
 */
export async function sendSms(
  db: Queryable,
  projectId: number,
  sms: { to: string; body: string; kind: 'sms_otp' | 'phone_confirmation' | 'phone_change'; channel?: PhoneChannel },
): Promise<void> {
  const channel = sms.channel ?? 'sms'
  const subject = channel === 'whatsapp' ? 'WhatsApp message' : 'Text message'
  await keepMail(db, projectId, { to: sms.to, subject, body: sms.body, link: null, kind: sms.kind, channel }, MAILBOX_KEEP)
}

export const readMailbox = (db: Queryable, projectId: number, limit = MAILBOX_KEEP): Promise<MailboxMessage[]> => listMail(db, projectId, limit)

const SUBJECTS: Record<Mail['kind'], string> = {
  confirmation: 'Confirm Your Signup',
  magiclink: 'Your Magic Link',
  recovery: 'Reset Your Password',
  invite: 'You have been invited',
  email_change: 'Confirm Email Change',
}

/** The message for a link and its six-digit code. */
export function composeMail(kind: Mail['kind'], to: string, link: string, otp: string): Mail {
  const what: Record<Mail['kind'], string> = {
    confirmation: 'Follow this link to confirm your user:',
    magiclink: 'Follow this link to login:',
    recovery: 'Follow this link to reset the password for your user:',
    invite: 'You have been invited to create a user. Follow this link to accept the invite:',
    email_change: 'Follow this link to confirm the update of your email:',
  }
  return { to, subject: SUBJECTS[kind], kind, link, body: `${what[kind]}\n\n${link}\n\nAlternatively, enter the code: ${otp}\n` }
}
