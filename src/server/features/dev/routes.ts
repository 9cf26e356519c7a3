/**
 * Development controls: mounted only with DEV_CONTROLS=1 (otherwise every /dev path is 404).
 * No session needed (a local developer tool); input is validated like everywhere else.
 * This feature holds the controls of any project (create, status, API server, latency, advancing its lifecycle); the controls of one
 * feature (fail the next restore, JWT update or upgrade; warnings, usage) live in that feature's routes.
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, validate } from '../../core/http'
import { newProjectRef } from '../../core/secrets'
import { ProjectDbError } from '../../projectdb'
import { anyProject, findProjectByRef, insertProject, refParam, toProject } from '../projects/access'
import { makeNextTransitionDue, organizationIdOf, setPostgrestStatus, touchDatabase, transitionRecord } from './store'

export function devRoutes(deps: Deps) {
  const { db, clock, lifecycle } = deps
  const app = new Hono()
  const project = anyProject(db)

  app.on(...at(endpoints.devCreateProject), validate('json', endpoints.devCreateProject.body), async (c) => {
    const body = c.req.valid('json')
    const ref = newProjectRef()
    const created = await db.transaction(async (tx) => {
      const organizationId = await organizationIdOf(tx, body.organization_slug)
      if (organizationId === undefined) return false
      const now = clock.now()
      const id = await insertProject(tx, {
        organizationId,
        name: body.name ?? `Dev project ${ref.slice(0, 4)}`,
        status: body.status,
        postgrestStatus: body.postgrestStatus,
        kpsVersion: 'kps-v3.8.6',
        ref,
        now,
      })
      await lifecycle.enterStatus(tx, id, body.status, now)
      return true
    })
    if (!created) return errorJson(c, 404, `Organization '${body.organization_slug}' not found`)
    const row = await findProjectByRef(db, ref)
    return c.json(toProject(row!, baseUrl(deps.ownUrl)), 201)
  })

  app.on(...at(endpoints.devSetStatus), refParam, validate('json', endpoints.devSetStatus.body), project, async (c) => {
    const { id, ref } = c.var.project
    await db.transaction((tx) => lifecycle.move(tx, id, { from: 'any', to: c.req.valid('json').status, run: 'entry' }, clock.now()))
    return c.json(toProject((await findProjectByRef(db, ref))!, baseUrl(deps.ownUrl)))
  })

  app.on(...at(endpoints.devSetPostgrest), refParam, validate('json', endpoints.devSetPostgrest.body), project, async (c) => {
    const { id, ref } = c.var.project
    const { postgrestStatus } = c.req.valid('json')
    // An API server reports ONLINE once it holds a connection to its database: open it first (it opens on demand and
    // a cold open takes about half a second, more on a loaded machine), so the first request after ONLINE is served
    // at once instead of paying that open against the connectivity test's 2 s time-out.
    // A project that is not ACTIVE_HEALTHY has no database to open (database_unavailable): its flag is set all the same.
    if (postgrestStatus === 'ONLINE') {
      await deps.projectDbs
        .transaction(ref, { role: 'postgres', readOnly: true }, touchDatabase)
        .catch((err: unknown) => {
          if (!(err instanceof ProjectDbError && err.code === 'database_unavailable')) throw err
        })
    }
    await setPostgrestStatus(db, id, postgrestStatus, clock.now())
    return c.json(toProject((await findProjectByRef(db, ref))!, baseUrl(deps.ownUrl)))
  })

  // The project's next timed transition (the end of coming up, a pause or restore step, an upgrade step …) made due now,
  // answered once the engine has recorded it: a walk that checks a screen on a clock of its own drives the server's
  // steps with this instead of waiting the real durations (its server's durations set long enough never to come).
  app.on(...at(endpoints.devAdvance), refParam, project, async (c) => {
    const due = await makeNextTransitionDue(db, c.var.project.id, clock.now())
    if (!due) return errorJson(c, 404, `Project ${c.var.project.ref} has no pending transition`)
    const deadline = Date.now() + deps.config.lifecycle.advanceWaitMs
    for (;;) {
      const record = await transitionRecord(db, due.id)
      if (record.finished) return c.json({ kind: due.kind, outcome: record.outcome, cancelled: record.cancelled })
      if (Date.now() >= deadline) return errorJson(c, 504, `The ${due.kind} transition was not recorded within ${deps.config.lifecycle.advanceWaitMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })

  app.on(...at(endpoints.devSetLatency), validate('json', endpoints.devSetLatency.body), (c) => {
    deps.latency.ms = c.req.valid('json').ms
    return c.json({ ms: deps.latency.ms })
  })

  return app
}
