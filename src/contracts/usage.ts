/**
 * Resource warnings and organization usage (spec sections 3, 4 and 5).
 *   GET /platform/projects-resource-warnings                           ResourceWarningsResponse
 *   GET /platform/organizations/{slug}/usage?project_ref&start&end     OrgUsageQuery -> OrgUsageResponse
 * Development controls:
 *   POST /dev/projects/{ref}/resource-warnings   DevResourceWarningBody  raise (or clear, level null) a warning
 *   POST /dev/projects/{ref}/read-only           DevReadOnlyBody         read-only mode on or off
 *   POST /dev/projects/{ref}/usage               DevUsageBody            set a metric's usage (e.g. over its limit)
 */
import * as z from 'zod/mini'
import { ProjectRef } from './common'

export const WarningLevel = z.enum(['warning', 'critical'])
export type WarningLevel = z.infer<typeof WarningLevel>
export const RESOURCES = ['disk_io_exhaustion', 'disk_space_exhaustion', 'cpu_exhaustion', 'memory_and_swap_exhaustion'] as const
export const Resource = z.enum(RESOURCES)
export type Resource = z.infer<typeof Resource>

export const ResourceWarning = z.object({
  project: z.string(),
  is_readonly_mode_enabled: z.boolean(),
  disk_io_exhaustion: z.nullable(WarningLevel),
  disk_space_exhaustion: z.nullable(WarningLevel),
  cpu_exhaustion: z.nullable(WarningLevel),
  memory_and_swap_exhaustion: z.nullable(WarningLevel),
})
export type ResourceWarning = z.infer<typeof ResourceWarning>
export const ResourceWarningsResponse = z.array(ResourceWarning)

export const USAGE_METRICS = [
  'EGRESS',
  'DATABASE_SIZE',
  'STORAGE_SIZE',
  'MONTHLY_ACTIVE_USERS',
  'FUNCTION_INVOCATIONS',
  'REALTIME_MESSAGE_COUNT',
  'REALTIME_PEAK_CONNECTIONS',
] as const
export const UsageMetric = z.enum(USAGE_METRICS)
export type UsageMetric = z.infer<typeof UsageMetric>

const isoDate = (name: string) =>
  z.string({ error: `${name} is required` }).check(
    z.refine((value: string) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value)), {
      message: `${name} must be an ISO date`,
    }),
  )

export const OrgUsageQuery = z
  .object({ project_ref: z.optional(ProjectRef), start: isoDate('start'), end: isoDate('end') })
  .check(z.refine((q) => Date.parse(q.start) <= Date.parse(q.end), { message: 'start must not be after end', path: ['start'] }))
export type OrgUsageQuery = z.infer<typeof OrgUsageQuery>

export const UsageRecord = z.object({
  metric: UsageMetric,
  usage: z.number(),
  capped: z.boolean(),
  available_in_plan: z.boolean(),
  unlimited: z.boolean(),
  pricing_free_units: z.optional(z.nullable(z.number())),
})
export type UsageRecord = z.infer<typeof UsageRecord>
export const OrgUsageResponse = z.object({ usages: z.array(UsageRecord) })
export type OrgUsageResponse = z.infer<typeof OrgUsageResponse>

export const DevResourceWarningBody = z.object({ resource: Resource, level: z.nullable(WarningLevel) })
export const DevReadOnlyBody = z.object({ enabled: z.boolean() })
export const DevUsageBody = z.object({ metric: UsageMetric, usage: z.number().check(z.gte(0)) })

/** What the development control answers: the usage it set. */
export const DevUsageResponse = z.object({ metric: UsageMetric, usage: z.number() })
