/**
 * Development controls: served only with DEV_CONTROLS=1 (otherwise every /dev path is 404).
 * No session needed (a local developer tool); input is validated like everywhere else.
 *
 *   POST /dev/projects                 create a project in any status (DevCreateProjectBody)
 *     curl -X POST http://127.0.0.1:8787/dev/projects -H 'content-type: application/json' -d '{"organization_slug":"demo-free","name":"Fresh","status":"COMING_UP"}'
 *   POST /dev/projects/{ref}/status    set a project's status; cancels its pending transitions (DevSetStatusBody)
 *     curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/status -H 'content-type: application/json' -d '{"status":"INACTIVE"}'
 *   POST /dev/projects/{ref}/postgrest put the project's API server ONLINE or OFFLINE (DevSetPostgrestBody)
 *     curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/postgrest -H 'content-type: application/json' -d '{"postgrestStatus":"OFFLINE"}'
 *   POST /dev/latency                  slow every /platform and /v1 response by N ms, 0 to stop (DevLatencyBody)
 *     curl -X POST http://127.0.0.1:8787/dev/latency -H 'content-type: application/json' -d '{"ms":2500}'
 *   POST /dev/projects/{ref}/fail-next-restore  make the project's next restore end in RESTORATION_FAILED (DevFailNextRestoreBody)
 *     curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/fail-next-restore -H 'content-type: application/json' -d '{"fail":true}'
 *   POST /dev/projects/{ref}/fail-next-jwt-update  make the project's next JWT secret update fail (old secret and keys stay)
 *     curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/fail-next-jwt-update
 */
import type { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../contracts/common'
import { DevCreateProjectBody, DevLatencyBody, DevSetPostgrestBody, DevSetStatusBody } from '../../contracts/dev'
import { DevFailNextRestoreBody } from '../../contracts/pause'
import type { Deps } from '../deps'
import { errorJson, validate, type AppEnv } from '../http'
import { scheduleOnEntry, setProjectStatus } from '../lifecycle'
import { newProjectRef } from '../secrets'
import { findProjectByRef, insertProject, toProject } from '../store'
import { registerKeysDevRoutes } from './keys'
import { baseUrl } from './platform'

/** The list the README quotes. */
export const devControlRoutes = [
  {
    method: 'POST',
    path: '/dev/projects',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects -H 'content-type: application/json' -d '{"organization_slug":"demo-free","name":"Fresh","status":"COMING_UP"}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/status',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/status -H 'content-type: application/json' -d '{"status":"INACTIVE"}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/postgrest',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/postgrest -H 'content-type: application/json' -d '{"postgrestStatus":"OFFLINE"}'`,
  },
  {
    method: 'POST',
    path: '/dev/latency',
    curl: `curl -X POST http://127.0.0.1:8787/dev/latency -H 'content-type: application/json' -d '{"ms":2500}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/fail-next-restore',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/fail-next-restore -H 'content-type: application/json' -d '{"fail":true}'`,
  },
  {
    method: 'POST',
    path: '/dev/projects/{ref}/fail-next-jwt-update',
    curl: `curl -X POST http://127.0.0.1:8787/dev/projects/<ref>/fail-next-jwt-update`,
  },
] as const

const RefParam = z.object({ ref: ProjectRef })

export function registerDevRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock, config } = deps

  app.post('/dev/projects', validate('json', DevCreateProjectBody), async (c) => {
    const body = c.req.valid('json')
    const ref = newProjectRef()
    const created = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>('select id from organizations where slug = $1', [
        body.organization_slug,
      ])
      if (!rows[0]) return false
      const now = clock.now()
      const id = await insertProject(tx, {
        organizationId: rows[0].id,
        name: body.name ?? `Dev project ${ref.slice(0, 4)}`,
        status: body.status,
        postgrestStatus: body.postgrestStatus,
        kpsVersion: 'kps-v3.8.6',
        ref,
        now,
      })
      await scheduleOnEntry(tx, id, body.status, now, config.lifecycle)
      return true
    })
    if (!created) return errorJson(c, 404, `Organization '${body.organization_slug}' not found`)
    const row = await findProjectByRef(db, ref)
    return c.json(toProject(row!, baseUrl(deps, c.req.url)), 201)
  })

  app.post('/dev/projects/:ref/status', validate('param', RefParam), validate('json', DevSetStatusBody), async (c) => {
    const { ref } = c.req.valid('param')
    const project = await findProjectByRef(db, ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    await db.transaction((tx) =>
      setProjectStatus(tx, project.id, c.req.valid('json').status, clock.now(), config.lifecycle),
    )
    return c.json(toProject((await findProjectByRef(db, ref))!, baseUrl(deps, c.req.url)))
  })

  app.post(
    '/dev/projects/:ref/postgrest',
    validate('param', RefParam),
    validate('json', DevSetPostgrestBody),
    async (c) => {
      const { ref } = c.req.valid('param')
      const { rows } = await db.query('update projects set postgrest_status = $2, updated_at = $3 where ref = $1 returning id', [
        ref,
        c.req.valid('json').postgrestStatus,
        clock.now().toISOString(),
      ])
      if (!rows.length) return errorJson(c, 404, 'Project not found')
      return c.json(toProject((await findProjectByRef(db, ref))!, baseUrl(deps, c.req.url)))
    },
  )

  app.post(
    '/dev/projects/:ref/fail-next-restore',
    validate('param', RefParam),
    validate('json', DevFailNextRestoreBody),
    async (c) => {
      const { ref } = c.req.valid('param')
      const { rows } = await db.query<{ fail_next_restore: boolean }>(
        'update projects set fail_next_restore = $2 where ref = $1 returning fail_next_restore',
        [ref, c.req.valid('json').fail],
      )
      if (!rows.length) return errorJson(c, 404, 'Project not found')
      return c.json({ ref, fail_next_restore: rows[0].fail_next_restore })
    },
  )

  app.post('/dev/latency', validate('json', DevLatencyBody), (c) => {
    deps.latency.ms = c.req.valid('json').ms
    return c.json({ ms: deps.latency.ms })
  })

  registerKeysDevRoutes(app, deps)
}
