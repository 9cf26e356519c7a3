import * as z from 'zod'
import { Permission, Role } from './common'

/** POST /platform/auth/sign-in (sets the HTTP-only session cookie). */
export const SignInBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid e-mail address'),
  password: z.string().min(1, 'Enter your password'),
})
export type SignInBody = z.infer<typeof SignInBody>

/** GET /platform/profile; also the answer of sign-in. */
export const Profile = z.object({
  id: z.number().int(),
  username: z.string(),
  primary_email: z.string(),
})
export type Profile = z.infer<typeof Profile>

/** GET /platform/profile/permissions: one entry per organization the person belongs to. */
export const OrganizationPermissions = z.object({
  organization_id: z.number().int(),
  organization_slug: z.string(),
  role: Role,
  permissions: z.array(Permission),
})
export type OrganizationPermissions = z.infer<typeof OrganizationPermissions>
export const PermissionsResponse = z.array(OrganizationPermissions)

/** Personal access tokens for /v1 (Authorization: Bearer). Stored hashed; the value is shown once. */
export const MAX_ACCESS_TOKEN_DAYS = 365
export const CreateAccessTokenBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  /** Days until the token stops working; absent or null: it never expires. */
  expires_in_days: z
    .number()
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be at least 1 day')
    .max(MAX_ACCESS_TOKEN_DAYS, `Expiry must be at most ${MAX_ACCESS_TOKEN_DAYS} days`)
    .nullable()
    .optional(),
})
export type CreateAccessTokenBody = z.infer<typeof CreateAccessTokenBody>
export const AccessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  token_alias: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** null: never expires. (Absent in answers of servers before issue 8: read as null.) */
  expires_at: z.string().nullable().default(null),
})
export type AccessToken = z.infer<typeof AccessToken>
export const AccessTokenList = z.array(AccessToken)
export const CreatedAccessToken = AccessToken.extend({ token: z.string() })
export type CreatedAccessToken = z.infer<typeof CreatedAccessToken>
