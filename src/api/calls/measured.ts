import type { DailyUsageQuery, StatusClass } from '../../contracts/measured'
import * as endpoints from '../../contracts/endpoints/measured'
import { call, type CallOptions } from '../http'

// Measured usage per day and each project's request log.
export const getOrgDailyUsage = (slug: string | undefined, query: DailyUsageQuery, options?: CallOptions) =>
  call(endpoints.getOrgDailyUsage, { slug }, { ...options, query: { start: query.start, end: query.end, project_ref: query.project_ref || undefined } })
export const getProjectRequestLog = (ref: string | undefined, query: { status?: StatusClass; limit?: number }, options?: CallOptions) =>
  call(endpoints.getProjectRequestLog, { ref }, { ...options, query: { status: query.status, limit: query.limit === undefined ? undefined : String(query.limit) } })
