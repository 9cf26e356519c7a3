/**
 * Accounts: sign-up, the profile's username and the verification of the e-mail address. Written with zod/mini like
 * every contract; the server validates requests with the same schemas.
 */
import * as z from 'zod/mini'

export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 256
/** The longest e-mail address SMTP carries (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254

export const Email = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.maxLength(MAX_EMAIL_LENGTH, `E-mail address must be at most ${MAX_EMAIL_LENGTH} characters`),
  z.email('Enter a valid e-mail address'),
)

/** POST /platform/auth/sign-up (creates the account and its personal organization, then signs in). */
export const SignUpBody = z.object({
  email: Email,
  password: z
    .string()
    .check(
      z.minLength(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
      z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
    ),
})
export type SignUpBody = z.infer<typeof SignUpBody>

export const USERNAME_RULE = 'Username must be 3 to 40 characters: letters, digits, dots, dashes or underscores'
export const Username = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9._-]{3,40}$/, USERNAME_RULE))

/** PATCH /platform/profile. */
export const UpdateProfileBody = z.object({ username: Username })
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>

/** POST /platform/profile/email-verification (no body): a new verification link, sent to the primary e-mail. */
export const EmailVerificationSent = z.object({ email: z.string() })
export type EmailVerificationSent = z.infer<typeof EmailVerificationSent>

/**
 * The token of a link sent by e-mail (an invitation, an e-mail verification): `<id>.<secret>` (the id finds the row;
 * the secret is compared in constant time).
 */
export const LINK_TOKEN_PATTERN = /^[1-9][0-9]{0,9}\.[A-Za-z0-9_-]{43}$/

/** GET /platform/auth/verify-email?token=<account id>.<secret>: the link a verification message carries. */
export const VerifyEmailQuery = z.object({
  token: z.string().check(z.regex(LINK_TOKEN_PATTERN, 'This verification link is not valid')),
})
