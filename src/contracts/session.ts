import * as z from 'zod/mini'
import { Permission, Role } from './common'

/** POST /platform/auth/sign-in (sets the HTTP-only session cookie). */
export const SignInBody = z.object({
  email: z.string().check(z.trim(), z.toLowerCase(), z.email('Enter a valid e-mail address')),
  password: z.string().check(z.minLength(1, 'Enter your password')),
})
export type SignInBody = z.infer<typeof SignInBody>

/** GET /platform/profile; also the answer of sign-in. */
export const Profile = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  primary_email: z.string(),
})
export type Profile = z.infer<typeof Profile>

/** GET /platform/profile/permissions: one entry per organization the person belongs to. */
export const OrganizationPermissions = z.object({
  organization_id: z.number().check(z.int()),
  organization_slug: z.string(),
  role: Role,
  permissions: z.array(Permission),
})
export type OrganizationPermissions = z.infer<typeof OrganizationPermissions>
export const PermissionsResponse = z.array(OrganizationPermissions)

/** Personal access tokens for /v1 (Authorization: Bearer). Stored hashed; the value is shown once. */
export const MAX_ACCESS_TOKEN_DAYS = 365
export const CreateAccessTokenBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(100)),
  /** Days until the token stops working; absent or null: the platform's default (ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS, 90). */
  expires_in_days: z.optional(
    z.nullable(
      z.number().check(
        z.int('Expiry must be a whole number of days'),
        z.gte(1, 'Expiry must be at least 1 day'),
        z.lte(MAX_ACCESS_TOKEN_DAYS, `Expiry must be at most ${MAX_ACCESS_TOKEN_DAYS} days`),
      ),
    ),
  ),
})
export type CreateAccessTokenBody = z.infer<typeof CreateAccessTokenBody>
export const AccessToken = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  token_alias: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  /** null: never expires. (Absent in answers of servers before the accounts hardening: read as null.) */
  expires_at: z._default(z.nullable(z.string()), null),
})
export type AccessToken = z.infer<typeof AccessToken>
export const AccessTokenList = z.array(AccessToken)
export const CreatedAccessToken = z.extend(AccessToken, { token: z.string() })
export type CreatedAccessToken = z.infer<typeof CreatedAccessToken>
