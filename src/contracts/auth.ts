/**
 * A project's auth service as the dashboard and the Management API see it (the service itself answers its own
 * clients under /p/{ref}/auth/v1, src/server/features/auth):
 *   GET   /v1/projects/{ref}/config/auth        → AuthConfig (the Management API's AuthConfigResponse: every field of
 *         the contract; the ones below are those this platform obeys)
 *   PATCH /v1/projects/{ref}/config/auth        UpdateAuthConfigBody → AuthConfig (project_auth:all)
 *   GET   /platform/projects/{ref}/auth/mailbox → AuthMailbox: the e-mails the service sent with no SMTP server set,
 *         newest first (project_auth:all: they hold sign-in links)
 */
import * as z from 'zod/mini'

/** The settings the service obeys, as the contract names them. */
export const AuthConfig = z.looseObject({
  site_url: z.nullable(z.string()),
  uri_allow_list: z.nullable(z.string()),
  disable_signup: z.nullable(z.boolean()),
  mailer_autoconfirm: z.nullable(z.boolean()),
  jwt_exp: z.nullable(z.number()),
  password_min_length: z.nullable(z.number()),
  rate_limit_verify: z.nullable(z.number()),
  rate_limit_token_refresh: z.nullable(z.number()),
  rate_limit_otp: z.nullable(z.number()),
  rate_limit_email_sent: z.nullable(z.number()),
  password_hibp_enabled: z.nullable(z.boolean()),
  external_phone_enabled: z.nullable(z.boolean()),
  sms_autoconfirm: z.nullable(z.boolean()),
  rate_limit_sms_sent: z.nullable(z.number()),
})
export type AuthConfig = z.infer<typeof AuthConfig>

const positive = z.number().check(z.int(), z.minimum(1), z.maximum(2_147_483_647))

/** The fields of the contract's UpdateAuthConfigBody this platform obeys, with the contract's bounds; others are refused. */
export const UpdateAuthConfigBody = z.strictObject({
  site_url: z.optional(z.string().check(z.regex(/^[^,]+$/, 'site_url is one URL (no commas)'), z.url('site_url must be a URL'))),
  uri_allow_list: z.optional(z.string().check(z.maxLength(10_000))),
  disable_signup: z.optional(z.boolean()),
  mailer_autoconfirm: z.optional(z.boolean()),
  jwt_exp: z.optional(z.number().check(z.int(), z.minimum(30, 'jwt_exp is at least 30 seconds'), z.maximum(604_800))),
  password_min_length: z.optional(z.number().check(z.int(), z.minimum(6), z.maximum(72, 'password_min_length is at most 72 (bcrypt reads 72 bytes)'))),
  rate_limit_verify: z.optional(positive),
  rate_limit_token_refresh: z.optional(positive),
  rate_limit_otp: z.optional(positive),
  rate_limit_email_sent: z.optional(positive),
  password_hibp_enabled: z.optional(z.boolean()),
  external_phone_enabled: z.optional(z.boolean()),
  sms_autoconfirm: z.optional(z.boolean()),
  rate_limit_sms_sent: z.optional(positive),
})
export type UpdateAuthConfigBody = z.infer<typeof UpdateAuthConfigBody>

export const MailboxMessage = z.object({
  id: z.number(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  link: z.nullable(z.string()),
  kind: z.string(),
  /** An e-mail, or a text or WhatsApp message to a phone (its recipient a phone number). */
  channel: z.enum(['email', 'sms', 'whatsapp']),
  sent_at: z.string(),
})
export type MailboxMessage = z.infer<typeof MailboxMessage>

export const AuthMailbox = z.object({ messages: z.array(MailboxMessage) })
export type AuthMailbox = z.infer<typeof AuthMailbox>
