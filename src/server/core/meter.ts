/**
 * The usage meter: what each project's REST endpoint served, counted in memory on the request path (a map update
 * and an array push, no I/O) and added to the store (migration 014) every `flushMs`, before a usage read, and on
 * close. Every request the gateway serves is also counted per UTC hour and product (rest, auth, storage, realtime,
 * functions: migration 039), which the Management API's usage counts read. Additive upserts: several server processes on one PostgreSQL each add their own counts.
 * Invariants: a failed flush puts what it took back, so nothing counted is lost while the process lives; the
 * request log keeps at most `logLimit` entries per project (in memory and in the store); it never holds a key
 * or token (`loggablePath`). Database sizes are read from the project's own database (pg_database_size) only
 * while it is open, so measuring never opens (or keeps open) a database that nothing else uses.
 */
import type { Clock } from '../config'
import type { Db } from '../db'
import { isSecretName, REDACTED, redactSecrets } from './redact'
import type { ProjectDatabases } from '../projectdb/types'

export interface RequestSample {
  projectId: number
  /** The project's ref (to find its database for a size reading). */
  ref: string
  method: string
  /** The request's path and query as sent (made loggable here). */
  url: URL
  status: number
  durationMs: number
  bytes: number
}

export interface UsageMeter {
  /** Counts one request (synchronous, no I/O). */
  record(sample: RequestSample): void
  /** Adds everything counted so far to the store (serialised; resolves once written). */
  flush(): Promise<void>
  /** Reads the size of each given project's database that is open now and keeps it as today's figure. */
  measureDatabaseSizes(projects: { id: number; ref: string }[]): Promise<void>
  /** Stops the periodic flush and flushes one last time. */
  stop(): Promise<void>
}

interface DayTotals {
  projectId: number
  day: string
  requests: number
  egress: number
  msTotal: number
  msMax: number
}

/** Requests of one project to one product in one UTC hour. */
interface HourTotals {
  projectId: number
  hour: string
  product: string
  requests: number
}

/** The product a request of the project's API went to: `/p/{ref}/{product}/v1/…`. */
function productOf(url: URL): string {
  return /^\/p\/[^/]+\/([a-z]+)\//.exec(url.pathname)?.[1] ?? 'other'
}

interface LogEntry {
  projectId: number
  at: string
  method: string
  path: string
  status: number
  durationMs: number
  bytes: number
}

const MAX_PATH = 1_000

/**
 * The path and query of a REST request as the log keeps it: without `/p/{ref}`, without apikey, the values of
 * parameters named like secrets (core/redact.ts: key, token, secret, password, auth, signature) masked, and any JWT- or
 * token-shaped text masked wherever it is (a path segment, a value, a name). Masked before it is cut to length,
 * so no part of a token is kept either.
 */
export function loggablePath(url: URL): string {
  const path = url.pathname.replace(/^\/p\/[^/]+/, '')
  const kept = new URLSearchParams()
  for (const [name, value] of url.searchParams) {
    if (name.toLowerCase() === 'apikey') continue
    kept.append(name, isSecretName(name) ? REDACTED : value)
  }
  const query = kept.toString()
  const full = redactSecrets(query === '' ? path : `${path}?${decodeURIComponent(query.replace(/\+/g, '%20'))}`)
  return full.length > MAX_PATH ? `${full.slice(0, MAX_PATH - 1)}…` : full
}

export interface UsageMeterOptions {
  db: Db
  clock: Clock
  projectDbs: Pick<ProjectDatabases, 'openRefs' | 'transaction'>
  /** How often counts are written to the store (0: only on demand and on close). */
  flushMs: number
  /** Entries kept per project in the request log. */
  logLimit: number
}

export function createUsageMeter({ db, clock, projectDbs, flushMs, logLimit }: UsageMeterOptions): UsageMeter {
  let totals = new Map<string, DayTotals>()
  let hours = new Map<string, HourTotals>()
  let log = new Map<number, LogEntry[]>()
  /** Projects written to since the last flush: their database is open and its size may have changed. */
  let written = new Map<number, string>()
  let chain: Promise<void> = Promise.resolve()

  function record(sample: RequestSample): void {
    const now = clock.now()
    const at = now.toISOString()
    const day = at.slice(0, 10)
    const key = `${sample.projectId}:${day}`
    let t = totals.get(key)
    if (!t) {
      t = { projectId: sample.projectId, day, requests: 0, egress: 0, msTotal: 0, msMax: 0 }
      totals.set(key, t)
    }
    t.requests += 1
    t.egress += sample.bytes
    t.msTotal += sample.durationMs
    if (sample.durationMs > t.msMax) t.msMax = sample.durationMs
    const hour = `${at.slice(0, 13)}:00:00.000Z`
    const product = productOf(sample.url)
    const hourKey = `${sample.projectId}:${hour}:${product}`
    const h = hours.get(hourKey)
    if (h) h.requests += 1
    else hours.set(hourKey, { projectId: sample.projectId, hour, product, requests: 1 })
    let entries = log.get(sample.projectId)
    if (!entries) log.set(sample.projectId, (entries = []))
    entries.push({
      projectId: sample.projectId,
      at,
      method: sample.method,
      path: loggablePath(sample.url),
      status: sample.status,
      durationMs: sample.durationMs,
      bytes: sample.bytes,
    })
    // Trimmed in batches: a splice per request would cost a copy of the array each time.
    if (entries.length >= logLimit * 2) entries.splice(0, entries.length - logLimit)
    if (sample.method !== 'GET' && sample.method !== 'HEAD' && sample.status < 400) written.set(sample.projectId, sample.ref)
  }

  async function write(batch: Map<string, DayTotals>, hourBatch: Map<string, HourTotals>, entries: LogEntry[], projectIds: number[]) {
    const rows = [...batch.values()]
    const hourRows = [...hourBatch.values()]
    await db.transaction(async (tx) => {
      if (hourRows.length > 0) {
        await tx.query(
          `insert into project_usage_hourly (project_id, hour, product, requests)
           select u.project_id, u.hour, u.product, u.requests
           from unnest($1::int[], $2::timestamptz[], $3::text[], $4::bigint[]) as u(project_id, hour, product, requests)
           join projects p on p.id = u.project_id
           on conflict (project_id, hour, product) do update set requests = project_usage_hourly.requests + excluded.requests`,
          [hourRows.map((r) => r.projectId), hourRows.map((r) => r.hour), hourRows.map((r) => r.product), hourRows.map((r) => r.requests)],
        )
      }
      if (rows.length > 0) {
        // Only projects that still exist (one deleted since its request is skipped, not a failed flush).
        await tx.query(
          `insert into project_usage_daily (project_id, day, requests, egress_bytes, response_ms_total, response_ms_max)
           select u.project_id, u.day, u.requests, u.egress, u.ms_total, u.ms_max
           from unnest($1::int[], $2::date[], $3::bigint[], $4::bigint[], $5::float8[], $6::float8[])
             as u(project_id, day, requests, egress, ms_total, ms_max)
           join projects p on p.id = u.project_id
           on conflict (project_id, day) do update set
             requests = project_usage_daily.requests + excluded.requests,
             egress_bytes = project_usage_daily.egress_bytes + excluded.egress_bytes,
             response_ms_total = project_usage_daily.response_ms_total + excluded.response_ms_total,
             response_ms_max = greatest(project_usage_daily.response_ms_max, excluded.response_ms_max)`,
          [
            rows.map((r) => r.projectId),
            rows.map((r) => r.day),
            rows.map((r) => r.requests),
            rows.map((r) => r.egress),
            rows.map((r) => r.msTotal),
            rows.map((r) => r.msMax),
          ],
        )
      }
      if (entries.length > 0) {
        await tx.query(
          `insert into project_request_log (project_id, at, method, path, status, duration_ms, bytes)
           select u.project_id, u.at, u.method, u.path, u.status, u.duration_ms, u.bytes
           from unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::float8[], $7::bigint[])
             with ordinality as u(project_id, at, method, path, status, duration_ms, bytes, n)
           join projects p on p.id = u.project_id
           order by u.n`,
          [
            entries.map((e) => e.projectId),
            entries.map((e) => e.at),
            entries.map((e) => e.method),
            entries.map((e) => e.path),
            entries.map((e) => e.status),
            entries.map((e) => e.durationMs),
            entries.map((e) => e.bytes),
          ],
        )
        for (const projectId of projectIds) {
          await tx.query(
            `delete from project_request_log where project_id = $1 and id <= (
               select id from project_request_log where project_id = $1 order by id desc offset $2 limit 1)`,
            [projectId, logLimit],
          )
        }
      }
    })
  }

  async function flushNow(): Promise<void> {
    if (totals.size === 0 && log.size === 0 && written.size === 0) return
    const batch = totals
    const hourBatch = hours
    hours = new Map()
    const taken = log
    const sizes = written
    totals = new Map()
    log = new Map()
    written = new Map()
    const entries = [...taken.values()].flatMap((list) => (list.length > logLimit ? list.slice(-logLimit) : list))
    try {
      await write(batch, hourBatch, entries, [...taken.keys()])
    } catch (err) {
      // Put back what was taken (ahead of what arrived meanwhile), so the next flush writes it.
      for (const [key, t] of batch) {
        const now = totals.get(key)
        if (!now) totals.set(key, t)
        else {
          now.requests += t.requests
          now.egress += t.egress
          now.msTotal += t.msTotal
          now.msMax = Math.max(now.msMax, t.msMax)
        }
      }
      for (const [key, h] of hourBatch) {
        const now = hours.get(key)
        if (!now) hours.set(key, h)
        else now.requests += h.requests
      }
      for (const [projectId, list] of taken) log.set(projectId, [...list, ...(log.get(projectId) ?? [])].slice(-logLimit))
      for (const [id, ref] of sizes) written.set(id, ref)
      throw err
    }
    if (sizes.size > 0) await measure([...sizes].map(([id, ref]) => ({ id, ref })))
  }

  async function measure(projects: { id: number; ref: string }[]): Promise<void> {
    const open = new Set(projectDbs.openRefs())
    const day = clock.now().toISOString().slice(0, 10)
    for (const project of projects) {
      if (!open.has(project.ref)) continue
      let bytes: number
      try {
        const result = await projectDbs.transaction(project.ref, { role: 'postgres', readOnly: true }, (tx) =>
          tx.query('select pg_database_size(current_database())::float8 as bytes'),
        )
        bytes = Number(result.rows[0]?.bytes)
      } catch {
        continue // closed or stopped meanwhile: the last figure stays
      }
      if (!Number.isFinite(bytes)) continue
      await db.query(
        `insert into project_usage_daily (project_id, day, database_size_bytes) select $1, $2::date, $3 where exists (select 1 from projects where id = $1)
         on conflict (project_id, day) do update set database_size_bytes = excluded.database_size_bytes`,
        [project.id, day, Math.round(bytes)],
      )
    }
  }

  const serialised = (work: () => Promise<void>): Promise<void> => {
    const run = chain.then(work)
    chain = run.catch(() => {})
    return run
  }

  const timer =
    flushMs > 0
      ? setInterval(() => {
          serialised(flushNow).catch((err: unknown) => console.error('usage meter: flush failed, kept for the next one:', (err as Error).message))
        }, flushMs)
      : null
  timer?.unref()

  return {
    record,
    flush: () => serialised(flushNow),
    measureDatabaseSizes: (projects) => serialised(() => measure(projects)),
    async stop() {
      if (timer) clearInterval(timer)
      await serialised(flushNow)
    },
  }
}
