/**
 * Routes of the upgrade slice: Postgres upgrades (/v1), the API server's health and REST schema, resource
 * warnings and organization usage (/platform), and their development controls (/dev).
 *
 *   POST /v1/projects/{ref}/upgrade                 start an upgrade (projects:write); 409 unless ACTIVE_HEALTHY
 *   GET  /v1/projects/{ref}/upgrade/status          the latest upgrade (or ?tracking_id=…), null when none
 *   GET  /v1/projects/{ref}/upgrade/eligibility     eligible when on an older major than the latest
 *   GET  /platform/projects/{ref}/live              200 while the API server is ONLINE, else 503
 *   GET  /platform/projects/{ref}/api/rest          the REST schema (OpenAPI 2), 200 while ONLINE, else 503
 *   GET  /platform/projects-resource-warnings       per project: read-only mode and per-resource levels
 *   GET  /platform/organizations/{slug}/usage       ?project_ref&start&end → usages[]
 */
import type { Hono } from 'hono'
import * as z from 'zod'
import { OrgSlug, ProjectRef, type PlanId } from '../../contracts/common'
import type { RestSchemaResponse } from '../../contracts/connecting'
import {
  DevFailNextUpgradeBody,
  UpgradeDatabaseBody,
  type DatabaseUpgradeStatusWireResponse,
} from '../../contracts/upgrade'
import {
  DevReadOnlyBody,
  DevResourceWarningBody,
  DevUsageBody,
  OrgUsageQuery,
  RESOURCES,
  USAGE_METRICS,
  type ResourceWarning,
  type UsageMetric,
  type UsageRecord,
  type WarningLevel,
} from '../../contracts/usage'
import type { Deps } from '../deps'
import { errorJson, validate, type AppEnv } from '../http'
import { can } from '../permissions'
import { findMemberOrganization, findMemberProject, findProjectByRef } from '../store'
import { beginUpgrade, eligibilityFor, latestUpgrade, targetsFor, toUpgradeStatus } from '../upgrade'

const RefParam = z.object({ ref: ProjectRef })
const SlugParam = z.object({ slug: OrgSlug })
const StatusQuery = z.object({ tracking_id: z.string().max(100).optional() })

/** The development controls of this slice, with the curl line the README quotes. */
export const upgradeDevControlRoutes = [
  {
    method: 'POST',
    path: '/dev/projects/{ref}/fail-next-upgrade',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/fail-next-upgrade -H 'content-type: application/json' -d '{"at_step":5}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/resource-warnings',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/resource-warnings -H 'content-type: application/json' -d '{"resource":"disk_space_exhaustion","level":"critical"}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/read-only',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/read-only -H 'content-type: application/json' -d '{"enabled":true}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/usage',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/usage -H 'content-type: application/json' -d '{"metric":"EGRESS","usage":12}'`,
  },
] as const

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

export function usageRecords(plan: PlanId, usage: Partial<Record<UsageMetric, number>>): UsageRecord[] {
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

/** A minimal but real REST schema: the project's public tables (none yet: projects have no database of their own). */
function restSchemaFor(ref: string, host: string, tables: Record<string, string[]> = {}): RestSchemaResponse {
  const definitions: RestSchemaResponse['definitions'] = {}
  const paths: RestSchemaResponse['paths'] = { '/': { get: { summary: 'OpenAPI description (this document)' } } }
  for (const [table, columns] of Object.entries(tables)) {
    definitions[table] = { type: 'object', properties: Object.fromEntries(columns.map((c) => [c, { type: 'string' }])) }
    paths[`/${table}`] = { get: { tags: [table] } }
  }
  return {
    swagger: '2.0',
    info: { title: `REST API of project ${ref}`, version: '12.2.0', description: 'Generated from the public schema' },
    host,
    basePath: '/',
    paths,
    definitions,
  }
}

export function registerUpgradeV1Routes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock, config } = deps

  app.post('/v1/projects/:ref/upgrade', validate('param', RefParam), validate('json', UpgradeDatabaseBody), async (c) => {
    const account = c.get('account')
    const body = c.req.valid('json')
    const project = await findMemberProject(db, account.id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    if (!can(project.role, 'projects:write')) return errorJson(c, 403, 'You do not have permission to upgrade this project')
    const outcome = await db.transaction(async (tx) => {
      // The row lock serialises two upgrade requests for the same project: the second sees UPGRADING.
      const { rows } = await tx.query<{ status: string; db_version: string }>(
        'select status, db_version from projects where id = $1 for update',
        [project.id],
      )
      const current = rows[0]
      if (current.status !== 'ACTIVE_HEALTHY') return { conflict: current.status, invalidTarget: undefined, trackingId: undefined }
      const targets: string[] = targetsFor(current.db_version)
      if (!targets.includes(body.target_version)) return { conflict: undefined, invalidTarget: targets, trackingId: undefined }
      const now = clock.now()
      await tx.query(`update projects set status = 'UPGRADING', updated_at = $2, status_changed_at = $2 where id = $1`, [
        project.id,
        now.toISOString(),
      ])
      const trackingId = await beginUpgrade(tx, project.id, {
        targetVersion: body.target_version,
        releaseChannel: body.release_channel,
        stepMs: config.lifecycle.upgradeStepMs,
        now,
      })
      return { conflict: undefined, invalidTarget: undefined, trackingId }
    })
    if (outcome.conflict !== undefined) {
      return errorJson(
        c,
        409,
        `Project is ${outcome.conflict}: an upgrade can only start when the project is ACTIVE_HEALTHY`,
        'invalid_status',
      )
    }
    if (outcome.invalidTarget !== undefined) {
      const targets = outcome.invalidTarget
      const choices = targets.length ? `choose one of ${targets.join(', ')}` : 'the project is on the latest version'
      return errorJson(c, 400, `target_version: Postgres ${body.target_version} is not available for this project; ${choices}`)
    }
    return c.json({ tracking_id: outcome.trackingId }, 201)
  })

  app.get('/v1/projects/:ref/upgrade/status', validate('param', RefParam), validate('query', StatusQuery), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    const row = await latestUpgrade(db, project.id, c.req.valid('query').tracking_id)
    const body: DatabaseUpgradeStatusWireResponse = { databaseUpgradeStatus: row ? toUpgradeStatus(row) : null }
    return c.json(body)
  })

  app.get('/v1/projects/:ref/upgrade/eligibility', validate('param', RefParam), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    return c.json(eligibilityFor(project.db_version))
  })
}

export function registerUpgradePlatformRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps

  app.get('/platform/projects/:ref/live', validate('param', RefParam), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    if (project.postgrest_status !== 'ONLINE') return errorJson(c, 503, 'The project API server is offline')
    return c.json({ status: 'ok' as const })
  })

  app.get('/platform/projects/:ref/api/rest', validate('param', RefParam), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    if (project.postgrest_status !== 'ONLINE') return errorJson(c, 503, 'The project API server is offline')
    return c.json(restSchemaFor(project.ref, new URL(c.req.url).host))
  })

  app.get('/platform/projects-resource-warnings', async (c) => {
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

  app.get('/platform/organizations/:slug/usage', validate('param', SlugParam), validate('query', OrgUsageQuery), async (c) => {
    const org = await findMemberOrganization(db, c.get('account').id, c.req.valid('param').slug)
    if (!org) return errorJson(c, 404, 'Organization not found')
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
}

export function registerUpgradeDevRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock } = deps
  const projectId = async (ref: string) => (await findProjectByRef(db, ref))?.id

  app.post('/dev/projects/:ref/fail-next-upgrade', validate('param', RefParam), validate('json', DevFailNextUpgradeBody), async (c) => {
    const id = await projectId(c.req.valid('param').ref)
    if (id === undefined) return errorJson(c, 404, 'Project not found')
    const { at_step: atStep } = c.req.valid('json')
    await db.query(
      `insert into project_upgrade_failures (project_id, at_step) values ($1, $2)
       on conflict (project_id) do update set at_step = excluded.at_step`,
      [id, atStep],
    )
    return c.json({ at_step: atStep })
  })

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

  app.post('/dev/projects/:ref/resource-warnings', validate('param', RefParam), validate('json', DevResourceWarningBody), async (c) => {
    const { ref } = c.req.valid('param')
    const id = await projectId(ref)
    if (id === undefined) return errorJson(c, 404, 'Project not found')
    const { resource, level } = c.req.valid('json')
    if (!RESOURCES.includes(resource)) return errorJson(c, 400, 'Unknown resource')
    await upsertWarnings(id, resource, level)
    return c.json(await warningOf(id, ref))
  })

  app.post('/dev/projects/:ref/read-only', validate('param', RefParam), validate('json', DevReadOnlyBody), async (c) => {
    const { ref } = c.req.valid('param')
    const id = await projectId(ref)
    if (id === undefined) return errorJson(c, 404, 'Project not found')
    await upsertWarnings(id, 'is_readonly_mode_enabled', c.req.valid('json').enabled)
    return c.json(await warningOf(id, ref))
  })

  app.post('/dev/projects/:ref/usage', validate('param', RefParam), validate('json', DevUsageBody), async (c) => {
    const id = await projectId(c.req.valid('param').ref)
    if (id === undefined) return errorJson(c, 404, 'Project not found')
    const { metric, usage } = c.req.valid('json')
    await db.query(
      `insert into project_usage (project_id, metric, usage, updated_at) values ($1, $2, $3, $4)
       on conflict (project_id, metric) do update set usage = excluded.usage, updated_at = excluded.updated_at`,
      [id, metric, usage, clock.now().toISOString()],
    )
    return c.json({ metric, usage })
  })
}
