/**
 * An organization's members and invitations, and accepting an invitation. Written with zod/mini like every contract;
 * the server validates requests with the same schemas.
 */
import * as z from 'zod/mini'
import { Email, LINK_TOKEN_PATTERN } from './accounts'
import { Role } from './common'

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

/** An invitation token: a link token (./accounts), `<id>.<secret>`. */
export const InvitationToken = z.string().check(z.regex(LINK_TOKEN_PATTERN, 'This invitation link is not valid'))

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
