/**
 * E-mail of the auth service. With SMTP_URL set (smtp://user:pass@host:port), real SMTP through nodemailer; without
 * it, every message goes to the project's local mailbox in the store (the last 200 kept), which the dashboard shows.
 * Links in messages are built on the project URL, never on a request's Host.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import type { Queryable } from '../../db'
import { keepMail, listMail, type MailboxMessage, type PhoneChannel } from './store'

export const MAILBOX_KEEP = 200

export interface Mail {
  to: string
  subject: string
  body: string
  link: string | null
  kind: 'confirmation' | 'magiclink' | 'recovery' | 'invite' | 'email_change'
}

let transporter: Transporter | undefined
function smtp(): Transporter | undefined {
  const url = process.env.SMTP_URL
  if (!url) return undefined
  transporter ??= nodemailer.createTransport(url)
  return transporter
}

export async function sendMail(db: Queryable, projectId: number, mail: Mail): Promise<void> {
  const transport = smtp()
  if (transport) {
    await transport.sendMail({ from: process.env.SMTP_FROM ?? 'noreply@localhost', to: mail.to, subject: mail.subject, text: mail.body })
    return
  }
  await keepMail(db, projectId, mail, MAILBOX_KEEP)
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
