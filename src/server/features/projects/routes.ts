/**
 * Projects: the member's projects and one project (/platform, and the Management API's /v1 reads), its status,
 * its rename, and the health of its API server (the connecting screen's test; the REST schema it also reads is
 * served by the REST feature, rest/routes.ts); the Management API's create (POST /v1/projects), refused with 409
 * past the free project limit or the organization's disk cap, and its delete (DELETE /v1/projects/{ref}), which takes
 * the project's branches, databases and stored objects with it.
 */
import { setDatabasePassword } from '../../projectdb/password'
import { Hono } from 'hono'
import type { V1CreatedProject } from '../../../contracts/database'
import type { V1ProjectRefResponse } from '../../../contracts/v1'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { newProjectRef } from '../../core/secrets'
import { cancelPendingTransitions } from '../../engine/lifecycle'
import { findMemberOrganization } from '../organizations/access'
import { memberProject, refParam } from './access'
import { diskCapMessage, freeLimitMessage, lockFreeProjectCounts, membersAtFreeLimit, organizationDatabaseBytes } from './freeLimit'
import { insertProject, listMemberProjects, listMemberProjectsJson, renameProject, toProject } from './store'
import { toV1Project } from './v1'

type CreateOutcome = { ok: true } | { ok: false; code: 'free_project_limit' | 'database_size_limit'; message: string }

export function projectRoutes(deps: Deps) {
  const { db, clock, config, lifecycle } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.listProjects), async (c) => {
    const list = await listMemberProjectsJson(db, c.get('account').id, baseUrl(deps.ownUrl))
    return c.body(list, 200, { 'content-type': 'application/json' })
  })

  app.on(...at(endpoints.getProject), project, (c) => c.json(toProject(c.var.project, baseUrl(deps.ownUrl))))

  app.on(...at(endpoints.getProjectStatus), project, (c) => c.json({ status: c.var.project.status }))

  app.on(...at(endpoints.updateProject), refParam, validate('json', endpoints.updateProject.body), project, async (c) => {
    const row = c.var.project
    if (!can(row.role, 'projects:write')) {
      return errorJson(c, 403, 'You do not have permission to change this project')
    }
    const name = c.req.valid('json').name
    await renameProject(db, row.id, name, clock.now())
    return c.json(toProject({ ...row, name }, baseUrl(deps.ownUrl)))
  })

  app.on(...at(endpoints.getProjectLive), project, (c) => {
    if (c.var.project.postgrest_status !== 'ONLINE') return errorJson(c, 503, 'The project API server is offline')
    return c.json({ status: 'ok' as const })
  })

  // The Management API's reads (/v1), shaped like ../shared/reference/management-api.openapi.json.
  // Informational host; a bare IP would read oddly after the ref.
  const hostOf = () => {
    const host = new URL(baseUrl(deps.ownUrl)).hostname
    return /^[\d.]+$|:/.test(host) ? 'localhost' : host
  }

  app.on(...at(endpoints.v1ListProjects), async (c) => {
    const rows = await listMemberProjects(db, c.get('account').id)
    const host = hostOf()
    return c.json(rows.map((r) => toV1Project(r, host)))
  })

  app.on(...at(endpoints.v1GetProject), project, (c) => c.json(toV1Project(c.var.project, hostOf())))

  // Owners and administrators delete a project. Its branches go first, each like the project: pending transitions
  // cancelled, its database dropped, its stored objects' bytes removed and what runs for it ended, then its rows (settings, keys, … by
  // cascade). The rows go last, so a crash half-way leaves a project that a second DELETE finishes.
  app.on(...at(endpoints.v1DeleteProject), project, async (c) => {
    const row = c.var.project
    if (!can(row.role, 'organizations:write')) {
      return errorJson(c, 403, 'Only the owners and administrators of its organization may delete a project')
    }
    const { rows: branches } = await db.query<{ id: number; ref: string }>(
      'select p.id, p.ref from branches b join projects p on p.id = b.project_id where b.parent_project_id = $1',
      [row.id],
    )
    for (const doomed of [...branches, { id: row.id, ref: row.ref }]) {
      await db.transaction((tx) => cancelPendingTransitions(tx, doomed.id, clock.now()))
      await deps.lifecycle.removing(doomed)
      await deps.projectDbs.drop(doomed.ref)
      await db.query('delete from projects where id = $1', [doomed.id])
    }
    return c.json({ id: row.id, ref: row.ref, name: row.name } satisfies V1ProjectRefResponse)
  })

  // Creates a project that comes up through the lifecycle: COMING_UP now, its own database and ACTIVE_HEALTHY after
  // LIFECYCLE_COMING_UP_MS (src/server/projectdb/lifecycle.ts). db_pass becomes the database password of the
  // Postgres port, kept only as its SCRAM verifier.
  app.on(...at(endpoints.createProject), validate('json', endpoints.createProject.body), async (c) => {
    const body = c.req.valid('json')
    const account = c.get('account')
    const organization = await findMemberOrganization(db, account.id, body.organization_slug)
    if (!organization) return errorJson(c, 404, 'Organization not found')
    if (!can(organization.role, 'projects:write')) {
      return errorJson(c, 403, 'You do not have permission to create projects in this organization')
    }
    const ref = newProjectRef()
    const region = body.region_selection?.code ?? body.region ?? 'us-east-1'
    const now = clock.now()
    // The free project limit and the disk cap are checked in the insert's transaction, under the same per-member
    // locks as a restore (freeLimit.ts), so parallel creations cannot all pass one check.
    const outcome = await db.transaction(async (tx): Promise<CreateOutcome> => {
      await lockFreeProjectCounts(tx, organization.id, null)
      const atLimit = await membersAtFreeLimit(tx, organization.id, config.freeProjectLimit)
      if (atLimit.length > 0) return { ok: false, code: 'free_project_limit', message: freeLimitMessage(config.freeProjectLimit, atLimit) }
      if (config.orgMaxDatabaseBytes > 0) {
        const used = await organizationDatabaseBytes(tx, organization.id)
        if (used >= config.orgMaxDatabaseBytes) {
          return { ok: false, code: 'database_size_limit', message: diskCapMessage(used, config.orgMaxDatabaseBytes) }
        }
      }
      const id = await insertProject(tx, {
        organizationId: organization.id,
        name: body.name,
        status: 'COMING_UP',
        postgrestStatus: 'ONLINE',
        kpsVersion: 'kps-v3.8.6',
        region,
        ref,
        now,
        createdBy: account.id,
      })
      if (body.db_pass) await setDatabasePassword(tx, id, body.db_pass, now)
      await lifecycle.enterStatus(tx, id, 'COMING_UP', now)
      return { ok: true }
    })
    if (!outcome.ok) return errorJson(c, 409, outcome.message, outcome.code)
    return c.json(
      {
        id: ref,
        ref,
        organization_id: String(organization.id),
        organization_slug: organization.slug,
        name: body.name,
        region,
        created_at: now.toISOString(),
        status: 'COMING_UP',
      } satisfies V1CreatedProject,
      201,
    )
  })

  return app
}
