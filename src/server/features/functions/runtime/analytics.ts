/**
 * The Management API's analytics endpoints, as far as functions go, answered from the invocations and console lines
 * the runtime records (logs.ts: the last 1,000 entries per function, in the platform's store):
 *   GET /v1/projects/{ref}/analytics/endpoints/functions.combined-stats?interval=&function_id=
 *        → { result: [{ timestamp, requests_count, success_count, …, avg_execution_time, avg_cpu_time_used (ms),
 *          avg_memory_used (MB), log_count, … }] }, one row
 *          per minute (15min, 1hr) or hour (3hr, 1day) that has something, oldest first (the dashboard fills gaps)
 *   GET /v1/projects/{ref}/analytics/endpoints/logs.all?sql=&iso_timestamp_start=&iso_timestamp_end=
 *        → { result: rows } of the platform's query form (logQuery.ts) over the sources function_edge_logs (one row
 *          per invocation) and function_logs (console output, boot and shutdown), shaped as the platform's:
 *          `timestamp` in microseconds, the details in `metadata[]` (with `request[]` and `response[]` for
 *          invocations). Without start and end the last minute is read; a range over 24 hours is refused.
 * Any member of the project reads them. Other sources (edge_logs, postgres_logs…) are not kept here and are refused
 * by name, as is SQL outside the subset, with 400 `{ error }`.
 */
import { Hono } from 'hono'
import * as endpoints from '../../../../contracts/endpoints'
import { emptyCombinedStatsRow, type AnalyticsResponse, type CombinedStats, type CombinedStatsRow } from '../../../../contracts/functions'
import type { Deps } from '../../../core/deps'
import { at, validate, type AppEnv } from '../../../core/http'
import { memberProject, refParam } from '../../projects/access'
import type { FunctionRuntime } from './index'
import type { FunctionLogEntry } from './logs'
import { LogQueryError, runLogQuery, type LogRecord } from './logQuery'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** Each interval's reach and bucket. */
const INTERVALS = {
  '15min': { span: 15 * MINUTE, bucket: MINUTE },
  '1hr': { span: HOUR, bucket: MINUTE },
  '3hr': { span: 3 * HOUR, bucket: HOUR },
  '1day': { span: 24 * HOUR, bucket: HOUR },
} as const

/** The longest range logs.all reads, and what it reads when given none. */
const MAX_RANGE = 24 * HOUR
const DEFAULT_RANGE = MINUTE

/** Sums of a bucket's measured invocations, for its averages (an invocation refused before a worker has none). */
interface Totals {
  time: number
  cpu: number
  cpuCount: number
  memory: number
  heap: number
  external: number
  memoryCount: number
}

const emptyRow = (start: number): CombinedStatsRow => emptyCombinedStatsRow(new Date(start).toISOString())

/** The bucket rows of one function's entries from `since` on. */
export function combinedStats(entries: FunctionLogEntry[], since: number, bucket: number): CombinedStatsRow[] {
  const rows = new Map<number, { row: CombinedStatsRow; totals: Totals }>()
  for (const e of entries) {
    if (e.timestamp < since) continue
    const start = Math.floor(e.timestamp / bucket) * bucket
    let slot = rows.get(start)
    if (!slot) rows.set(start, (slot = { row: emptyRow(start), totals: { time: 0, cpu: 0, cpuCount: 0, memory: 0, heap: 0, external: 0, memoryCount: 0 } }))
    const { row, totals } = slot
    if (e.kind === 'invocation') {
      const status = e.status ?? 0
      row.requests_count++
      if (status >= 500) row.server_err_count++
      else if (status >= 400) row.client_err_count++
      else if (status >= 300) row.redirect_count++
      else row.success_count++
      const ms = e.duration_ms ?? 0
      totals.time += ms
      row.max_execution_time = Math.max(row.max_execution_time, ms)
      row.avg_execution_time = totals.time / row.requests_count
      if (e.cpu_time_ms !== undefined) {
        totals.cpu += e.cpu_time_ms
        totals.cpuCount++
        row.max_cpu_time_used = Math.max(row.max_cpu_time_used, e.cpu_time_ms)
        row.avg_cpu_time_used = totals.cpu / totals.cpuCount
      }
      if (e.memory_mb !== undefined) {
        totals.memory += e.memory_mb
        totals.heap += e.heap_memory_mb ?? 0
        totals.external += e.external_memory_mb ?? 0
        totals.memoryCount++
        row.avg_memory_used = totals.memory / totals.memoryCount
        row.avg_heap_memory_used = totals.heap / totals.memoryCount
        row.avg_external_memory_used = totals.external / totals.memoryCount
      }
    } else {
      row.log_count++
      if (e.level === 'error') row.log_error_count++
      else row.log_info_count++
    }
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, { row }]) => row)
}

interface FunctionMeta {
  id: string
  slug: string
  version: number
}

/** The function's entries as the platform's two log sources hold them. */
function asSources(ref: string, fn: FunctionMeta, entries: FunctionLogEntry[]) {
  const edge: LogRecord[] = []
  const logs: LogRecord[] = []
  for (const e of entries) {
    const version = e.version ?? fn.version
    const common = { function_id: fn.id, project_ref: ref, version: String(version), deployment_id: `${ref}_${fn.id}_${version}` }
    const timestamp = e.timestamp * 1_000
    if (e.kind === 'invocation') {
      const pathname = e.path ?? `/${fn.slug}`
      edge.push({
        id: e.id,
        timestamp,
        event_message: e.event_message,
        metadata: [
          {
            ...common,
            execution_time_ms: e.duration_ms ?? null,
            request: [{ method: e.method ?? null, pathname: `/functions/v1${pathname}`, url: `/functions/v1${pathname}` }],
            response: [{ status_code: e.status ?? null }],
          },
        ],
      })
    } else {
      const eventType = e.kind === 'console' ? 'Log' : e.kind === 'boot' ? 'Boot' : 'Shutdown'
      logs.push({ id: e.id, timestamp, event_message: e.event_message, metadata: [{ ...common, event_type: eventType, level: e.level }] })
    }
  }
  return { edge, logs }
}

export function functionAnalyticsRoutes({ db, clock }: Pick<Deps, 'db' | 'clock'>, runtime: Pick<FunctionRuntime, 'logs'>) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  const functionsOf = async (projectId: number) =>
    (await db.query<FunctionMeta>('select id::text as id, slug, version from edge_functions where project_id = $1', [projectId])).rows

  app.on(...at(endpoints.functionCombinedStats), refParam, validate('query', endpoints.functionCombinedStats.query), project, async (c) => {
    const { interval, function_id } = c.req.valid('query')
    // Only a function of this project: another project's function id reads nothing of it.
    const fn = (await functionsOf(c.var.project.id)).find((f) => f.id === function_id)
    if (!fn) return c.json({ error: `No edge function with the id ${function_id} in this project` } satisfies AnalyticsResponse, 404)
    const { span, bucket } = INTERVALS[interval]
    const since = Math.floor((clock.now().getTime() - span) / bucket) * bucket
    c.header('cache-control', 'no-store')
    return c.json({ result: combinedStats(await runtime.logs.list(fn.id, { since }), since, bucket) } satisfies CombinedStats)
  })

  app.on(...at(endpoints.projectLogs), refParam, validate('query', endpoints.projectLogs.query), project, async (c) => {
    const { sql, iso_timestamp_start, iso_timestamp_end } = c.req.valid('query')
    const now = clock.now().getTime()
    const end = iso_timestamp_end ? Date.parse(iso_timestamp_end) : now
    const start = iso_timestamp_start ? Date.parse(iso_timestamp_start) : end - DEFAULT_RANGE
    if (end < start) return c.json({ error: 'iso_timestamp_end is before iso_timestamp_start' } satisfies AnalyticsResponse, 400)
    if (end - start > MAX_RANGE) return c.json({ error: 'The timestamp range must be no more than 24 hours' } satisfies AnalyticsResponse, 400)
    if (sql === undefined || sql.trim() === '') {
      return c.json({ error: 'This platform keeps only function logs: give sql over function_edge_logs or function_logs' } satisfies AnalyticsResponse, 400)
    }
    const edge: LogRecord[] = []
    const logs: LogRecord[] = []
    const functions = await functionsOf(c.var.project.id)
    const kept = await runtime.logs.listMany(functions.map((fn) => fn.id), { since: start, until: end })
    for (const fn of functions) {
      const sources = asSources(c.var.project.ref, fn, kept.get(fn.id) ?? [])
      edge.push(...sources.edge)
      logs.push(...sources.logs)
    }
    try {
      const result = await runLogQuery(sql, (name) => (name === 'function_edge_logs' ? edge : name === 'function_logs' ? logs : undefined))
      c.header('cache-control', 'no-store')
      return c.json({ result } satisfies AnalyticsResponse)
    } catch (err) {
      if (err instanceof LogQueryError) return c.json({ error: err.message } satisfies AnalyticsResponse, 400)
      throw err
    }
  })

  return app
}
