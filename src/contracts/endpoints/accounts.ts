import { Profile } from '../session'
import { endpoint } from '../endpoint'
import {
  AcceptInvitationBody,
  CreatedInvitation,
  EmailVerificationSent,
  InviteMemberBody,
  JoinedOrganization,
  Member,
  OrganizationTeam,
  SignUpBody,
  UpdateMemberBody,
  UpdateProfileBody,
  VerifyEmailQuery,
} from '../accounts'
import { EmptyBody } from '../pause'

// Accounts and members (src/contracts/accounts.ts). Sign-up needs no session.
export const signUp = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-up', { body: SignUpBody, response: Profile })
export const updateProfile = /* @__PURE__ */ endpoint('PATCH', 'platform', '/profile', { body: UpdateProfileBody, response: Profile })
export const getTeam = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/members', { response: OrganizationTeam })
export const inviteMember = /* @__PURE__ */ endpoint('POST', 'platform', '/organizations/:slug/members/invitations', { body: InviteMemberBody, response: CreatedInvitation })
export const updateMember = /* @__PURE__ */ endpoint('PATCH', 'platform', '/organizations/:slug/members/:account_id', { body: UpdateMemberBody, response: Member })
export const removeMember = /* @__PURE__ */ endpoint('DELETE', 'platform', '/organizations/:slug/members/:account_id')
export const acceptInvitation = /* @__PURE__ */ endpoint('POST', 'platform', '/invitations/accept', { body: AcceptInvitationBody, response: JoinedOrganization })
export const sendEmailVerification = /* @__PURE__ */ endpoint('POST', 'platform', '/profile/email-verification', { body: EmptyBody, response: EmailVerificationSent })
/** Needs no session: the link is opened from the message; it answers with a redirect to the dashboard. */
export const verifyEmail = /* @__PURE__ */ endpoint('GET', 'platform', '/auth/verify-email', { query: VerifyEmailQuery })
