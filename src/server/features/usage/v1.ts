/**
 * The Management API's reads of a project's measured requests, for any member of its organization, from what the
 * usage meter counts (core/meter.ts: every request the gateway serves, per UTC hour and product; flushed first, so
 * the answer includes the request just served):
 *   GET /v1/projects/{ref}/analytics/endpoints/usage.api-counts           ?interval (15min … 7day, default 1day): one
 *        row per UTC hour that overlaps the interval, oldest first, with the requests to REST, auth, storage and
 *        realtime (an hour is the finest count kept, so 15min reads the hour it falls in)
 *   GET /v1/projects/{ref}/analytics/endpoints/usage.api-requests-count   every request of the last 24 hours (the hours
 *        that overlap them), edge functions included
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1UsageApiCounts, V1UsageApiCountsQuery, V1UsageRequestCount } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, validate, type AppEnv } from '../../core/http'
import type { UsageMeter } from '../../core/meter'
import { memberProject, refParam } from '../projects/access'

const v1UsageApiCounts = endpoint('GET', 'v1', '/projects/:ref/analytics/endpoints/usage.api-counts', { query: V1UsageApiCountsQuery, response: V1UsageApiCounts })
const v1UsageRequestCount = endpoint('GET', 'v1', '/projects/:ref/analytics/endpoints/usage.api-requests-count', { response: V1UsageRequestCount })

const HOUR = 3_600_000
const INTERVAL_MS = { '15min': HOUR / 4, '30min': HOUR / 2, '1hr': HOUR, '3hr': 3 * HOUR, '1day': 24 * HOUR, '3day': 72 * HOUR, '7day': 168 * HOUR } as const
const floorHour = (ms: number) => Math.floor(ms / HOUR) * HOUR

export function usageV1Routes({ db, clock }: Deps, meter: Pick<UsageMeter, 'flush'>) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1UsageApiCounts), refParam, validate('query', V1UsageApiCountsQuery), project, async (c) => {
    await meter.flush()
    const now = clock.now().getTime()
    const first = floorHour(now - INTERVAL_MS[c.req.valid('query').interval ?? '1day'])
    const last = floorHour(now)
    const { rows } = await db.query<{ hour: Date | string; product: string; requests: number }>(
      `select hour, product, requests::float8 as requests from project_usage_hourly
       where project_id = $1 and hour >= $2 and hour <= $3 and product in ('rest', 'auth', 'storage', 'realtime')`,
      [c.var.project.id, new Date(first).toISOString(), new Date(last).toISOString()],
    )
    const byHour = new Map<number, Record<string, number>>()
    for (const r of rows) {
      const hour = new Date(r.hour).getTime()
      byHour.set(hour, { ...byHour.get(hour), [r.product]: Number(r.requests) })
    }
    const result: V1UsageApiCounts['result'] = []
    for (let hour = first; hour <= last; hour += HOUR) {
      const n = byHour.get(hour) ?? {}
      result.push({
        timestamp: new Date(hour).toISOString(),
        total_auth_requests: n.auth ?? 0,
        total_realtime_requests: n.realtime ?? 0,
        total_rest_requests: n.rest ?? 0,
        total_storage_requests: n.storage ?? 0,
      })
    }
    return c.json({ result } satisfies V1UsageApiCounts)
  })

  app.on(...at(v1UsageRequestCount), refParam, project, async (c) => {
    await meter.flush()
    const since = floorHour(clock.now().getTime() - 24 * HOUR)
    const { rows } = await db.query<{ count: number }>(
      'select coalesce(sum(requests), 0)::float8 as count from project_usage_hourly where project_id = $1 and hour >= $2',
      [c.var.project.id, new Date(since).toISOString()],
    )
    return c.json({ result: [{ count: Number(rows[0].count) }] } satisfies V1UsageRequestCount)
  })

  return app
}
