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
 * last measured up to the period's end), in GB; MONTHLY_ACTIVE_USERS, the realtime figures and FUNCTION_INVOCATIONS
 * (the realtime service's and the function runtime's counts, written every few seconds and before each read) from
 * their services' daily tables.
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
} from '../../../contracts/usage'
import { BYTES_PER_GB, daysBetween, REQUEST_LOG_LIMIT, utcDay, type DailyUsage, type RequestLogEntry, type StatusClass } from '../../../contracts/measured'
import type { Deps } from '../../core/deps'
import { projectStorageBytes, type ObjectBytes } from '../../core/objectBytes'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import type { Queryable } from '../../db'
import { memberOrganization, slugParam } from '../organizations/access'
import { anyProject, findProjectByRef, memberProject, refParam } from '../projects/access'
import type { UsageMeter } from '../../core/meter'
import {
  activeProjectsOf,
  addedUsage,
  dailyRows,
  findWarning,
  functionInvocations,
  listMemberWarnings,
  measuredBytes,
  monthlyActiveUsers,
  projectRefsOf,
  realtimeFigures,
  requestLog,
  setAddedUsage,
  upsertWarning,
  type Period,
} from './store'

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

/** What the meter measured in the period: EGRESS and DATABASE_SIZE in GB. */
async function measuredUsage(db: Queryable, period: Period): Promise<Partial<Record<UsageMetric, number>>> {
  const bytes = await measuredBytes(db, period)
  const mau = await monthlyActiveUsers(db, period)
  const realtime = await realtimeFigures(db, period)
  const invocations = await functionInvocations(db, period)
  return {
    EGRESS: bytes.egress / BYTES_PER_GB,
    DATABASE_SIZE: bytes.size / BYTES_PER_GB,
    MONTHLY_ACTIVE_USERS: mau,
    REALTIME_MESSAGE_COUNT: realtime.messages,
    REALTIME_PEAK_CONNECTIONS: realtime.peak,
    FUNCTION_INVOCATIONS: invocations,
  }
}

/** Bytes of the objects the period's projects keep on disk now (egress of the storage API is metered at the gateway). */
async function storedBytes(db: Queryable, objects: ObjectBytes, period: Period): Promise<number> {
  const rows = await projectRefsOf(db, period.organizationId, period.projectId)
  let total = 0
  for (const { ref } of rows) total += await projectStorageBytes(objects, ref)
  return total
}

async function dailyUsage(db: Queryable, period: Period): Promise<DailyUsage[]> {
  const rows = await dailyRows(db, period)
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

/** A service that counts in memory and writes its daily figures now and then (realtime, function invocations). */
export interface PendingCounts {
  flush(): Promise<void>
}

export function usageRoutes({ db, objects }: Deps, meter?: UsageMeter, pending: readonly PendingCounts[] = []) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.getResourceWarnings), async (c) => {
    const rows = await listMemberWarnings(db, c.get('account').id)
    const body: ResourceWarning[] = rows.map(({ ref, ...levels }) => ({ project: ref, ...levels }))
    return c.json(body)
  })

  /**
   * The organization and its period from the query, with what the meter holds written first and the sizes of the
   * open databases read (each org project, or the one asked for): the figures are those of now.
   */
  const periodOf = async (organizationId: number, query: { project_ref?: string; start: string; end: string }) => {
    const projects = await activeProjectsOf(db, organizationId, query.project_ref ?? null)
    if (meter) {
      await meter.flush()
      await meter.measureDatabaseSizes(projects)
    }
    // A call counted is a call shown: what the services hold in memory is written before the figures are read.
    await Promise.all(pending.map((p) => p.flush()))
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
    const rows = await addedUsage(db, org.id, period.projectId)
    const added = Object.fromEntries(rows.map((r) => [r.metric, Number(r.usage)])) as Partial<Record<UsageMetric, number>>
    const measured = await measuredUsage(db, period)
    measured.STORAGE_SIZE = (await storedBytes(db, objects, period)) / BYTES_PER_GB
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
    const rows = await requestLog(db, c.var.project.id, low, high, limit ?? REQUEST_LOG_LIMIT)
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

  const warningOf = async (id: number, ref: string): Promise<ResourceWarning> => ({ project: ref, ...(await findWarning(db, id))! })

  app.on(...at(endpoints.devSetResourceWarning), refParam, validate('json', endpoints.devSetResourceWarning.body), project, async (c) => {
    const { id, ref } = c.var.project
    const { resource, level } = c.req.valid('json')
    if (!RESOURCES.includes(resource)) return errorJson(c, 400, 'Unknown resource')
    await upsertWarning(db, id, resource, level, clock.now())
    return c.json(await warningOf(id, ref))
  })

  app.on(...at(endpoints.devSetReadOnly), refParam, validate('json', endpoints.devSetReadOnly.body), project, async (c) => {
    const { id, ref } = c.var.project
    await upsertWarning(db, id, 'is_readonly_mode_enabled', c.req.valid('json').enabled, clock.now())
    return c.json(await warningOf(id, ref))
  })

  app.on(...at(endpoints.devSetUsage), refParam, validate('json', endpoints.devSetUsage.body), project, async (c) => {
    const { metric, usage } = c.req.valid('json')
    await setAddedUsage(db, c.var.project.id, metric, usage, clock.now())
    return c.json({ metric, usage })
  })

  return app
}
