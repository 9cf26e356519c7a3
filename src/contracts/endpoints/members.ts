import { endpoint } from '../endpoint'
import { AcceptInvitationBody, CreatedInvitation, InviteMemberBody, JoinedOrganization, Member, OrganizationTeam, UpdateMemberBody } from '../members'

// An organization's members and invitations (src/contracts/members.ts).
export const getTeam = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/members', { response: OrganizationTeam })
export const inviteMember = /* @__PURE__ */ endpoint('POST', 'platform', '/organizations/:slug/members/invitations', { body: InviteMemberBody, response: CreatedInvitation })
export const updateMember = /* @__PURE__ */ endpoint('PATCH', 'platform', '/organizations/:slug/members/:account_id', { body: UpdateMemberBody, response: Member })
export const removeMember = /* @__PURE__ */ endpoint('DELETE', 'platform', '/organizations/:slug/members/:account_id')
export const acceptInvitation = /* @__PURE__ */ endpoint('POST', 'platform', '/invitations/accept', { body: AcceptInvitationBody, response: JoinedOrganization })
