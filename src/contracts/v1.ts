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
