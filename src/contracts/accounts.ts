/**
 * Accounts and members: sign-up, the profile's username, an organization's members and invitations, and accepting
 * an invitation. Written with zod/mini like every contract; the server validates requests with the same schemas.
 */
import * as z from 'zod/mini'
import { Role } from './common'

export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 256
/** The longest e-mail address SMTP carries (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254

const Email = z.string().check(
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

export const Member = z.object({
  account_id: z.number().check(z.int()),
  username: z.string(),
  primary_email: z.string(),
  role: Role,
})
export type Member = z.infer<typeof Member>

/** A pending invitation (neither accepted nor expired). */
export const Invitation = z.object({
  id: z.number().check(z.int()),
  email: z.string(),
  role: Role,
  invited_at: z.string(),
  expires_at: z.string(),
})
export type Invitation = z.infer<typeof Invitation>

/** GET /platform/organizations/:slug/members: the members with their roles, and the invitations still open. */
export const OrganizationTeam = z.object({ members: z.array(Member), invitations: z.array(Invitation) })
export type OrganizationTeam = z.infer<typeof OrganizationTeam>

/** POST /platform/organizations/:slug/members/invitations. */
export const InviteMemberBody = z.object({ email: Email, role: Role })
export type InviteMemberBody = z.infer<typeof InviteMemberBody>

/** The answer to an invitation: the only one that carries its token (the link is `/join?token=<token>`). */
export const CreatedInvitation = z.extend(Invitation, { token: z.string() })
export type CreatedInvitation = z.infer<typeof CreatedInvitation>

/** PATCH /platform/organizations/:slug/members/:account_id. */
export const UpdateMemberBody = z.object({ role: Role })
export type UpdateMemberBody = z.infer<typeof UpdateMemberBody>

/** An invitation token: `<id>.<secret>` (the id finds the row; the secret is compared in constant time). */
export const INVITATION_TOKEN_PATTERN = /^[1-9][0-9]{0,9}\.[A-Za-z0-9_-]{43}$/
export const InvitationToken = z.string().check(z.regex(INVITATION_TOKEN_PATTERN, 'This invitation link is not valid'))

/** POST /platform/invitations/accept. */
export const AcceptInvitationBody = z.object({ token: InvitationToken })
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>

export const JoinedOrganization = z.object({ slug: z.string(), name: z.string(), role: Role })
export type JoinedOrganization = z.infer<typeof JoinedOrganization>

/** The path of an invitation's link on the dashboard. */
export const invitationPath = (token: string) => `/join?token=${encodeURIComponent(token)}`

/**
 * The refusal of an invitation by an account whose e-mail address is not verified yet (403, this code): the join
 * page offers to send the verification link again.
 */
export const EMAIL_NOT_VERIFIED = 'email_not_verified'

/** POST /platform/profile/email-verification (no body): a new verification link, sent to the primary e-mail. */
export const EmailVerificationSent = z.object({ email: z.string() })
export type EmailVerificationSent = z.infer<typeof EmailVerificationSent>

/** GET /platform/auth/verify-email?token=<account id>.<secret>: the link a verification message carries. */
export const VerifyEmailQuery = z.object({
  token: z.string().check(z.regex(INVITATION_TOKEN_PATTERN, 'This verification link is not valid')),
})
