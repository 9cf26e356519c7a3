/**
 * One function per endpoint the dashboard calls. Each names its endpoint descriptor (src/contracts/endpoints.ts),
 * which holds the method, base, path and response schema: no path is written here.
 */
import type { CreateAccessTokenBody, SignInBody } from '../contracts/auth'
import type { CreateProjectBody, RunQueryBody } from '../contracts/database'
import * as endpoints from '../contracts/endpoints'
import type { JwtSecretUpdateBody } from '../contracts/keys'
import type { CreateBucketBody } from '../contracts/storage'
import type { UpgradeDatabaseBody } from '../contracts/upgrade'
import type { OrgUsageQuery } from '../contracts/usage'
import { call, type CallOptions } from './http'

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

// Organizations.
export const listOrganizations = (options?: CallOptions) => call(endpoints.listOrganizations, {}, options)
export const getOrganization = (slug: string | undefined, options?: CallOptions) => call(endpoints.getOrganization, { slug }, options)
export const getSubscription = (slug: string | undefined, options?: CallOptions) => call(endpoints.getSubscription, { slug }, options)
export const getOrgUsage = (slug: string | undefined, query: OrgUsageQuery, options?: CallOptions) =>
  call(endpoints.getOrgUsage, { slug }, { ...options, query: { start: query.start, end: query.end, project_ref: query.project_ref || undefined } })
export const getMembersReachedFreeProjectLimit = (slug: string | undefined, options?: CallOptions) =>
  call(endpoints.getMembersReachedFreeProjectLimit, { slug }, options)

// Projects.
export const listProjects = (options?: CallOptions) => call(endpoints.listProjects, {}, options)
export const getProject = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProject, { ref }, options)
export const getProjectStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectStatus, { ref }, options)
export const getProjectLive = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectLive, { ref }, options)
export const getProjectRestSchema = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectRestSchema, { ref }, options)
export const getResourceWarnings = (options?: CallOptions) => call(endpoints.getResourceWarnings, {}, options)

// Pause and restore. Pausing goes through the Management API ({api}).
export const pauseProject = (ref: string | undefined, options?: CallOptions) => call(endpoints.pauseProject, { ref }, options)
export const restoreProject = (ref: string | undefined, options?: CallOptions) => call(endpoints.restoreProject, { ref }, options)
export const getRestoreStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getRestoreStatus, { ref }, options)

// Postgres upgrade (Management API).
export const getUpgradeStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getUpgradeStatus, { ref }, options)
export const getUpgradeEligibility = (ref: string | undefined, options?: CallOptions) => call(endpoints.getUpgradeEligibility, { ref }, options)
export const startUpgrade = (ref: string | undefined, body: UpgradeDatabaseBody, options?: CallOptions) =>
  call(endpoints.startUpgrade, { ref }, { ...options, body })

// API keys and JWT secret rotation.
export const getProjectSettings = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectSettings, { ref }, options)
export const updateJwtSecret = (ref: string | undefined, body: JwtSecretUpdateBody, options?: CallOptions) =>
  call(endpoints.updateJwtSecret, { ref }, { ...options, body })
export const getJwtSecretUpdateStatus = (ref: string | undefined, options?: CallOptions) =>
  call(endpoints.getJwtSecretUpdateStatus, { ref }, options)

// A project's own database (the SQL Editor, the Table Editor, the Database page) and creating a project.
export const runQuery = (ref: string | undefined, body: RunQueryBody, options?: CallOptions) => call(endpoints.runQuery, { ref }, { ...options, body })
export const listTables = (ref: string | undefined, options?: CallOptions) => call(endpoints.listTables, { ref }, options)
export const getTableRows = (ref: string | undefined, table: string, page: { offset: number; limit: number }, options?: CallOptions) =>
  call(endpoints.getTableRows, { ref, table }, { ...options, query: { offset: String(page.offset), limit: String(page.limit) } })
export const createProject = (body: CreateProjectBody, options?: CallOptions) => call(endpoints.createProject, {}, { ...options, body })

// Storage buckets and edge functions.
export const listBuckets = (ref: string | undefined, options?: CallOptions) => call(endpoints.listBuckets, { ref }, options)
export const createBucket = (ref: string | undefined, body: CreateBucketBody, options?: CallOptions) => call(endpoints.createBucket, { ref }, { ...options, body })
export const deleteBucket = (ref: string | undefined, id: string, options?: CallOptions) => call(endpoints.deleteBucket, { ref, id }, options)
export const listFunctions = (ref: string | undefined, options?: CallOptions) => call(endpoints.listFunctions, { ref }, options)
/** The project's TypeScript types (spec 7: downloaded as supabase.ts). */
export const getTypescriptTypes = (ref: string | undefined, options?: CallOptions) => call(endpoints.getTypescriptTypes, { ref }, options)
