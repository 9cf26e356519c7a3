import type { Role } from '../../contracts/common'
import type { AcceptInvitationBody, InviteMemberBody } from '../../contracts/members'
import * as endpoints from '../../contracts/endpoints/members'
import { call, type CallOptions } from '../http'

// An organization's members and invitations.
export const getTeam = (slug: string, options?: CallOptions) => call(endpoints.getTeam, { slug }, options)
export const inviteMember = (slug: string, body: InviteMemberBody, options?: CallOptions) => call(endpoints.inviteMember, { slug }, { ...options, body })
export const updateMember = (slug: string, accountId: number, role: Role, options?: CallOptions) =>
  call(endpoints.updateMember, { slug, account_id: accountId }, { ...options, body: { role } })
export const removeMember = (slug: string, accountId: number, options?: CallOptions) => call(endpoints.removeMember, { slug, account_id: accountId }, options)
export const acceptInvitation = (body: AcceptInvitationBody, options?: CallOptions) => call(endpoints.acceptInvitation, {}, { ...options, body })
