/** Fixtures of the usage, Reports and Logs pages: answers shaped as the platform gives them. */
import type { DailyUsage, RequestLogEntry } from '../src/contracts/measured'
import type { OrgUsageData } from '../machines/orgUsage.machine'
import type { ResourceWarning, UsageRecord } from '../src/contracts/usage'
import { REF } from './fixtures'

export const OTHER_REF = 'tsrqponmlkjihgfedcba'
export const GB = 1024 ** 3

const record = (metric: UsageRecord['metric'], usage: number, free: number | undefined, extra: Partial<UsageRecord> = {}): UsageRecord => ({
  metric,
  usage,
  capped: true,
  available_in_plan: true,
  unlimited: false,
  ...(free === undefined ? {} : { pricing_free_units: free }),
  ...extra,
})

/** Free plan usage: egress over its 5 GB, the rest within. */
export const USAGES: UsageRecord[] = [
  record('EGRESS', 12.5, 5),
  record('DATABASE_SIZE', 25 * 1024 ** 2 / GB, 0.5),
  record('STORAGE_SIZE', 0, 1),
  record('MONTHLY_ACTIVE_USERS', 0, 50_000),
  record('FUNCTION_INVOCATIONS', 0, 500_000),
  record('REALTIME_MESSAGE_COUNT', 0, 2_000_000),
  record('REALTIME_PEAK_CONNECTIONS', 0, 200),
]

export const DAYS: DailyUsage[] = [
  { date: '2026-11-01', requests: 0, egress_bytes: 0, response_ms_avg: null, response_ms_max: null, database_size_bytes: null },
  { date: '2026-11-02', requests: 42, egress_bytes: 12_800, response_ms_avg: 3.5, response_ms_max: 20, database_size_bytes: 25 * 1024 ** 2 },
  { date: '2026-11-03', requests: 7, egress_bytes: 2_048, response_ms_avg: 150, response_ms_max: 400, database_size_bytes: null },
]

export const PROJECTS = [
  { ref: REF, name: 'Recipe Box' },
  { ref: OTHER_REF, name: 'Weekend Hackathon' },
]

const warning = (project: string, extra: Partial<ResourceWarning> = {}): ResourceWarning => ({
  project,
  is_readonly_mode_enabled: false,
  disk_io_exhaustion: null,
  disk_space_exhaustion: null,
  cpu_exhaustion: null,
  memory_and_swap_exhaustion: null,
  ...extra,
})
/** Weekend Hackathon in read-only mode; Recipe Box with a CPU warning (hidden on the usage page). */
export const WARNINGS: ResourceWarning[] = [warning(REF, { cpu_exhaustion: 'warning' }), warning(OTHER_REF, { is_readonly_mode_enabled: true })]

export const USAGE_DATA: OrgUsageData = {
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-03T12:00:00.000Z' },
  usages: USAGES,
  days: DAYS,
  projects: PROJECTS,
  warnings: WARNINGS,
}

export const LOG_ENTRIES: RequestLogEntry[] = [
  { id: '3', at: '2026-11-03T10:00:02.000Z', method: 'GET', path: '/rest/v1/no_such_table', status: 404, duration_ms: 1.25, bytes: 120 },
  { id: '2', at: '2026-11-03T10:00:01.000Z', method: 'POST', path: '/rest/v1/recipes', status: 201, duration_ms: 8.5, bytes: 0 },
  { id: '1', at: '2026-11-03T10:00:00.000Z', method: 'GET', path: '/rest/v1/recipes?select=title', status: 200, duration_ms: 3, bytes: 2_048 },
]
