import type { CreateAccessTokenBody, SignInBody } from '../../contracts/session'
import * as endpoints from '../../contracts/endpoints/session'
import { call, type CallOptions } from '../http'

// Session and profile.
export const signIn = (body: SignInBody, options?: CallOptions) => call(endpoints.signIn, {}, { ...options, body })
export const signOut = (options?: CallOptions) => call(endpoints.signOut, {}, options)
export const getProfile = (options?: CallOptions) => call(endpoints.getProfile, {}, options)
export const getPermissions = (options?: CallOptions) => call(endpoints.getPermissions, {}, options)
/** The person's permissions in one organization (none when not listed), read fresh before a privileged action. */
export async function getOrganizationPermissions(organizationSlug: string, options?: CallOptions) {
  const all = await getPermissions(options)
  return all.find((entry) => entry.organization_slug === organizationSlug)?.permissions ?? []
}
export const listAccessTokens = (options?: CallOptions) => call(endpoints.listAccessTokens, {}, options)
export const createAccessToken = (body: CreateAccessTokenBody, options?: CallOptions) => call(endpoints.createAccessToken, {}, { ...options, body })
export const revokeAccessToken = (id: number, options?: CallOptions) => call(endpoints.revokeAccessToken, { id }, options)
