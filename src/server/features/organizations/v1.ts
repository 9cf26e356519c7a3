/**
 * The Management API's reads of one organization, for any of its members (another organization, or none, 404 as
 * /v1/organizations/{slug} answers):
 *   GET /v1/organizations/{slug}/members    V1OrganizationMemberResponse[]: accounts here have no second factor, so
 *                                           mfa_enabled is false for everyone
 *   GET /v1/organizations/{slug}/projects   OrganizationProjectsResponse: offset, limit (1–100, default 100), search
 *                                           (in the name, any case), sort (name_asc default, name_desc, created_asc,
 *                                           created_desc) and statuses (comma-separated), with the count of all that match
 *   GET /v1/organizations/{slug}/entitlements   V1ListEntitlementsResponse: the contract's features the platform
 *                                           decides by the organization's plan, as it decides them (entitlementsOf)
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1ProjectStatus } from '../../../contracts/v1'
import type { PlanId } from '../../../contracts/common'
import { V1Entitlements, V1OrganizationMemberList, V1OrganizationProjects, V1OrganizationProjectsQuery } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { memberOrganization, slugParam } from './access'

const v1ListMembers = endpoint('GET', 'v1', '/organizations/:slug/members', { response: V1OrganizationMemberList })
const v1ListEntitlements = endpoint('GET', 'v1', '/organizations/:slug/entitlements', { response: V1Entitlements })
const v1ListProjects = endpoint('GET', 'v1', '/organizations/:slug/projects', { query: V1OrganizationProjectsQuery, response: V1OrganizationProjects })

/** The project's status as the contract spells it; a database has no status of its own here: the project's. */
const v1Status = (s: string) => (s === 'RESTORATION_FAILED' ? 'RESTORE_FAILED' : s) as V1OrganizationProjects['projects'][number]['status']
const DATABASE_STATUSES = new Set(['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'COMING_UP', 'GOING_DOWN', 'INIT_FAILED', 'REMOVED', 'RESTORING', 'UNKNOWN', 'RESTARTING', 'RESIZING'])
/** Every project runs on this machine: no cloud provider. */
const CLOUD_PROVIDER = 'LOCAL'

const ORDER = {
  name_asc: 'lower(p.name) asc, p.id',
  name_desc: 'lower(p.name) desc, p.id desc',
  created_asc: 'p.inserted_at asc, p.id',
  created_desc: 'p.inserted_at desc, p.id desc',
} as const

type Entitlement = V1Entitlements['entitlements'][number]
const flag = (key: string, hasAccess: boolean): Entitlement => ({ feature: { key, type: 'boolean' }, hasAccess, type: 'boolean', config: { enabled: hasAccess } })

/**
 * What the plan opens among the contract's features, as the platform's own refusals decide it (tested against them):
 * custom domains and preview branches (persistent or not) need a paid plan; image transformations and pausing work
 * on every plan. The contract's other features are not offered here at all, and its numeric ones (branching_limit,
 * function.max_count …) have no limit here to report: they are left out rather than given figures the platform does
 * not enforce. Point-in-time recovery (paid plans too) is a `set` feature, which the contract cannot carry: its
 * config is oneOf three objects of which the boolean one, having no other required property, matches every set too.
 */
export function entitlementsOf(plan: PlanId): Entitlement[] {
  const paid = plan !== 'free'
  return [
    flag('custom_domain', paid),
    flag('branching_persistent', paid),
    flag('storage.image_transformations', true),
    flag('project_pausing', true),
  ]
}

export function organizationV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)

  app.on(...at(v1ListMembers), organization, async (c) => {
    const { rows } = await db.query<{ id: number; username: string; primary_email: string; role: string }>(
      `select a.id, a.username, a.primary_email, m.role from members m join accounts a on a.id = m.account_id
       where m.organization_id = $1 order by a.id`,
      [c.var.organization.id],
    )
    return c.json(
      rows.map((r) => ({ user_id: String(r.id), user_name: r.username, email: r.primary_email, role_name: r.role, mfa_enabled: false })) satisfies V1OrganizationMemberList,
    )
  })

  app.on(...at(v1ListEntitlements), organization, (c) => c.json({ entitlements: entitlementsOf(c.var.organization.plan_id) } satisfies V1Entitlements))

  app.on(...at(v1ListProjects), slugParam, validate('query', V1OrganizationProjectsQuery), organization, async (c) => {
    const q = c.req.valid('query')
    const statuses = q.statuses?.split(',').map((s) => s.trim()).filter(Boolean)
    const unknown = statuses?.find((s) => !V1ProjectStatus.options.includes(s as never))
    if (unknown) return errorJson(c, 400, `statuses: unknown status ${JSON.stringify(unknown)}`)
    const offset = q.offset ?? 0
    const limit = q.limit ?? 100
    const params: unknown[] = [c.var.organization.id]
    const where = ['p.organization_id = $1']
    if (q.search) where.push(`p.name ilike '%' || $${params.push(q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`))} || '%'`)
    if (statuses?.length) where.push(`p.status = any($${params.push(statuses.map((s) => (s === 'RESTORE_FAILED' ? 'RESTORATION_FAILED' : s)))}::text[])`)
    const { rows } = await db.query<{ ref: string; name: string; region: string; status: string; inserted_at: Date | string; is_branch: boolean; count: number }>(
      `select p.ref, p.name, p.region, p.status, p.inserted_at,
              exists (select 1 from branches b where b.project_id = p.id) as is_branch, count(*) over ()::int as count
       from projects p where ${where.join(' and ')}
       order by ${ORDER[q.sort ?? 'name_asc']} offset $${params.push(offset)} limit $${params.push(limit)}`,
      params,
    )
    const count = rows[0]?.count ?? (offset > 0 ? await countOf(where, params.slice(0, -2)) : 0)
    return c.json({
      projects: rows.map((r) => ({
        ref: r.ref,
        name: r.name,
        cloud_provider: CLOUD_PROVIDER,
        region: r.region,
        is_branch: r.is_branch,
        status: v1Status(r.status),
        inserted_at: iso(r.inserted_at),
        databases: [
          {
            region: r.region,
            status: (DATABASE_STATUSES.has(r.status) ? r.status : 'UNKNOWN') as V1OrganizationProjects['projects'][number]['databases'][number]['status'],
            cloud_provider: CLOUD_PROVIDER,
            identifier: r.ref,
            type: 'PRIMARY' as const,
          },
        ],
      })),
      pagination: { count, limit, offset },
    } satisfies V1OrganizationProjects)
  })

  /** The count when the page asked for lies past the end (the window count has no row to ride on). */
  async function countOf(where: string[], params: unknown[]) {
    const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from projects p where ${where.join(' and ')}`, params)
    return rows[0].count
  }

  return app
}
