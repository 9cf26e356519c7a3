/**
 * Pause and restore on the local platform.
 *   POST /v1/projects/{ref}/pause          ACTIVE_HEALTHY → GOING_DOWN → PAUSING → INACTIVE      (projects:write)
 *   POST /v1/projects/{ref}/restore        INACTIVE → RESTORING → ACTIVE_HEALTHY | RESTORATION_FAILED
 *   POST /platform/projects/{ref}/restore  the same, answering the project                (infra-execute permission)
 *   GET  /platform/projects/{ref}/restore/status                          status and the last restore's error
 *   GET  /platform/organizations/{slug}/members/reached-free-project-limit
 * Each change runs in one transaction with the project row locked, so two requests cannot both start one;
 * the timed steps are lifecycle rows (see lifecycle.ts), durable across restarts.
 */
import type { Context, Hono } from 'hono'
import * as z from 'zod'
import { OrgSlug, ProjectRef, type ProjectStatus } from '../../contracts/common'
import { EmptyBody, type MemberReachedFreeProjectLimit } from '../../contracts/pause'
import type { Queryable } from '../db'
import type { Deps } from '../deps'
import { errorJson, formatIssues, validate, type AppEnv } from '../http'
import { setProjectStatus } from '../lifecycle'
import { can } from '../permissions'
import { findMemberOrganization, findMemberProject, findProjectByRef, toProject } from '../store'
import { baseUrl } from './platform'

const RefParam = z.object({ ref: ProjectRef })
const SlugParam = z.object({ slug: OrgSlug })

export const RESTORE_PERMISSION_MESSAGE = 'You do not have the required permissions to restore this project'
export const PAUSE_PERMISSION_MESSAGE = 'You do not have the required permissions to pause this project'

/** The body of a call that takes none: empty, or an empty JSON object. */
async function refuseBody(c: Context<AppEnv>): Promise<Response | null> {
  const text = (await c.req.text()).trim()
  if (text === '') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return errorJson(c, 400, 'The body must be empty or an empty JSON object')
  }
  const result = EmptyBody.safeParse(parsed)
  return result.success ? null : errorJson(c, 400, formatIssues(result.error.issues, 'json'))
}

type Outcome = { ok: true } | { ok: false; status: ProjectStatus }

/** Moves a locked project from `from` into `to` (cancelling what was pending, scheduling what `to` needs). */
async function transition(
  deps: Deps,
  projectId: number,
  from: ProjectStatus,
  to: ProjectStatus,
  before?: (tx: Queryable) => Promise<void>,
): Promise<Outcome> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ status: ProjectStatus }>('select status from projects where id = $1 for update', [projectId])
    const status = rows[0]?.status
    if (status !== from) return { ok: false, status: status ?? 'UNKNOWN' }
    await before?.(tx)
    await setProjectStatus(tx, projectId, to, deps.clock.now(), deps.config.lifecycle)
    return { ok: true }
  })
}

const describeStatus = (status: ProjectStatus) => (status === 'INACTIVE' ? 'paused (INACTIVE)' : status)

function refuseTransition(c: Context<AppEnv>, action: 'pause' | 'restore', status: ProjectStatus) {
  const allowed = action === 'pause' ? 'an ACTIVE_HEALTHY project can be paused' : 'a paused (INACTIVE) project can be restored'
  return errorJson(c, 409, `Project is ${describeStatus(status)}: only ${allowed}`, 'invalid_transition')
}

/**
 * Members of a free organization who already own the maximum of active free projects (across every free
 * organization; a paused project does not count). Empty for paid organizations.
 */
async function membersAtFreeLimit(db: Queryable, organizationId: number, limit: number) {
  const { rows } = await db.query<{ username: string; primary_email: string }>(
    `select a.username, a.primary_email
     from members m join accounts a on a.id = m.account_id
     join organizations org on org.id = m.organization_id
     where m.organization_id = $1 and org.plan_id = 'free'
       and (select count(*) from projects p join organizations o on o.id = p.organization_id
            where p.created_by = a.id and o.plan_id = 'free' and p.status <> 'INACTIVE') >= $2
     order by a.username`,
    [organizationId, limit],
  )
  return rows
}

export function registerPauseRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, config } = deps

  /** Pause: shared by /v1 (the Management API path the dashboard calls too). */
  async function pause(c: Context<AppEnv>, ref: string) {
    const refused = await refuseBody(c)
    if (refused) return refused
    const row = await findMemberProject(db, c.get('account').id, ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    if (!can(row.role, 'projects:write')) return errorJson(c, 403, PAUSE_PERMISSION_MESSAGE)
    const outcome = await transition(deps, row.id, 'ACTIVE_HEALTHY', 'GOING_DOWN')
    return outcome.ok ? null : refuseTransition(c, 'pause', outcome.status)
  }

  async function restore(c: Context<AppEnv>, ref: string) {
    const refused = await refuseBody(c)
    if (refused) return refused
    const row = await findMemberProject(db, c.get('account').id, ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    if (!can(row.role, 'infra:execute:project-initialize-or-resume')) return errorJson(c, 403, RESTORE_PERMISSION_MESSAGE)
    // The dashboard shows these members in a blocking dialog; the server holds the same rule for every client.
    const atLimit = await membersAtFreeLimit(db, row.organization_id, config.freeProjectLimit)
    if (atLimit.length > 0) {
      const who = atLimit.map((m) => `${m.username} (${m.primary_email})`).join(', ')
      return errorJson(
        c,
        409,
        `Members of this organization have reached the free project limit of ${config.freeProjectLimit}: ${who}. Delete, pause or upgrade a project first.`,
        'free_project_limit',
      )
    }
    const outcome = await transition(deps, row.id, 'INACTIVE', 'RESTORING', async (tx) => {
      await tx.query('update projects set restore_error = null where id = $1', [row.id])
    })
    return outcome.ok ? null : refuseTransition(c, 'restore', outcome.status)
  }

  app.post('/v1/projects/:ref/pause', validate('param', RefParam), async (c) => {
    const refused = await pause(c, c.req.valid('param').ref)
    return refused ?? c.body(null, 200)
  })

  app.post('/v1/projects/:ref/restore', validate('param', RefParam), async (c) => {
    const refused = await restore(c, c.req.valid('param').ref)
    return refused ?? c.body(null, 200)
  })

  app.post('/platform/projects/:ref/restore', validate('param', RefParam), async (c) => {
    const { ref } = c.req.valid('param')
    const refused = await restore(c, ref)
    if (refused) return refused
    return c.json(toProject((await findProjectByRef(db, ref))!, baseUrl(deps, c.req.url)))
  })

  app.get('/platform/projects/:ref/restore/status', validate('param', RefParam), async (c) => {
    const row = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    const { rows } = await db.query<{ restore_error: string | null }>('select restore_error from projects where id = $1', [row.id])
    return c.json({ status: row.status, error: row.status === 'RESTORATION_FAILED' ? (rows[0]?.restore_error ?? null) : null })
  })

  app.get('/platform/organizations/:slug/members/reached-free-project-limit', validate('param', SlugParam), async (c) => {
    const org = await findMemberOrganization(db, c.get('account').id, c.req.valid('param').slug)
    if (!org) return errorJson(c, 404, 'Organization not found')
    const rows = await membersAtFreeLimit(db, org.id, config.freeProjectLimit)
    return c.json(
      rows.map((r): MemberReachedFreeProjectLimit => ({
        username: r.username,
        primary_email: r.primary_email,
        free_project_limit: config.freeProjectLimit,
      })),
    )
  })
}
