/**
 * Pause and restore on the local platform.
 *   POST /v1/projects/{ref}/pause          ACTIVE_HEALTHY → GOING_DOWN → PAUSING → INACTIVE      (projects:write)
 *   POST /v1/projects/{ref}/restore        INACTIVE → RESTORING → ACTIVE_HEALTHY | RESTORATION_FAILED
 *   POST /platform/projects/{ref}/restore  the same, answering the project                (infra-execute permission)
 *   GET  /platform/projects/{ref}/restore/status                          status and the last restore's error
 *   GET  /platform/organizations/{slug}/members/reached-free-project-limit
 *   POST /dev/projects/{ref}/fail-next-restore                            development control
 * Each change runs in one transaction with the project row locked, so two requests cannot both start one;
 * the timed steps are lifecycle rows (see transitions.ts), durable across restarts.
 * A restore checks the free project limit in the same transaction as its status change, holding the limit lock of
 * every member it counts (lockFreeProjectCounts, projects/freeLimit.ts, the rule creation follows too): concurrent
 * restores cannot all pass one check.
 */
import { Hono, type Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { ProjectStatus } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import type { MemberReachedFreeProjectLimit } from '../../../contracts/pause'
import type { Queryable } from '../../db'
import type { Deps } from '../../core/deps'
import { clearDevSwitch, setDevSwitch } from '../../core/devSwitches'
import { at, baseUrl, emptyBody, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberOrganization } from '../organizations/access'
import { anyProject, memberProject, refParam, type MemberProjectEnv } from '../projects/access'
import { findProjectByRef, freeLimitMessage, lockFreeProjectCounts, membersAtFreeLimit, toProject } from '../projects/access'
import { lockStatus, restoreErrorOf, setRestoreError } from './store'

const RESTORE_PERMISSION_MESSAGE = 'You do not have the required permissions to restore this project'
const PAUSE_PERMISSION_MESSAGE = 'You do not have the required permissions to pause this project'

/** A refusal decided inside the transaction, before the status is looked at (the free project limit). */
type Refusal = { ok: false; limit: { username: string; primary_email: string }[] }
type Outcome = { ok: true } | { ok: false; status: ProjectStatus } | Refusal

const describeStatus = (status: ProjectStatus) => (status === 'INACTIVE' ? 'paused (INACTIVE)' : status)

function refuseTransition(c: Context, action: 'pause' | 'restore', status: ProjectStatus) {
  const allowed = action === 'pause' ? 'an ACTIVE_HEALTHY project can be paused' : 'a paused (INACTIVE) project can be restored'
  return errorJson(c, 409, `Project is ${describeStatus(status)}: only ${allowed}`, 'invalid_transition')
}

export function pauseRoutes(deps: Deps) {
  const { db, clock, config, lifecycle } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** Moves a locked project from `from` into `to` (cancelling what was pending, scheduling what `to` needs). */
  function transition(
    projectId: number,
    from: ProjectStatus,
    to: ProjectStatus,
    before?: (tx: Queryable) => Promise<void>,
    check?: (tx: Queryable) => Promise<Refusal | undefined>,
  ) {
    return db.transaction(async (tx): Promise<Outcome> => {
      const refused = await check?.(tx)
      if (refused) return refused
      const status = await lockStatus(tx, projectId)
      if (status !== from) return { ok: false, status: status ?? 'UNKNOWN' }
      await before?.(tx)
      await lifecycle.move(tx, projectId, { from, to, run: 'entry' }, clock.now())
      return { ok: true }
    })
  }

  /** Pause: ACTIVE_HEALTHY → GOING_DOWN, for a member who may change the project. */
  const pause = createMiddleware<MemberProjectEnv>(async (c, next) => {
    const row = c.var.project
    if (!can(row.role, 'projects:write')) return errorJson(c, 403, PAUSE_PERMISSION_MESSAGE)
    const outcome = await transition(row.id, 'ACTIVE_HEALTHY', 'GOING_DOWN')
    if (!outcome.ok) return refuseTransition(c, 'pause', 'status' in outcome ? outcome.status : 'UNKNOWN')
    await next()
  })

  /** Restore: INACTIVE → RESTORING, for a member allowed to, unless members are at the free project limit. */
  const restore = createMiddleware<MemberProjectEnv>(async (c, next) => {
    const row = c.var.project
    if (!can(row.role, 'infra:execute:project-initialize-or-resume')) return errorJson(c, 403, RESTORE_PERMISSION_MESSAGE)
    // The dashboard shows these members in a blocking dialog; the server holds the same rule for every client.
    // Checked and applied in one transaction under the members' limit locks, so parallel restores are serialized.
    const outcome = await transition(
      row.id,
      'INACTIVE',
      'RESTORING',
      (tx) => setRestoreError(tx, row.id, null),
      async (tx) => {
        await lockFreeProjectCounts(tx, row.organization_id, row.id)
        const atLimit = await membersAtFreeLimit(tx, row.organization_id, config.freeProjectLimit)
        return atLimit.length > 0 ? { ok: false, limit: atLimit } : undefined
      },
    )
    if (!outcome.ok && 'limit' in outcome) {
      return errorJson(c, 409, freeLimitMessage(config.freeProjectLimit, outcome.limit), 'free_project_limit')
    }
    if (!outcome.ok) return refuseTransition(c, 'restore', outcome.status)
    await next()
  })

  app.on(...at(endpoints.pauseProject), refParam, emptyBody, project, pause, (c) => c.body(null, 200))

  app.on(...at(endpoints.restoreProjectV1), refParam, emptyBody, project, restore, (c) => c.body(null, 200))

  app.on(...at(endpoints.restoreProject), refParam, emptyBody, project, restore, async (c) =>
    c.json(toProject((await findProjectByRef(db, c.var.project.ref))!, baseUrl(deps.ownUrl))),
  )

  app.on(...at(endpoints.getRestoreStatus), project, async (c) => {
    const row = c.var.project
    return c.json({ status: row.status, error: row.status === 'RESTORATION_FAILED' ? await restoreErrorOf(db, row.id) : null })
  })

  app.on(...at(endpoints.getMembersReachedFreeProjectLimit), memberOrganization(db), async (c) => {
    const rows = await membersAtFreeLimit(db, c.var.organization.id, config.freeProjectLimit)
    return c.json(
      rows.map((r): MemberReachedFreeProjectLimit => ({
        username: r.username,
        primary_email: r.primary_email,
        free_project_limit: config.freeProjectLimit,
      })),
    )
  })

  return app
}

/** Development control (mounted only with DEV_CONTROLS=1): the project's next restore ends in RESTORATION_FAILED. */
export function pauseDevRoutes({ db }: Deps) {
  const app = new Hono()

  app.on(...at(endpoints.devFailNextRestore), refParam, validate('json', endpoints.devFailNextRestore.body), anyProject(db), async (c) => {
    const { fail } = c.req.valid('json')
    await (fail ? setDevSwitch : clearDevSwitch)(db, c.var.project.id, 'fail_next_restore')
    return c.json({ ref: c.var.project.ref, fail_next_restore: fail })
  })

  return app
}
