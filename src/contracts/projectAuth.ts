/**
 * The users of a project's auth service as the dashboard's Authentication pages read and change them, through the
 * platform's own routes (the server forwards each to the project's auth admin API, after the member's permission):
 *   GET    /platform/auth/{ref}/users?page&per_page&keywords → AuthUserPage  (any member: the list is read-only)
 *   GET    /platform/auth/{ref}/users/{id}                   → AuthUser      (any member)
 *   POST   /platform/auth/{ref}/users      CreateAuthUserBody → AuthUser      (project_auth:all, as the rest below)
 *   POST   /platform/auth/{ref}/invite     AuthEmailBody      → AuthUser
 *   POST   /platform/auth/{ref}/magiclink  AuthEmailBody      → {}
 *   POST   /platform/auth/{ref}/recover    AuthEmailBody      → {}
 *   PATCH  /platform/auth/{ref}/users/{id} UpdateAuthUserBody → AuthUser     (ban / unban)
 *   DELETE /platform/auth/{ref}/users/{id}                   → {}
 * The settings and the mailbox are src/contracts/auth.ts.
 */
import * as z from 'zod/mini'

const when = z.optional(z.nullable(z.string()))

export const AuthIdentity = z.looseObject({
  provider: z.string(),
  created_at: when,
  last_sign_in_at: when,
})

/** A user as the service's admin API answers it (GoTrue's User). */
export const AuthUser = z.looseObject({
  id: z.string(),
  email: z.string(),
  phone: z.optional(z.string()),
  role: z.optional(z.string()),
  email_confirmed_at: when,
  invited_at: when,
  confirmation_sent_at: when,
  recovery_sent_at: when,
  last_sign_in_at: when,
  banned_until: when,
  created_at: when,
  updated_at: when,
  app_metadata: z.record(z.string(), z.unknown()),
  user_metadata: z.record(z.string(), z.unknown()),
  identities: z.optional(z.array(AuthIdentity)),
})
export type AuthUser = z.infer<typeof AuthUser>

/** The largest page the list asks for: the service's admin API allows up to 1,000. */
export const AUTH_USERS_MAX_PER_PAGE = 1000

export const AuthUsersQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
  per_page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(AUTH_USERS_MAX_PER_PAGE)), 50),
  keywords: z.optional(z.string().check(z.maxLength(320))),
})
export type AuthUsersQuery = z.infer<typeof AuthUsersQuery>

/** One page of users, newest first, and how many match in all. */
export const AuthUserPage = z.object({
  users: z.array(AuthUser),
  total: z.number().check(z.int(), z.nonnegative()),
})
export type AuthUserPage = z.infer<typeof AuthUserPage>

const email = z.string().check(z.trim(), z.minLength(1, 'Enter an e-mail address'), z.maxLength(320), z.email('Enter a valid e-mail address'))

export const CreateAuthUserBody = z.strictObject({
  email,
  password: z.string().check(z.minLength(1, 'Enter a password'), z.maxLength(72, 'A password is at most 72 characters')),
  /** Mark the e-mail confirmed at once (the dashboard's 'Auto Confirm User?'). */
  email_confirm: z.optional(z.boolean()),
})
export type CreateAuthUserBody = z.infer<typeof CreateAuthUserBody>

export const AuthEmailBody = z.strictObject({ email })
export type AuthEmailBody = z.infer<typeof AuthEmailBody>

/** 'none' lifts a ban; a number of hours ('24h') bans until then. */
export const UpdateAuthUserBody = z.strictObject({
  ban_duration: z.string().check(z.regex(/^(none|\d{1,6}h)$/, 'ban_duration is "none" or a number of hours such as "24h"')),
})
export type UpdateAuthUserBody = z.infer<typeof UpdateAuthUserBody>

export const AuthEmptyAnswer = z.object({})
