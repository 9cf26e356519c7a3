/**
 * Every endpoint of the platform, written once: method, base, path, request and response schema.
 * The server registers `routeOf(endpoint)`; the dashboard's client calls `pathOf(endpoint, params)` under the
 * base it was built with (config.platformUrl / config.apiUrl), and parses the answer with `endpoint.response`.
 * `response: null` means no body the dashboard reads (the server may still send one).
 */
import * as z from 'zod'
import { CreateAccessTokenBody, AccessTokenList, CreatedAccessToken, PermissionsResponse, Profile, SignInBody } from './auth'
import { HealthResponse } from './common'
import { ProjectLiveResponse, RestSchemaResponse } from './connecting'
import { DevCreateProjectBody, DevLatencyBody, DevLatencyResponse, DevSetPostgrestBody, DevSetStatusBody } from './dev'
import { DevFailNextJwtUpdateResponse, JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectSettings, V1ApiKeyList } from './keys'
import { Organization, OrganizationList, Subscription } from './organizations'
import { DevFailNextRestoreBody, DevFailNextRestoreResponse, EmptyBody, MembersReachedFreeProjectLimit, RestoreResponse, RestoreStatusResponse } from './pause'
import { Project, ProjectList, ProjectStatusResponse, UpdateProjectBody } from './projects'
import {
  DatabaseUpgradeStatusResponse,
  DevFailNextUpgradeBody,
  ProjectUpgradeEligibilityResponse,
  ProjectUpgradeInitiateResponse,
  UpgradeDatabaseBody,
} from './upgrade'
import {
  DevReadOnlyBody,
  DevResourceWarningBody,
  DevUsageBody,
  OrgUsageQuery,
  OrgUsageResponse,
  ResourceWarning,
  ResourceWarningsResponse,
  UsageMetric,
} from './usage'
import { V1ProjectList, V1ProjectWithDatabase } from './v1'

/** GET /v1/projects/{ref}/api-keys?reveal: accepted as the Management API has it (keys are shown by permission). */
export const V1ApiKeysQuery = z.object({ reveal: z.enum(['true', 'false'], 'reveal must be true or false').optional() })
/** GET /v1/projects/{ref}/upgrade/status?tracking_id: one upgrade instead of the latest. */
export const UpgradeStatusQuery = z.object({ tracking_id: z.string().max(100).optional() })

/** What the development controls of upgrade and usage answer: what they set. */
export const DevFailNextUpgradeResponse = z.object({ at_step: z.number().int() })
export const DevUsageResponse = z.object({ metric: UsageMetric, usage: z.number() })

export type ApiBase = 'platform' | 'v1' | 'dev'
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export interface Endpoint<
  Path extends string = string,
  Body extends z.ZodType | null = z.ZodType | null,
  Response extends z.ZodType | null = z.ZodType | null,
  Query extends z.ZodType | null = z.ZodType | null,
> {
  method: HttpMethod
  base: ApiBase
  /** Relative to the base, parameters as `:name`. */
  path: Path
  body: Body
  response: Response
  query: Query
}

function endpoint<
  Path extends string,
  Body extends z.ZodType | null = null,
  Response extends z.ZodType | null = null,
  Query extends z.ZodType | null = null,
>(method: HttpMethod, base: ApiBase, path: Path, schemas: { body?: Body; response?: Response; query?: Query } = {}) {
  return {
    method,
    base,
    path,
    body: (schemas.body ?? null) as Body,
    response: (schemas.response ?? null) as Response,
    query: (schemas.query ?? null) as Query,
  } satisfies Endpoint<Path, Body, Response, Query>
}

export const endpoints = {
  // Session and profile (no session needed for health and sign-in).
  health: endpoint('GET', 'platform', '/health', { response: HealthResponse }),
  signIn: endpoint('POST', 'platform', '/auth/sign-in', { body: SignInBody, response: Profile }),
  signOut: endpoint('POST', 'platform', '/auth/sign-out'),
  getProfile: endpoint('GET', 'platform', '/profile', { response: Profile }),
  getPermissions: endpoint('GET', 'platform', '/profile/permissions', { response: PermissionsResponse }),
  listAccessTokens: endpoint('GET', 'platform', '/profile/access-tokens', { response: AccessTokenList }),
  createAccessToken: endpoint('POST', 'platform', '/profile/access-tokens', { body: CreateAccessTokenBody, response: CreatedAccessToken }),
  revokeAccessToken: endpoint('DELETE', 'platform', '/profile/access-tokens/:id'),

  // Organizations.
  listOrganizations: endpoint('GET', 'platform', '/organizations', { response: OrganizationList }),
  getOrganization: endpoint('GET', 'platform', '/organizations/:slug', { response: Organization }),
  getSubscription: endpoint('GET', 'platform', '/organizations/:slug/billing/subscription', { response: Subscription }),
  getOrgUsage: endpoint('GET', 'platform', '/organizations/:slug/usage', { query: OrgUsageQuery, response: OrgUsageResponse }),
  getMembersReachedFreeProjectLimit: endpoint('GET', 'platform', '/organizations/:slug/members/reached-free-project-limit', {
    response: MembersReachedFreeProjectLimit,
  }),

  // Projects.
  listProjects: endpoint('GET', 'platform', '/projects', { response: ProjectList }),
  getProject: endpoint('GET', 'platform', '/projects/:ref', { response: Project }),
  updateProject: endpoint('PATCH', 'platform', '/projects/:ref', { body: UpdateProjectBody, response: Project }),
  getProjectStatus: endpoint('GET', 'platform', '/projects/:ref/status', { response: ProjectStatusResponse }),
  getProjectLive: endpoint('GET', 'platform', '/projects/:ref/live', { response: ProjectLiveResponse }),
  getProjectRestSchema: endpoint('GET', 'platform', '/projects/:ref/api/rest', { response: RestSchemaResponse }),
  getResourceWarnings: endpoint('GET', 'platform', '/projects-resource-warnings', { response: ResourceWarningsResponse }),

  // Pause and restore.
  pauseProject: endpoint('POST', 'v1', '/projects/:ref/pause', { body: EmptyBody }),
  restoreProjectV1: endpoint('POST', 'v1', '/projects/:ref/restore', { body: EmptyBody }),
  restoreProject: endpoint('POST', 'platform', '/projects/:ref/restore', { body: EmptyBody, response: RestoreResponse }),
  getRestoreStatus: endpoint('GET', 'platform', '/projects/:ref/restore/status', { response: RestoreStatusResponse }),

  // Postgres upgrade (Management API).
  startUpgrade: endpoint('POST', 'v1', '/projects/:ref/upgrade', { body: UpgradeDatabaseBody, response: ProjectUpgradeInitiateResponse }),
  // The server sends DatabaseUpgradeStatusWireResponse (status as a number); `response` is the dashboard's parsed
  // reading of it (the number as the spec's word), which is what a client wants from the descriptor.
  getUpgradeStatus: endpoint('GET', 'v1', '/projects/:ref/upgrade/status', {
    query: UpgradeStatusQuery,
    response: DatabaseUpgradeStatusResponse,
  }),
  getUpgradeEligibility: endpoint('GET', 'v1', '/projects/:ref/upgrade/eligibility', { response: ProjectUpgradeEligibilityResponse }),

  // API keys and JWT secret.
  getProjectSettings: endpoint('GET', 'platform', '/props/project/:ref/settings', { response: ProjectSettings }),
  updateJwtSecret: endpoint('POST', 'platform', '/props/project/:ref/jwt-secret-update', {
    body: JwtSecretUpdateBody,
    response: JwtSecretUpdateAccepted,
  }),
  getJwtSecretUpdateStatus: endpoint('GET', 'platform', '/props/project/:ref/jwt-secret-update-status', {
    response: JwtSecretUpdateStatusResponse,
  }),

  // Management API reads.
  v1ListProjects: endpoint('GET', 'v1', '/projects', { response: V1ProjectList }),
  v1GetProject: endpoint('GET', 'v1', '/projects/:ref', { response: V1ProjectWithDatabase }),
  v1ListApiKeys: endpoint('GET', 'v1', '/projects/:ref/api-keys', { query: V1ApiKeysQuery, response: V1ApiKeyList }),

  // Development controls (served only with DEV_CONTROLS=1).
  devCreateProject: endpoint('POST', 'dev', '/projects', { body: DevCreateProjectBody, response: Project }),
  devSetStatus: endpoint('POST', 'dev', '/projects/:ref/status', { body: DevSetStatusBody, response: Project }),
  devSetPostgrest: endpoint('POST', 'dev', '/projects/:ref/postgrest', { body: DevSetPostgrestBody, response: Project }),
  devSetLatency: endpoint('POST', 'dev', '/latency', { body: DevLatencyBody, response: DevLatencyResponse }),
  devFailNextRestore: endpoint('POST', 'dev', '/projects/:ref/fail-next-restore', {
    body: DevFailNextRestoreBody,
    response: DevFailNextRestoreResponse,
  }),
  devFailNextJwtUpdate: endpoint('POST', 'dev', '/projects/:ref/fail-next-jwt-update', { response: DevFailNextJwtUpdateResponse }),
  devFailNextUpgrade: endpoint('POST', 'dev', '/projects/:ref/fail-next-upgrade', {
    body: DevFailNextUpgradeBody,
    response: DevFailNextUpgradeResponse,
  }),
  devSetResourceWarning: endpoint('POST', 'dev', '/projects/:ref/resource-warnings', {
    body: DevResourceWarningBody,
    response: ResourceWarning,
  }),
  devSetReadOnly: endpoint('POST', 'dev', '/projects/:ref/read-only', { body: DevReadOnlyBody, response: ResourceWarning }),
  devSetUsage: endpoint('POST', 'dev', '/projects/:ref/usage', { body: DevUsageBody, response: DevUsageResponse }),
} as const

/** The names of a path's `:params`: '/projects/:ref/status' → 'ref'. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never

/** The route pattern the server registers: '/platform/projects/:ref/status'. */
export function routeOf(e: Pick<Endpoint, 'base' | 'path'>): string {
  return `/${e.base}${e.path}`
}

const missing: Record<string, string> = { ref: 'Project ref is required', slug: 'slug is required' }

/**
 * The path with its parameters filled in and encoded, relative to the base: ('/projects/:ref', { ref }) →
 * '/projects/abc…'. A missing or empty parameter throws (the call is never sent to a half-built URL).
 */
export function pathOf<Path extends string>(
  e: { path: Path },
  params: { [K in ParamsOf<Path>]: string | number | undefined },
): string {
  const values = params as Record<string, string | number | undefined>
  return e.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined || value === '') throw new Error(missing[name] ?? `${name} is required`)
    return encodeURIComponent(String(value))
  })
}
