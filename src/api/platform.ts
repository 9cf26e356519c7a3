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
import { ProjectLiveResponse, RestSchemaResponse } from '../contracts/connecting'
import {
  DatabaseUpgradeStatusResponse,
  ProjectUpgradeEligibilityResponse,
  ProjectUpgradeInitiateResponse,
  type UpgradeDatabaseBody,
} from '../contracts/upgrade'
import { OrgUsageResponse, ResourceWarningsResponse, type OrgUsageQuery } from '../contracts/usage'
import { JwtSecretUpdateAccepted, JwtSecretUpdateStatusResponse, ProjectSettings, type JwtSecretUpdateBody } from '../contracts/keys'
import { MembersReachedFreeProjectLimit, RestoreResponse, RestoreStatusResponse } from '../contracts/pause'
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
/** The person's permissions in one organization (none when not listed), read fresh before a privileged action. */
export async function getOrganizationPermissions(organizationSlug: string, options?: CallOptions) {
  const all = await getPermissions(options)
  return all.find((entry) => entry.organization_slug === organizationSlug)?.permissions ?? []
}

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

// Postgres upgrade ({api} = the Management API base), connectivity of the API server, resource warnings, usage.
const api = (path: string) => `${config.apiUrl}${path}`
export const getUpgradeStatus = (ref: string | undefined, options?: CallOptions) =>
  http.get(api(`/projects/${requireRef(ref)}/upgrade/status`), DatabaseUpgradeStatusResponse, options)
export const getUpgradeEligibility = (ref: string | undefined, options?: CallOptions) =>
  http.get(api(`/projects/${requireRef(ref)}/upgrade/eligibility`), ProjectUpgradeEligibilityResponse, options)
export const startUpgrade = (ref: string | undefined, body: UpgradeDatabaseBody, options?: CallOptions) =>
  http.post(api(`/projects/${requireRef(ref)}/upgrade`), ProjectUpgradeInitiateResponse, body, options)
export const getProjectLive = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/projects/${requireRef(ref)}/live`), ProjectLiveResponse, options)
export const getProjectRestSchema = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/projects/${requireRef(ref)}/api/rest`), RestSchemaResponse, options)
export const getResourceWarnings = (options?: CallOptions) =>
  http.get(platform('/projects-resource-warnings'), ResourceWarningsResponse, options)
export const getOrgUsage = (slug: string | undefined, query: OrgUsageQuery, options?: CallOptions) => {
  const params = new URLSearchParams({ start: query.start, end: query.end })
  if (query.project_ref) params.set('project_ref', query.project_ref)
  return http.get(platform(`/organizations/${requireSlug(slug)}/usage?${params.toString()}`), OrgUsageResponse, options)
}

// API keys and JWT secret rotation (src/contracts/keys.ts).
export const getProjectSettings = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/props/project/${requireRef(ref)}/settings`), ProjectSettings, options)
export const updateJwtSecret = (ref: string | undefined, body: JwtSecretUpdateBody, options?: CallOptions) =>
  http.post(platform(`/props/project/${requireRef(ref)}/jwt-secret-update`), JwtSecretUpdateAccepted, body, options)
export const getJwtSecretUpdateStatus = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/props/project/${requireRef(ref)}/jwt-secret-update-status`), JwtSecretUpdateStatusResponse, options)

// Pause and restore (src/contracts/pause.ts). Pausing goes through the Management API path ({api}).
export const pauseProject = (ref: string | undefined, options?: CallOptions) =>
  http.post(`${config.apiUrl}/projects/${requireRef(ref)}/pause`, null, {}, options)
export const restoreProject = (ref: string | undefined, options?: CallOptions) =>
  http.post(platform(`/projects/${requireRef(ref)}/restore`), RestoreResponse, {}, options)
export const getRestoreStatus = (ref: string | undefined, options?: CallOptions) =>
  http.get(platform(`/projects/${requireRef(ref)}/restore/status`), RestoreStatusResponse, options)
export const getMembersReachedFreeProjectLimit = (slug: string | undefined, options?: CallOptions) =>
  http.get(platform(`/organizations/${requireSlug(slug)}/members/reached-free-project-limit`), MembersReachedFreeProjectLimit, options)
