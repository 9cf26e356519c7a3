/**
 * Resource warnings and organization usage, and their development controls.
 *   GET  /platform/projects-resource-warnings       per project: read-only mode and per-resource levels
 *   GET  /platform/organizations/{slug}/usage       ?project_ref&start&end → usages[]
 *   POST /dev/projects/{ref}/resource-warnings      raise (or clear, level null) a warning
 *   POST /dev/projects/{ref}/read-only              read-only mode on or off
 *   POST /dev/projects/{ref}/usage                  set a metric's usage (e.g. over its limit)
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
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { memberOrganization, slugParam } from '../organizations/access'
import { anyProject, refParam } from '../projects/access'
import { findProjectByRef } from '../projects/store'

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

export function usageRoutes({ db }: Deps) {
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

  app.on(...at(endpoints.getOrgUsage), slugParam, validate('query', endpoints.getOrgUsage.query), memberOrganization(db), async (c) => {
    const org = c.var.organization
    const { project_ref: projectRef } = c.req.valid('query')
    if (projectRef !== undefined) {
      const project = await findProjectByRef(db, projectRef)
      if (!project || project.organization_id !== org.id) return errorJson(c, 404, 'Project not found in this organization')
    }
    const { rows } = await db.query<{ metric: UsageMetric; usage: number }>(
      `select u.metric, sum(u.usage)::float8 as usage from project_usage u join projects p on p.id = u.project_id
       where p.organization_id = $1 and ($2::text is null or p.ref = $2) group by u.metric`,
      [org.id, projectRef ?? null],
    )
    const usage = Object.fromEntries(rows.map((r) => [r.metric, Number(r.usage)]))
    return c.json({ usages: usageRecords(org.plan_id, usage) })
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
