import * as z from 'zod/mini'

/**
 * Management API shapes (../shared/reference/management-api.openapi.json).
 * The v1 status enum is wider than the dashboard's and spells RESTORATION_FAILED as RESTORE_FAILED.
 */
export const V1ProjectStatus = z.enum([
  'INACTIVE', 'ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'COMING_UP', 'UNKNOWN', 'GOING_DOWN', 'INIT_FAILED',
  'REMOVED', 'RESTORING', 'UPGRADING', 'PAUSING', 'RESTORE_FAILED', 'RESTARTING', 'PAUSE_FAILED', 'RESIZING',
])

export const V1ProjectWithDatabase = z.object({
  id: z.string(),
  ref: z.string().check(z.regex(/^[a-z]{20}$/)),
  organization_id: z.string(),
  organization_slug: z.string().check(z.regex(/^[\w-]+$/)),
  name: z.string(),
  region: z.string(),
  created_at: z.string(),
  status: V1ProjectStatus,
  database: z.object({
    host: z.string(),
    version: z.string(),
    postgres_engine: z.string(),
    release_channel: z.string(),
  }),
})
export type V1ProjectWithDatabase = z.infer<typeof V1ProjectWithDatabase>
export const V1ProjectList = z.array(V1ProjectWithDatabase)

/** DELETE /v1/projects/{ref}: V1ProjectRefResponse, the project that was deleted (its numeric id, ref and name). */
export const V1ProjectRefResponse = z.object({ id: z.int(), ref: z.string().check(z.regex(/^[a-z]{20}$/)), name: z.string() })
export type V1ProjectRefResponse = z.infer<typeof V1ProjectRefResponse>

/** GET /v1/organizations: OrganizationResponseV1. `id` is deprecated in the contract ("use slug"): it carries the slug. */
export const V1Organization = z.object({
  id: z.string(),
  slug: z.string().check(z.regex(/^[\w-]+$/)),
  name: z.string(),
})
export type V1Organization = z.infer<typeof V1Organization>
export const V1OrganizationList = z.array(V1Organization)
export type V1OrganizationList = z.infer<typeof V1OrganizationList>

/** The opt-in tags the contract knows (V1OrganizationSlugResponse.opt_in_tags). */
export const V1OptInTag = z.enum(['AI_SQL_GENERATOR_OPT_IN', 'AI_DATA_GENERATOR_OPT_IN', 'AI_LOG_GENERATOR_OPT_IN'])
export type V1OptInTag = z.infer<typeof V1OptInTag>

/** GET /v1/organizations/{slug}: V1OrganizationSlugResponse (`id` is the slug, as in the list). */
export const V1OrganizationDetail = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.optional(z.enum(['free', 'pro', 'team', 'enterprise', 'platform'])),
  opt_in_tags: z.array(V1OptInTag),
  allowed_release_channels: z.array(z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview'])),
})
export type V1OrganizationDetail = z.infer<typeof V1OrganizationDetail>
