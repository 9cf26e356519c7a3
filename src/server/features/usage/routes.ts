/**
 * Resource warnings and organization usage, and their development controls.
 *   GET  /platform/projects-resource-warnings       per project: read-only mode and per-resource levels
 *   GET  /platform/organizations/{slug}/usage       ?project_ref&start&end → usages[] (measured + development control)
 *   GET  /platform/organizations/{slug}/usage/daily ?project_ref&start&end → the measured figures per UTC day
 *   GET  /platform/projects/{ref}/logs/requests     ?status&limit → the project's REST request log, newest first
 *   POST /dev/projects/{ref}/resource-warnings      raise (or clear, level null) a warning
 *   POST /dev/projects/{ref}/read-only              read-only mode on or off
 *   POST /dev/projects/{ref}/usage                  set what is added to a metric's measured usage (e.g. over its limit)
 * Measured (core/meter.ts): EGRESS (REST answer bytes in the period) and DATABASE_SIZE (each project's database size
 * last measured up to the period's end), in GB; the other metrics have nothing the local platform can measure.
 */
import { Hono } from 'hono'
import type { PlanId } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import {
  RESOURCES,
  USAGE_METRICS,
  type ResourceWarning,
  type UsageMetric,
  type UsageRecord,
  type WarningLevel,
} from '../../../contracts/usage'
import { BYTES_PER_GB, daysBetween, REQUEST_LOG_LIMIT, utcDay, type DailyUsage, type RequestLogEntry, type StatusClass } from '../../../contracts/measured'
import type { Deps } from '../../core/deps'
import { projectStorageBytes } from '../../core/storageDisk'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import type { Queryable } from '../../db'
import { memberOrganization, slugParam } from '../organizations/access'
import { anyProject, findProjectByRef, memberProject, refParam } from '../projects/access'
import type { UsageMeter } from '../../core/meter'

/** What each plan includes (free units per billing period). Free and Pro are capped (spend cap on). */
const FREE_UNITS: Record<UsageMetric, Record<PlanId, number>> = {
  EGRESS: { free: 5, pro: 250, team: 250, enterprise: 250 },
  DATABASE_SIZE: { free: 0.5, pro: 8, team: 8, enterprise: 8 },
  STORAGE_SIZE: { free: 1, pro: 100, team: 100, enterprise: 100 },
  MONTHLY_ACTIVE_USERS: { free: 50_000, pro: 100_000, team: 100_000, enterprise: 100_000 },
  FUNCTION_INVOCATIONS: { free: 500_000, pro: 2_000_000, team: 2_000_000, enterprise: 2_000_000 },
  REALTIME_MESSAGE_COUNT: { free: 2_000_000, pro: 5_000_000, team: 5_000_000, enterprise: 5_000_000 },
  REALTIME_PEAK_CONNECTIONS: { free: 200, pro: 500, team: 500, enterprise: 500 },
}

function usageRecords(plan: PlanId, usage: Partial<Record<UsageMetric, number>>): UsageRecord[] {
  const capped = plan === 'free' || plan === 'pro'
  return USAGE_METRICS.map((metric) => ({
    metric,
    usage: usage[metric] ?? 0,
    capped,
    available_in_plan: true,
    unlimited: plan === 'enterprise',
    pricing_free_units: FREE_UNITS[metric][plan],
  }))
}

interface WarningRow {
  ref: string
  is_readonly_mode_enabled: boolean
  disk_io_exhaustion: WarningLevel | null
  disk_space_exhaustion: WarningLevel | null
  cpu_exhaustion: WarningLevel | null
  memory_and_swap_exhaustion: WarningLevel | null
}

interface Period {
  organizationId: number
  /** null: every project of the organization. */
  projectId: number | null
  startDay: string
  endDay: string
}

/** What the meter measured in the period: EGRESS and DATABASE_SIZE in GB. */
async function measuredUsage(db: Queryable, period: Period): Promise<Partial<Record<UsageMetric, number>>> {
  const { rows } = await db.query<{ egress: number; size: number }>(
    `select
       (select coalesce(sum(d.egress_bytes), 0)::float8 from project_usage_daily d join projects p on p.id = d.project_id
        where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day between $3::date and $4::date) as egress,
       (select coalesce(sum(s.bytes), 0)::float8 from (
          select distinct on (d.project_id) d.database_size_bytes as bytes from project_usage_daily d
          join projects p on p.id = d.project_id
          where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day <= $4::date and d.database_size_bytes is not null
          order by d.project_id, d.day desc) s) as size`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return { EGRESS: Number(rows[0].egress) / BYTES_PER_GB, DATABASE_SIZE: Number(rows[0].size) / BYTES_PER_GB }
}

/** Bytes of the objects the period's projects keep on disk now (egress of the storage API is metered at the gateway). */
async function storedBytes(db: Queryable, dataDir: string, period: Period): Promise<number> {
  const { rows } = await db.query<{ ref: string }>('select ref from projects where organization_id = $1 and ($2::int is null or id = $2)', [
    period.organizationId,
    period.projectId,
  ])
  let total = 0
  for (const { ref } of rows) total += await projectStorageBytes(dataDir, ref)
  return total
}

async function dailyUsage(db: Queryable, period: Period): Promise<DailyUsage[]> {
  const { rows } = await db.query<{ day: string; requests: number; egress: number; ms_total: number; ms_max: number | null; size: number | null }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, sum(d.requests)::float8 as requests, sum(d.egress_bytes)::float8 as egress,
       sum(d.response_ms_total)::float8 as ms_total, max(d.response_ms_max)::float8 as ms_max,
       sum(d.database_size_bytes)::float8 as size
     from project_usage_daily d join projects p on p.id = d.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day between $3::date and $4::date
     group by d.day`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  const byDay = new Map(rows.map((r) => [r.day, r]))
  return daysBetween(period.startDay, period.endDay).map((date) => {
    const r = byDay.get(date)
    const requests = r ? Number(r.requests) : 0
    return {
      date,
      requests,
      egress_bytes: r ? Number(r.egress) : 0,
      response_ms_avg: r && requests > 0 ? Number(r.ms_total) / requests : null,
      response_ms_max: r && requests > 0 ? Number(r.ms_max) : null,
      database_size_bytes: r && r.size !== null ? Number(r.size) : null,
    }
  })
}

const STATUS_RANGE: Record<StatusClass, [number, number]> = { '2xx': [200, 299], '3xx': [300, 399], '4xx': [400, 499], '5xx': [500, 599] }

export function usageRoutes({ db, config }: Deps, meter?: UsageMeter) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.getResourceWarnings), async (c) => {
    const { rows } = await db.query<WarningRow>(
      `select p.ref, w.is_readonly_mode_enabled, w.disk_io_exhaustion, w.disk_space_exhaustion, w.cpu_exhaustion,
         w.memory_and_swap_exhaustion
       from project_resource_warnings w join projects p on p.id = w.project_id
       join members m on m.organization_id = p.organization_id and m.account_id = $1
       order by p.id`,
      [c.get('account').id],
    )
    const body: ResourceWarning[] = rows.map(({ ref, ...levels }) => ({ project: ref, ...levels }))
    return c.json(body)
  })

  /**
   * The organization and its period from the query, with what the meter holds written first and the sizes of the
   * open databases read (each org project, or the one asked for): the figures are those of now.
   */
  const periodOf = async (organizationId: number, query: { project_ref?: string; start: string; end: string }) => {
    const { rows: projects } = await db.query<{ id: number; ref: string }>(
      `select id, ref from projects where organization_id = $1 and ($2::text is null or ref = $2) and status = 'ACTIVE_HEALTHY'`,
      [organizationId, query.project_ref ?? null],
    )
    if (meter) {
      await meter.flush()
      await meter.measureDatabaseSizes(projects)
    }
    let projectId: number | null = null
    if (query.project_ref !== undefined) {
      const project = await findProjectByRef(db, query.project_ref)
      if (!project || project.organization_id !== organizationId) return null
      projectId = project.id
    }
    return { organizationId, projectId, startDay: utcDay(query.start), endDay: utcDay(query.end) }
  }

  app.on(...at(endpoints.getOrgUsage), slugParam, validate('query', endpoints.getOrgUsage.query), memberOrganization(db), async (c) => {
    const org = c.var.organization
    const period = await periodOf(org.id, c.req.valid('query'))
    if (!period) return errorJson(c, 404, 'Project not found in this organization')
    const { rows } = await db.query<{ metric: UsageMetric; usage: number }>(
      `select u.metric, sum(u.usage)::float8 as usage from project_usage u join projects p on p.id = u.project_id
       where p.organization_id = $1 and ($2::int is null or p.id = $2) group by u.metric`,
      [org.id, period.projectId],
    )
    const added = Object.fromEntries(rows.map((r) => [r.metric, Number(r.usage)])) as Partial<Record<UsageMetric, number>>
    const measured = await measuredUsage(db, period)
    measured.STORAGE_SIZE = (await storedBytes(db, config.dataDir, period)) / BYTES_PER_GB
    const usage = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, (measured[metric] ?? 0) + (added[metric] ?? 0)]))
    return c.json({ usages: usageRecords(org.plan_id, usage) })
  })

  app.on(...at(endpoints.getOrgDailyUsage), slugParam, validate('query', endpoints.getOrgDailyUsage.query), memberOrganization(db), async (c) => {
    const period = await periodOf(c.var.organization.id, c.req.valid('query'))
    if (!period) return errorJson(c, 404, 'Project not found in this organization')
    return c.json({ days: await dailyUsage(db, period) })
  })

  app.on(...at(endpoints.getProjectRequestLog), refParam, validate('query', endpoints.getProjectRequestLog.query), memberProject(db), async (c) => {
    const { status, limit } = c.req.valid('query')
    await meter?.flush()
    const [low, high] = status ? STATUS_RANGE[status] : [0, 999]
    const { rows } = await db.query<{ id: string; at: Date | string; method: string; path: string; status: number; duration_ms: number; bytes: number }>(
      `select id::text as id, at, method, path, status, duration_ms, bytes::float8 as bytes from project_request_log
       where project_id = $1 and status between $2 and $3 order by id desc limit $4`,
      [c.var.project.id, low, high, limit ?? REQUEST_LOG_LIMIT],
    )
    const entries: RequestLogEntry[] = rows.map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      method: r.method,
      path: r.path,
      status: r.status,
      duration_ms: Number(r.duration_ms),
      bytes: Number(r.bytes),
    }))
    c.header('cache-control', 'no-store')
    return c.json({ entries })
  })

  return app
}

/** Development controls (mounted only with DEV_CONTROLS=1). */
export function usageDevRoutes({ db, clock }: Deps) {
  const app = new Hono()
  const project = anyProject(db)

  const upsertWarnings = async (id: number, column: string, value: unknown) => {
    // `column` comes from a validated enum (RESOURCES) or a constant, never from raw input.
    await db.query(
      `insert into project_resource_warnings (project_id, ${column}, updated_at) values ($1, $2, $3)
       on conflict (project_id) do update set ${column} = excluded.${column}, updated_at = excluded.updated_at`,
      [id, value, clock.now().toISOString()],
    )
  }
  const warningOf = async (id: number, ref: string): Promise<ResourceWarning> => {
    const { rows } = await db.query<Omit<WarningRow, 'ref'>>(
      `select is_readonly_mode_enabled, disk_io_exhaustion, disk_space_exhaustion, cpu_exhaustion, memory_and_swap_exhaustion
       from project_resource_warnings where project_id = $1`,
      [id],
    )
    return { project: ref, ...rows[0] }
  }

  app.on(...at(endpoints.devSetResourceWarning), refParam, validate('json', endpoints.devSetResourceWarning.body), project, async (c) => {
    const { id, ref } = c.var.project
    const { resource, level } = c.req.valid('json')
    if (!RESOURCES.includes(resource)) return errorJson(c, 400, 'Unknown resource')
    await upsertWarnings(id, resource, level)
    return c.json(await warningOf(id, ref))
  })

  app.on(...at(endpoints.devSetReadOnly), refParam, validate('json', endpoints.devSetReadOnly.body), project, async (c) => {
    const { id, ref } = c.var.project
    await upsertWarnings(id, 'is_readonly_mode_enabled', c.req.valid('json').enabled)
    return c.json(await warningOf(id, ref))
  })

  app.on(...at(endpoints.devSetUsage), refParam, validate('json', endpoints.devSetUsage.body), project, async (c) => {
    const { metric, usage } = c.req.valid('json')
    await db.query(
      `insert into project_usage (project_id, metric, usage, updated_at) values ($1, $2, $3, $4)
       on conflict (project_id, metric) do update set usage = excluded.usage, updated_at = excluded.updated_at`,
      [c.var.project.id, metric, usage, clock.now().toISOString()],
    )
    return c.json({ metric, usage })
  })

  return app
}
