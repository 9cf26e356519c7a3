import type { Role } from '../../contracts/common'
import type { AcceptInvitationBody, InviteMemberBody, SignUpBody, UpdateProfileBody } from '../../contracts/accounts'
import * as endpoints from '../../contracts/endpoints/accounts'
import { call, type CallOptions } from '../http'

// Accounts and members.
export const signUp = (body: SignUpBody, options?: CallOptions) => call(endpoints.signUp, {}, { ...options, body })
export const updateProfile = (body: UpdateProfileBody, options?: CallOptions) => call(endpoints.updateProfile, {}, { ...options, body })
export const getTeam = (slug: string, options?: CallOptions) => call(endpoints.getTeam, { slug }, options)
export const inviteMember = (slug: string, body: InviteMemberBody, options?: CallOptions) => call(endpoints.inviteMember, { slug }, { ...options, body })
export const updateMember = (slug: string, accountId: number, role: Role, options?: CallOptions) =>
  call(endpoints.updateMember, { slug, account_id: accountId }, { ...options, body: { role } })
export const removeMember = (slug: string, accountId: number, options?: CallOptions) => call(endpoints.removeMember, { slug, account_id: accountId }, options)
export const acceptInvitation = (body: AcceptInvitationBody, options?: CallOptions) => call(endpoints.acceptInvitation, {}, { ...options, body })
export const sendEmailVerification = (options?: CallOptions) => call(endpoints.sendEmailVerification, {}, { ...options, body: {} })
