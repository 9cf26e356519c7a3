/**
 * E-mail of the auth service. With SMTP_URL set (smtp://user:pass@host:port), real SMTP through nodemailer; without
 * it, every message goes to the project's local mailbox in the store (the last 200 kept), which the dashboard shows.
 * Links in messages are built on the project URL, never on a request's Host.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import type { Queryable } from '../../db'

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
  await db.query(
    `insert into project_auth_mailbox (project_id, recipient, subject, body, link, kind) values ($1, $2, $3, $4, $5, $6)`,
    [projectId, mail.to, mail.subject, mail.body, mail.link, mail.kind],
  )
  await db.query(
    `delete from project_auth_mailbox where project_id = $1 and id <= (
       select id from project_auth_mailbox where project_id = $1 order by id desc offset $2 limit 1)`,
    [projectId, MAILBOX_KEEP],
  )
}

export interface MailboxMessage {
  id: number
  recipient: string
  subject: string
  body: string
  link: string | null
  kind: string
  sent_at: string
}

export async function readMailbox(db: Queryable, projectId: number, limit = MAILBOX_KEEP): Promise<MailboxMessage[]> {
  const { rows } = await db.query<MailboxMessage & { id: string | number; sent_at: Date | string }>(
    `select id, recipient, subject, body, link, kind, sent_at from project_auth_mailbox where project_id = $1 order by id desc limit $2`,
    [projectId, limit],
  )
  return rows.map((r) => ({ ...r, id: Number(r.id), sent_at: new Date(r.sent_at).toISOString() }))
}

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
