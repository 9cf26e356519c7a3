import * as z from 'zod/mini'
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
