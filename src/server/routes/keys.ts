/**
 * API keys and JWT secret rotation.
 *   GET  /platform/props/project/{ref}/settings                   project settings with the keys the member may see
 *   POST /platform/props/project/{ref}/jwt-secret-update          roll ({}) or set ({ jwt_secret }) the secret
 *   GET  /platform/props/project/{ref}/jwt-secret-update-status   the latest update, or null
 *   GET  /v1/projects/{ref}/api-keys                              Management API ApiKeyResponse[]
 * The service_role key and the jwt_secret leave the server only for members holding service_api_keys:read.
 */
import type { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../contracts/common'
import {
  JwtSecretUpdateBody,
  type JwtSecretUpdateAccepted,
  type JwtSecretUpdateStatusResponse,
  type ProjectSettings,
  type V1ApiKey,
} from '../../contracts/keys'
import type { Deps } from '../deps'
import { errorJson, validate, type AppEnv } from '../http'
import { failStaleUpdates, findProjectKeys, latestUpdate, requestJwtSecretUpdate, toUpdateMeta, type ProjectKeysRow } from '../keys'
import { can } from '../permissions'
import { findMemberProject, iso, type MemberProjectRow } from '../store'
import { baseUrl } from './platform'

const RefParam = z.object({ ref: ProjectRef })
const ApiKeysQuery = z.object({ reveal: z.enum(['true', 'false'], 'reveal must be true or false').optional() })

/** The PostgREST service of a project: app id 1, as the dashboard's client libraries expect. */
const AUTO_API = { id: 1, name: 'Auto API' }

export function toProjectSettings(
  project: MemberProjectRow,
  keys: ProjectKeysRow | undefined,
  base: string,
  mayReadSecrets: boolean,
): ProjectSettings {
  const url = new URL(base)
  const serviceKeys: ProjectSettings['services'][number]['service_api_keys'] = []
  if (keys) {
    serviceKeys.push({ api_key: keys.anon_key, name: 'anon key', tags: 'anon' })
    if (mayReadSecrets) serviceKeys.push({ api_key: keys.service_role_key, name: 'service_role key', tags: 'service_role' })
  }
  return {
    project: {
      id: project.id,
      ref: project.ref,
      name: project.name,
      status: project.status,
      db_host: `db.${project.ref}.${/^[\d.]+$|:/.test(url.hostname) ? 'localhost' : url.hostname}`,
      ...(keys && mayReadSecrets ? { jwt_secret: keys.jwt_secret } : {}),
    },
    services: [
      {
        id: project.id,
        name: 'Default API',
        app: AUTO_API,
        app_config: { protocol: url.protocol.replace(/:$/, ''), endpoint: `${url.host}/rest/${project.ref}` },
        service_api_keys: serviceKeys,
      },
    ],
  }
}

function toV1Keys(keys: ProjectKeysRow | undefined, mayReadSecrets: boolean): V1ApiKey[] {
  if (!keys) return []
  const common = {
    type: 'legacy' as const,
    prefix: null,
    hash: null,
    secret_jwt_template: null,
    inserted_at: iso(keys.created_at),
    updated_at: iso(keys.updated_at),
  }
  const list: V1ApiKey[] = [
    { ...common, id: 'anon', name: 'anon', api_key: keys.anon_key, description: 'Public key: safe in a browser when row level security is on' },
  ]
  if (mayReadSecrets) {
    list.push({
      ...common,
      id: 'service_role',
      name: 'service_role',
      api_key: keys.service_role_key,
      description: 'Secret key: bypasses row level security; never share it',
    })
  }
  return list
}

export function registerKeysRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock, config } = deps

  app.get('/platform/props/project/:ref/settings', validate('param', RefParam), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    const keys = await findProjectKeys(db, project.id)
    return c.json(toProjectSettings(project, keys, baseUrl(deps, c.req.url), can(project.role, 'service_api_keys:read')))
  })

  app.post(
    '/platform/props/project/:ref/jwt-secret-update',
    validate('param', RefParam),
    validate('json', JwtSecretUpdateBody),
    async (c) => {
      const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
      if (!project) return errorJson(c, 404, 'Project not found')
      if (!can(project.role, 'service_api_keys:read') || !can(project.role, 'projects:write')) {
        return errorJson(c, 403, 'You do not have permission to update the JWT secret of this project')
      }
      const body = c.req.valid('json')
      const result = await db.transaction((tx) =>
        requestJwtSecretUpdate(tx, project.id, body.jwt_secret, clock.now(), config.lifecycle.jwtUpdateMs),
      )
      if (!result.ok) return errorJson(c, result.status, result.message)
      const accepted: JwtSecretUpdateAccepted = { change_tracking_id: result.changeTrackingId }
      return c.json(accepted, 202)
    },
  )

  app.get('/platform/props/project/:ref/jwt-secret-update-status', validate('param', RefParam), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    const update = await db.transaction(async (tx) => {
      await failStaleUpdates(tx, project.id, clock.now())
      return latestUpdate(tx, project.id)
    })
    const body: JwtSecretUpdateStatusResponse = { jwtSecretUpdateStatus: update ? { meta: toUpdateMeta(update) } : null }
    return c.json(body)
  })

  app.get('/v1/projects/:ref/api-keys', validate('param', RefParam), validate('query', ApiKeysQuery), async (c) => {
    const project = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!project) return errorJson(c, 404, 'Project not found')
    const keys = await findProjectKeys(db, project.id)
    return c.json(toV1Keys(keys, can(project.role, 'service_api_keys:read')))
  })
}

/**
 * Development control (registered by routes/dev.ts, so only with DEV_CONTROLS=1):
 *   POST /dev/projects/{ref}/fail-next-jwt-update   the project's next JWT secret update to be applied fails;
 *                                                   the old secret and keys stay valid
 */
export function registerKeysDevRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/dev/projects/:ref/fail-next-jwt-update', validate('param', RefParam), async (c) => {
    const { rows: projects } = await deps.db.query<{ id: number }>('select id from projects where ref = $1', [
      c.req.valid('param').ref,
    ])
    if (!projects[0]) return errorJson(c, 404, 'Project not found')
    const { rows } = await deps.db.query(
      'update project_api_keys set fail_next_jwt_update = true where project_id = $1 returning project_id',
      [projects[0].id],
    )
    if (!rows.length) return errorJson(c, 409, 'The project has no API keys yet: wait until it has finished setting up')
    return c.json({ fail_next_jwt_update: true as const })
  })
}
