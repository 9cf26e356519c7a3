/** One function per endpoint the dashboard calls; every response parsed by its contract. */
import { config } from '../config'
import {
  AccessTokenList,
  CreatedAccessToken,
  PermissionsResponse,
  Profile,
  type SignInBody,
} from '../contracts/auth'
import { Organization, OrganizationList, Subscription } from '../contracts/organizations'
import { Project, ProjectList, ProjectStatusResponse } from '../contracts/projects'
import { http, type CallOptions } from './http'

const platform = (path: string) => `${config.platformUrl}${path}`
const requireRef = (ref: string | undefined) => {
  if (!ref) throw new Error('Project ref is required')
  return encodeURIComponent(ref)
}
const requireSlug = (slug: string | undefined) => {
  if (!slug) throw new Error('slug is required')
  return encodeURIComponent(slug)
}

export const signIn = (body: SignInBody, options?: CallOptions) => http.post(platform('/auth/sign-in'), Profile, body, options)
export const signOut = (options?: CallOptions) => http.post(platform('/auth/sign-out'), null, {}, options)
export const getProfile = (options?: CallOptions) => http.get(platform('/profile'), Profile, options)
export const getPermissions = (options?: CallOptions) => http.get(platform('/profile/permissions'), PermissionsResponse, options)

export const listAccessTokens = (options?: CallOptions) => http.get(platform('/profile/access-tokens'), AccessTokenList, options)
export const createAccessToken = (name: string, options?: CallOptions) =>
  http.post(platform('/profile/access-tokens'), CreatedAccessToken, { name }, options)
export const revokeAccessToken = (id: number, options?: CallOptions) =>
  http.delete(platform(`/profile/access-tokens/${id}`), null, options)

export const listOrganizations = (options?: CallOptions) => http.get(platform('/organizations'), OrganizationList, options)
export const getOrganization = (slug: string | undefined, options?: CallOptions) =>
  http.get(platform(`/organizations/${requireSlug(slug)}`), Organization, options)
export const getSubscription = (slug: string | undefined, options?: CallOptions) =>
  http.get(platform(`/organizations/${requireSlug(slug)}/billing/subscription`), Subscription, options)

export const listProjects = (options?: CallOptions) => http.get(platform('/projects'), ProjectList, options)
export const getProject = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/projects/${requireRef(ref)}`), Project, options)
export const getProjectStatus = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/projects/${requireRef(ref)}/status`), ProjectStatusResponse, options)

