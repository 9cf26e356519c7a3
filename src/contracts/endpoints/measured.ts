import { endpoint } from '../endpoint'
import { DailyUsageQuery, DailyUsageResponse, RequestLogQuery, RequestLogResponse } from '../measured'

// Measured usage per day and each project's request log (src/contracts/measured.ts).
export const getOrgDailyUsage = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/usage/daily', {
  query: DailyUsageQuery,
  response: DailyUsageResponse,
})
export const getProjectRequestLog = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/logs/requests', {
  query: RequestLogQuery,
  response: RequestLogResponse,
})
