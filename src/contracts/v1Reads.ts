import * as z from 'zod/mini'
import { Region } from './database'
import { V1ProjectStatus } from './v1'

/**
 * More of the Management API's reads (../shared/reference/management-api.openapi.json), for its clients and the CLI;
 * the dashboard does not call them.
 */

/** GET /v1/profile: V1ProfileResponse. `gotrue_id` is the account's own id: accounts here are not GoTrue users. */
export const V1Profile = z.object({ gotrue_id: z.string(), primary_email: z.string(), username: z.string() })
export type V1Profile = z.infer<typeof V1Profile>

/** GET /v1/organizations/{slug}/members: V1OrganizationMemberResponse[]. */
export const V1OrganizationMember = z.object({
  user_id: z.string(),
  user_name: z.string(),
  email: z.optional(z.string()),
  role_name: z.string(),
  mfa_enabled: z.boolean(),
})
export const V1OrganizationMemberList = z.array(V1OrganizationMember)
export type V1OrganizationMemberList = z.infer<typeof V1OrganizationMemberList>

/** GET /v1/organizations/{slug}/projects: OrganizationProjectsResponse (one page, and the count of all that match). */
export const V1OrganizationProjects = z.object({
  projects: z.array(
    z.object({
      ref: z.string(),
      name: z.string(),
      cloud_provider: z.string(),
      region: z.string(),
      is_branch: z.boolean(),
      status: V1ProjectStatus,
      inserted_at: z.string(),
      databases: z.array(
        z.object({
          region: z.string(),
          status: z.enum(['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'COMING_UP', 'GOING_DOWN', 'INIT_FAILED', 'REMOVED', 'RESTORING', 'UNKNOWN', 'INIT_READ_REPLICA', 'INIT_READ_REPLICA_FAILED', 'RESTARTING', 'RESIZING']),
          cloud_provider: z.string(),
          identifier: z.string(),
          type: z.enum(['PRIMARY', 'READ_REPLICA']),
        }),
      ),
    }),
  ),
  pagination: z.object({ count: z.number(), limit: z.number(), offset: z.number() }),
})
export type V1OrganizationProjects = z.infer<typeof V1OrganizationProjects>

export const V1OrganizationProjectsQuery = z.object({
  offset: z.optional(z.coerce.number().check(z.int('offset must be a whole number'), z.gte(0, 'offset must be 0 or more'))),
  limit: z.optional(z.coerce.number().check(z.int('limit must be a whole number'), z.gte(1, 'limit must be from 1 to 100'), z.lte(100, 'limit must be from 1 to 100'))),
  search: z.optional(z.string()),
  sort: z.optional(z.enum(['name_asc', 'name_desc', 'created_asc', 'created_desc'], 'sort must be name_asc, name_desc, created_asc or created_desc')),
  statuses: z.optional(z.string()),
})

/** GET /v1/projects/{ref}/storage/buckets: V1StorageBucketResponse[]. */
export const V1StorageBucket = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  public: z.boolean(),
})
export const V1StorageBucketList = z.array(V1StorageBucket)
export type V1StorageBucketList = z.infer<typeof V1StorageBucketList>

/** GET /v1/projects/{ref}/config/storage: StorageConfigResponse. */
export const V1StorageConfig = z.object({
  fileSizeLimit: z.number().check(z.int()),
  features: z.object({
    imageTransformation: z.object({ enabled: z.boolean() }),
    s3Protocol: z.object({ enabled: z.boolean() }),
    icebergCatalog: z.object({ enabled: z.boolean(), maxNamespaces: z.number(), maxTables: z.number(), maxCatalogs: z.number() }),
    vectorBuckets: z.object({ enabled: z.boolean(), maxBuckets: z.number(), maxIndexes: z.number() }),
  }),
  capabilities: z.object({ list_v2: z.boolean(), iceberg_catalog: z.boolean() }),
  external: z.object({ upstreamTarget: z.enum(['main', 'canary']) }),
  migrationVersion: z.string(),
  databasePoolMode: z.string(),
})
export type V1StorageConfig = z.infer<typeof V1StorageConfig>

/** GET /v1/projects/{ref}/api-keys/legacy: LegacyApiKeysResponse. */
export const V1LegacyApiKeys = z.object({ enabled: z.boolean() })
export type V1LegacyApiKeys = z.infer<typeof V1LegacyApiKeys>

/** GET /v1/projects/{ref}/database/migrations/{version}: V1GetMigrationResponse. */
export const V1Migration = z.object({ version: z.string(), name: z.optional(z.string()), statements: z.optional(z.array(z.string())) })
export type V1Migration = z.infer<typeof V1Migration>

/** GET /v1/projects/{ref}/database/context: GetProjectDbMetadataResponse, the database clients connect to and its schemas. */
export const V1DatabaseContext = z.object({
  databases: z.array(z.object({ name: z.string(), schemas: z.array(z.object({ name: z.string() })) })),
})
export type V1DatabaseContext = z.infer<typeof V1DatabaseContext>

/** GET /v1/projects/available-regions: the regions a new project may be created in, grouped as the contract groups them. */
export const V1AvailableRegionsQuery = z.object({
  organization_slug: z.string().check(z.regex(/^[\w-]+$/, 'organization_slug is required')),
  continent: z.optional(z.enum(['NA', 'SA', 'EU', 'AF', 'AS', 'OC', 'AN'], 'continent must be one of NA, SA, EU, AF, AS, OC, AN')),
  desired_instance_size: z.optional(z.string()),
})
const V1SmartGroup = z.object({ name: z.string(), code: z.enum(['americas', 'emea', 'apac']), type: z.literal('smartGroup') })
const V1SpecificRegion = z.object({
  name: z.string(),
  code: Region,
  type: z.literal('specific'),
  provider: z.enum(['AWS', 'FLY', 'AWS_K8S', 'AWS_NIMBUS']),
  status: z.optional(z.enum(['capacity', 'other'])),
})
export const V1AvailableRegions = z.object({
  recommendations: z.object({ smartGroup: V1SmartGroup, specific: z.array(V1SpecificRegion) }),
  all: z.object({ smartGroup: z.array(V1SmartGroup), specific: z.array(V1SpecificRegion) }),
})
export type V1AvailableRegions = z.infer<typeof V1AvailableRegions>

/** GET /v1/projects/{ref}/billing/addons: ListProjectAddonsResponse. */
const V1AddonVariant = z.object({
  id: z.string(),
  name: z.string(),
  price: z.object({ description: z.string(), type: z.enum(['fixed', 'usage']), interval: z.enum(['monthly', 'hourly']), amount: z.number() }),
})
export const V1ProjectAddons = z.object({
  selected_addons: z.array(z.object({ type: z.string(), variant: V1AddonVariant })),
  available_addons: z.array(z.object({ type: z.string(), name: z.string(), variants: z.array(V1AddonVariant) })),
})
export type V1ProjectAddons = z.infer<typeof V1ProjectAddons>

/** GET /v1/projects/{ref}/vanity-subdomain: VanitySubdomainConfigResponse. */
export const V1VanitySubdomain = z.object({
  status: z.enum(['not-used', 'custom-domain-used', 'active']),
  custom_domain: z.optional(z.string()),
})
export type V1VanitySubdomain = z.infer<typeof V1VanitySubdomain>

/** GET /v1/projects/{ref}/config/disk: DiskResponse. */
export const V1DiskConfig = z.object({
  attributes: z.object({ type: z.literal('gp3'), size_gb: z.number().check(z.int(), z.positive()), iops: z.number().check(z.int(), z.positive()) }),
  last_modified_at: z.optional(z.string()),
})
export type V1DiskConfig = z.infer<typeof V1DiskConfig>

/** GET /v1/projects/{ref}/config/disk/autoscale: DiskAutoscaleConfig (null everywhere: no autoscaling). */
export const V1DiskAutoscale = z.object({
  growth_percent: z.nullable(z.number()),
  min_increment_gb: z.nullable(z.number()),
  max_size_gb: z.nullable(z.number()),
})
export type V1DiskAutoscale = z.infer<typeof V1DiskAutoscale>

/** GET /v1/projects/{ref}/advisors/security and …/performance: V1ProjectAdvisorsResponse, the lints of splinter's shape. */
export const V1Lint = z.object({
  name: z.string(),
  title: z.string(),
  level: z.enum(['ERROR', 'WARN', 'INFO']),
  facing: z.literal('EXTERNAL'),
  categories: z.array(z.enum(['PERFORMANCE', 'SECURITY'])),
  description: z.string(),
  detail: z.string(),
  remediation: z.string(),
  metadata: z.optional(
    z.object({
      schema: z.optional(z.string()),
      name: z.optional(z.string()),
      type: z.optional(z.enum(['table', 'view', 'auth', 'function', 'extension', 'compliance'])),
      fkey_name: z.optional(z.string()),
      fkey_columns: z.optional(z.array(z.number())),
    }),
  ),
  cache_key: z.string(),
})
export type V1Lint = z.infer<typeof V1Lint>
export const V1Advisors = z.object({ lints: z.array(V1Lint) })
export type V1Advisors = z.infer<typeof V1Advisors>

/** GET /v1/projects/{ref}/database/openapi: the PostgREST OpenAPI document of one schema the API serves. */
export const V1DatabaseOpenApiQuery = z.object({ schema: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'schema must be a schema name'))) })

/** GET /v1/projects/{ref}/analytics/endpoints/usage.api-counts: AnalyticsResponse of per-product request counts. */
export const V1UsageApiCountsQuery = z.object({
  interval: z.optional(z.enum(['15min', '30min', '1hr', '3hr', '1day', '3day', '7day'], 'interval must be one of 15min, 30min, 1hr, 3hr, 1day, 3day, 7day')),
})
export const V1UsageApiCounts = z.object({
  result: z.array(
    z.object({
      timestamp: z.string(),
      total_auth_requests: z.number(),
      total_realtime_requests: z.number(),
      total_rest_requests: z.number(),
      total_storage_requests: z.number(),
    }),
  ),
})
export type V1UsageApiCounts = z.infer<typeof V1UsageApiCounts>

/** GET /v1/projects/{ref}/analytics/endpoints/usage.api-requests-count: the requests of the last 24 hours. */
export const V1UsageRequestCount = z.object({ result: z.array(z.object({ count: z.number() })) })
export type V1UsageRequestCount = z.infer<typeof V1UsageRequestCount>

/** A signing key (SigningKeyResponse): here only the legacy JWT secret, HS256, which has no public part. */
export const V1SigningKey = z.object({
  id: z.string(),
  algorithm: z.enum(['EdDSA', 'ES256', 'RS256', 'HS256']),
  status: z.enum(['in_use', 'previously_used', 'revoked', 'standby']),
  public_jwk: z.nullable(z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
})
export type V1SigningKey = z.infer<typeof V1SigningKey>
export const V1SigningKeys = z.object({ keys: z.array(V1SigningKey) })
export type V1SigningKeys = z.infer<typeof V1SigningKeys>

/** GET /v1/projects/{ref}/config/auth/third-party-auth: ThirdPartyAuth[] (none can be added here). */
export const V1ThirdPartyAuthList = z.array(
  z.object({ id: z.string(), type: z.string(), oidc_issuer_url: z.optional(z.nullable(z.string())), inserted_at: z.string(), updated_at: z.string() }),
)
export type V1ThirdPartyAuthList = z.infer<typeof V1ThirdPartyAuthList>

/** GET /v1/projects/{ref}/config/auth/sso/providers: ListProvidersResponse (no SAML here). */
export const V1SsoProviders = z.object({ items: z.array(z.object({ id: z.string() })) })
export type V1SsoProviders = z.infer<typeof V1SsoProviders>

/** GET /v1/projects/{ref}/database/jit/list: JitListAccessResponse (the platform grants no temporary access). */
export const V1JitAccessList = z.object({ items: z.array(z.object({ user_id: z.string(), user_roles: z.array(z.object({ role: z.string() })) })) })
export type V1JitAccessList = z.infer<typeof V1JitAccessList>

/**
 * GET /v1/projects/{ref}/functions/{slug}/body as JSON (the contract's object): the deployed version's files, by
 * their path in the function's folder, and which of them is the entrypoint.
 */
export const V1FunctionBody = z.object({
  slug: z.string(),
  version: z.number(),
  entrypoint_path: z.string(),
  files: z.array(z.object({ name: z.string(), content: z.string() })),
})
export type V1FunctionBody = z.infer<typeof V1FunctionBody>

/** GET /v1/projects/{ref}/config/disk/util: DiskUtilMetricsResponse. */
export const V1DiskUtil = z.object({
  timestamp: z.string(),
  metrics: z.object({ fs_size_bytes: z.number(), fs_avail_bytes: z.number(), fs_used_bytes: z.number() }),
})
export type V1DiskUtil = z.infer<typeof V1DiskUtil>

/** GET /v1/projects/{ref}/jit-access: the project's temporary access configuration (the platform grants none). */
export const V1JitAccessConfig = z.object({ state: z.enum(['enabled', 'disabled']), appliedSuccessfully: z.optional(z.boolean()) })
export type V1JitAccessConfig = z.infer<typeof V1JitAccessConfig>

/** The Postgres engines the contract names for a restore. */
export const V1RestoreEngine = z.enum(['13', '14', '15', '17', '17-oriole'])
/** GET /v1/projects/{ref}/restore: the versions a paused project may be restored onto. */
export const V1RestoreVersions = z.object({
  available_versions: z.array(
    z.object({
      version: z.string(),
      release_channel: z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview']),
      postgres_engine: V1RestoreEngine,
    }),
  ),
})
export type V1RestoreVersions = z.infer<typeof V1RestoreVersions>

/** GET /v1/organizations/{slug}/entitlements: the features the organization's plan opens, of those the platform decides on (boolean ones). */
export const V1Entitlement = z.object({
  feature: z.object({ key: z.string(), type: z.literal('boolean') }),
  hasAccess: z.boolean(),
  type: z.literal('boolean'),
  config: z.object({ enabled: z.boolean() }),
})
export const V1Entitlements = z.object({ entitlements: z.array(V1Entitlement) })
export type V1Entitlements = z.infer<typeof V1Entitlements>
