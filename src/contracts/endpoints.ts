/**
 * Every endpoint of the platform, written once (what a descriptor is: src/contracts/endpoint.ts). Import the module
 * as a namespace (`import * as endpoints from …`): each descriptor is its own export, so the dashboard's bundle keeps
 * only those it calls (the development controls stay out of it).
 * `response: null` means no body the dashboard reads (the server may still send one).
 */
import { CreateAccessTokenBody, AccessTokenList, CreatedAccessToken, PermissionsResponse, Profile, SignInBody } from './auth'
import { HealthResponse } from './common'
import { ProjectLiveResponse, RestSchemaResponse } from './connecting'
import { CreateProjectBody, DatabaseTableList, QueryResult, RunQueryBody, TableRows, TableRowsQuery, TypescriptQuery, TypescriptResponse, V1CreatedProject, V1QueryResult } from './database'
import { DevCreateProjectBody, DevLatencyBody, DevLatencyResponse, DevSetPostgrestBody, DevSetStatusBody } from './dev'
import { DevFailNextJwtUpdateResponse, JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectSettings, V1ApiKeyList, V1ApiKeysQuery } from './keys'
import { Organization, OrganizationList, Subscription } from './organizations'
import { DevFailNextRestoreBody, DevFailNextRestoreResponse, EmptyBody, MembersReachedFreeProjectLimit, RestoreResponse, RestoreStatusResponse } from './pause'
import { Project, ProjectList, ProjectStatusResponse, UpdateProjectBody } from './projects'
import {
  DatabaseUpgradeStatusResponse,
  DevFailNextUpgradeBody,
  DevFailNextUpgradeResponse,
  ProjectUpgradeEligibilityResponse,
  ProjectUpgradeInitiateResponse,
  UpgradeDatabaseBody,
  UpgradeStatusQuery,
} from './upgrade'
import {
  DevReadOnlyBody,
  DevResourceWarningBody,
  DevUsageBody,
  DevUsageResponse,
  OrgUsageQuery,
  OrgUsageResponse,
  ResourceWarning,
  ResourceWarningsResponse,
} from './usage'
import { CreateFunctionBody, FunctionList, FunctionResponse } from './functions'
import { Bucket, BucketList, CreateBucketBody, DeleteBucketResponse } from './storage'
import { V1ProjectList, V1ProjectWithDatabase } from './v1'
import { endpoint } from './endpoint'

// Session and profile (no session needed for health and sign-in).
export const health = /* @__PURE__ */ endpoint('GET', 'platform', '/health', { response: HealthResponse })
export const signIn = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-in', { body: SignInBody, response: Profile })
export const signOut = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-out')
export const getProfile = /* @__PURE__ */ endpoint('GET', 'platform', '/profile', { response: Profile })
export const getPermissions = /* @__PURE__ */ endpoint('GET', 'platform', '/profile/permissions', { response: PermissionsResponse })
export const listAccessTokens = /* @__PURE__ */ endpoint('GET', 'platform', '/profile/access-tokens', { response: AccessTokenList })
export const createAccessToken = /* @__PURE__ */ endpoint('POST', 'platform', '/profile/access-tokens', { body: CreateAccessTokenBody, response: CreatedAccessToken })
export const revokeAccessToken = /* @__PURE__ */ endpoint('DELETE', 'platform', '/profile/access-tokens/:id')

// Organizations.
export const listOrganizations = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations', { response: OrganizationList })
export const getOrganization = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug', { response: Organization })
export const getSubscription = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/billing/subscription', { response: Subscription })
export const getOrgUsage = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/usage', { query: OrgUsageQuery, response: OrgUsageResponse })
export const getMembersReachedFreeProjectLimit = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/members/reached-free-project-limit', {
  response: MembersReachedFreeProjectLimit,
})

// Projects.
export const listProjects = /* @__PURE__ */ endpoint('GET', 'platform', '/projects', { response: ProjectList })
export const getProject = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref', { response: Project })
export const updateProject = /* @__PURE__ */ endpoint('PATCH', 'platform', '/projects/:ref', { body: UpdateProjectBody, response: Project })
export const getProjectStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/status', { response: ProjectStatusResponse })
export const getProjectLive = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/live', { response: ProjectLiveResponse })
export const getProjectRestSchema = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/api/rest', { response: RestSchemaResponse })
export const getResourceWarnings = /* @__PURE__ */ endpoint('GET', 'platform', '/projects-resource-warnings', { response: ResourceWarningsResponse })

// Pause and restore.
export const pauseProject = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/pause', { body: EmptyBody })
export const restoreProjectV1 = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/restore', { body: EmptyBody })
export const restoreProject = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/restore', { body: EmptyBody, response: RestoreResponse })
export const getRestoreStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/restore/status', { response: RestoreStatusResponse })

// Postgres upgrade (Management API).
export const startUpgrade = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/upgrade', { body: UpgradeDatabaseBody, response: ProjectUpgradeInitiateResponse })
// The server sends DatabaseUpgradeStatusWireResponse (status as a number); `response` is the dashboard's parsed
// reading of it (the number as the spec's word), which is what a client wants from the descriptor.
export const getUpgradeStatus = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/status', {
  query: UpgradeStatusQuery,
  response: DatabaseUpgradeStatusResponse,
})
export const getUpgradeEligibility = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/eligibility', { response: ProjectUpgradeEligibilityResponse })

// API keys and JWT secret.
export const getProjectSettings = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/settings', { response: ProjectSettings })
export const updateJwtSecret = /* @__PURE__ */ endpoint('POST', 'platform', '/props/project/:ref/jwt-secret-update', {
  body: JwtSecretUpdateBody,
  response: JwtSecretUpdateAccepted,
})
export const getJwtSecretUpdateStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/jwt-secret-update-status', {
  response: JwtSecretUpdateStatusResponse,
})

// Management API reads.
export const v1ListProjects = /* @__PURE__ */ endpoint('GET', 'v1', '/projects', { response: V1ProjectList })
export const v1GetProject = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref', { response: V1ProjectWithDatabase })
export const v1ListApiKeys = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/api-keys', { query: V1ApiKeysQuery, response: V1ApiKeyList })

// Development controls (served only with DEV_CONTROLS=1).
export const devCreateProject = /* @__PURE__ */ endpoint('POST', 'dev', '/projects', { body: DevCreateProjectBody, response: Project })
export const devSetStatus = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/status', { body: DevSetStatusBody, response: Project })
export const devSetPostgrest = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/postgrest', { body: DevSetPostgrestBody, response: Project })
export const devSetLatency = /* @__PURE__ */ endpoint('POST', 'dev', '/latency', { body: DevLatencyBody, response: DevLatencyResponse })
export const devFailNextRestore = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-restore', {
  body: DevFailNextRestoreBody,
  response: DevFailNextRestoreResponse,
})
export const devFailNextJwtUpdate = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-jwt-update', { response: DevFailNextJwtUpdateResponse })
export const devFailNextUpgrade = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-upgrade', {
  body: DevFailNextUpgradeBody,
  response: DevFailNextUpgradeResponse,
})
export const devSetResourceWarning = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/resource-warnings', {
  body: DevResourceWarningBody,
  response: ResourceWarning,
})
export const devSetReadOnly = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/read-only', { body: DevReadOnlyBody, response: ResourceWarning })
export const devSetUsage = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/usage', { body: DevUsageBody, response: DevUsageResponse })

// A project's own database (src/contracts/database.ts).
export const createProject = /* @__PURE__ */ endpoint('POST', 'v1', '/projects', { body: CreateProjectBody, response: V1CreatedProject })
export const v1RunQuery = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/database/query', { body: RunQueryBody, response: V1QueryResult })
export const v1RunReadOnlyQuery = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/database/query/read-only', { body: RunQueryBody, response: V1QueryResult })
export const runQuery = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/database/query', { body: RunQueryBody, response: QueryResult })
export const listTables = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/database/tables', { response: DatabaseTableList })
export const getTableRows = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/database/tables/:table/rows', { query: TableRowsQuery, response: TableRows })
export const getTypescriptTypes = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/types/typescript', { query: TypescriptQuery, response: TypescriptResponse })

// Storage buckets (src/contracts/storage.ts) and edge functions (src/contracts/functions.ts).
export const listBuckets = /* @__PURE__ */ endpoint('GET', 'platform', '/storage/:ref/buckets', { response: BucketList })
export const createBucket = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets', { body: CreateBucketBody, response: Bucket })
export const deleteBucket = /* @__PURE__ */ endpoint('DELETE', 'platform', '/storage/:ref/buckets/:id', { response: DeleteBucketResponse })
export const listFunctions = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions', { response: FunctionList })
export const getFunction = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions/:slug', { response: FunctionResponse })
export const createFunction = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/functions', { body: CreateFunctionBody, response: FunctionResponse })
export const deleteFunction = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref/functions/:slug')
