/**
 * Usage the local platform measures: per project and day, what each project's REST endpoint served, and
 * the project database's size; and each project's request log.
 *   GET /platform/organizations/{slug}/usage/daily?project_ref&start&end   DailyUsageQuery -> DailyUsageResponse
 *   GET /platform/projects/{ref}/logs/requests?status&limit                RequestLogQuery -> RequestLogResponse
 * Sizes are bytes here; the usage records of ./usage count EGRESS and DATABASE_SIZE in GB (BYTES_PER_GB).
 */
import * as z from 'zod/mini'
import { OrgUsageQuery } from './usage'

/** The GB of the usage records (EGRESS, DATABASE_SIZE, STORAGE_SIZE): 1024³ bytes. */
export const BYTES_PER_GB = 1024 ** 3
/** Longest range of a daily query, in days. */
export const MAX_DAILY_RANGE_DAYS = 366
const DAY_MS = 86_400_000

/** The UTC day ('2026-11-24') an ISO date or date-time falls on. */
export const utcDay = (iso: string) => new Date(Date.parse(iso)).toISOString().slice(0, 10)

/** Every UTC day from start's to end's, both included. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = []
  for (let t = Date.parse(utcDay(start)); t <= Date.parse(utcDay(end)); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

export const DailyUsageQuery = OrgUsageQuery.check(
  z.refine((q) => daysBetween(q.start, q.end).length <= MAX_DAILY_RANGE_DAYS, {
    message: `start and end must be at most ${MAX_DAILY_RANGE_DAYS} days apart`,
    path: ['end'],
  }),
)
export type DailyUsageQuery = z.infer<typeof DailyUsageQuery>

const count = z.number().check(z.int(), z.gte(0))

/** One UTC day of the measured figures (zeros on a day without requests). */
export const DailyUsage = z.object({
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  /** REST requests served. */
  requests: count,
  /** Bytes of the REST answers' bodies. */
  egress_bytes: count,
  /** Mean and longest response time of the day's requests (null without requests), ms. */
  response_ms_avg: z.nullable(z.number().check(z.gte(0))),
  response_ms_max: z.nullable(z.number().check(z.gte(0))),
  /** The project databases' size last measured that day (summed over projects), null when none was measured. */
  database_size_bytes: z.nullable(count),
})
export type DailyUsage = z.infer<typeof DailyUsage>
export const DailyUsageResponse = z.object({ days: z.array(DailyUsage) })
export type DailyUsageResponse = z.infer<typeof DailyUsageResponse>

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const
export const StatusClass = z.enum(STATUS_CLASSES)
export type StatusClass = z.infer<typeof StatusClass>
/** Entries a project's request log keeps (the oldest go first). */
export const REQUEST_LOG_LIMIT = 1_000

export const RequestLogQuery = z.object({
  status: z.optional(StatusClass),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,4}$/, 'limit must be a whole number')),
      z.transform((value: string) => Number(value)),
    ).check(z.refine((n: number) => n >= 1 && n <= REQUEST_LOG_LIMIT, { message: `limit must be between 1 and ${REQUEST_LOG_LIMIT}` })),
  ),
})
export type RequestLogQuery = z.input<typeof RequestLogQuery>

/** One request to the project's REST endpoint. `path` never holds a key or token (they are removed before it is kept). */
export const RequestLogEntry = z.object({
  id: z.string(),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().check(z.int()),
  duration_ms: z.number().check(z.gte(0)),
  bytes: count,
})
export type RequestLogEntry = z.infer<typeof RequestLogEntry>
/** Newest first. */
export const RequestLogResponse = z.object({ entries: z.array(RequestLogEntry) })
export type RequestLogResponse = z.infer<typeof RequestLogResponse>
