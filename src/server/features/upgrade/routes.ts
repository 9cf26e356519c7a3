/**
 * Postgres upgrades (Management API, /v1) and the development control that makes the next one fail.
 *
 *   POST /v1/projects/{ref}/upgrade                 start an upgrade (projects:write); 409 unless ACTIVE_HEALTHY
 *   GET  /v1/projects/{ref}/upgrade/status          the latest upgrade (or ?tracking_id=…), null when none
 *   GET  /v1/projects/{ref}/upgrade/eligibility     eligible when on an older major than the latest
 *   POST /dev/projects/{ref}/fail-next-upgrade      the project's next upgrade fails at step at_step
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { DatabaseUpgradeStatusWireResponse } from '../../../contracts/upgrade'
import type { Deps } from '../../core/deps'
import { setDevSwitch } from '../../core/devSwitches'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { anyProject, memberProject, refParam } from '../projects/access'
import { latestUpgrade, lockProjectForUpgrade, toUpgradeStatus } from './store'
import { beginUpgrade, eligibilityFor, targetsFor } from './transitions'

export function upgradeRoutes({ db, clock, config, lifecycle }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.startUpgrade), refParam, validate('json', endpoints.startUpgrade.body), project, async (c) => {
    const body = c.req.valid('json')
    const row = c.var.project
    if (!can(row.role, 'projects:write')) return errorJson(c, 403, 'You do not have permission to upgrade this project')
    const outcome = await db.transaction(async (tx) => {
      // The row lock serialises two upgrade requests for the same project: the second sees UPGRADING.
      const current = await lockProjectForUpgrade(tx, row.id)
      if (current.status !== 'ACTIVE_HEALTHY') return { conflict: current.status, invalidTarget: undefined, trackingId: undefined }
      const targets: string[] = targetsFor(current.db_version)
      if (!targets.includes(body.target_version)) return { conflict: undefined, invalidTarget: targets, trackingId: undefined }
      const now = clock.now()
      // Not the entry hooks: they record an upgrade that does not advance (one set UPGRADING from outside); this one
      // schedules its steps below.
      await lifecycle.move(tx, row.id, { from: 'ACTIVE_HEALTHY', to: 'UPGRADING', run: 'none' }, now)
      const trackingId = await beginUpgrade(tx, row.id, {
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

  app.on(...at(endpoints.getUpgradeStatus), refParam, validate('query', endpoints.getUpgradeStatus.query), project, async (c) => {
    const row = await latestUpgrade(db, c.var.project.id, c.req.valid('query').tracking_id)
    // The wire shape (status as a number); the descriptor's response is the dashboard's parsed reading of it.
    const body: DatabaseUpgradeStatusWireResponse = { databaseUpgradeStatus: row ? toUpgradeStatus(row) : null }
    return c.json(body)
  })

  app.on(...at(endpoints.getUpgradeEligibility), project, (c) => c.json(eligibilityFor(c.var.project.db_version)))

  return app
}

/** Development control (mounted only with DEV_CONTROLS=1). */
export function upgradeDevRoutes({ db }: Deps) {
  const app = new Hono()

  app.on(...at(endpoints.devFailNextUpgrade), refParam, validate('json', endpoints.devFailNextUpgrade.body), anyProject(db), async (c) => {
    const { at_step: atStep } = c.req.valid('json')
    await setDevSwitch(db, c.var.project.id, 'fail_next_upgrade', atStep)
    return c.json({ at_step: atStep })
  })

  return app
}
