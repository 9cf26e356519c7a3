/**
 * API keys and JWT secret rotation.
 *   GET  /platform/props/project/{ref}/settings                   project settings with the keys the member may see
 *   GET  /platform/props/project/{ref}/api                        the API key info: the same keys, picked out by role
 *   POST /platform/props/project/{ref}/jwt-secret-update          roll ({}) or set ({ jwt_secret }) the secret
 *   GET  /platform/props/project/{ref}/jwt-secret-update-status   the latest update, or null
 *   GET  /v1/projects/{ref}/api-keys                              Management API ApiKeyResponse[]
 *   POST /dev/projects/{ref}/fail-next-jwt-update                 development control: the next update fails
 * The service_role key and the jwt_secret leave the server only for members holding service_api_keys:read.
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { JwtSecretUpdateAccepted, JwtSecretUpdateStatusResponse, ProjectApiInfo, ProjectSettings, V1ApiKey } from '../../../contracts/keys'
import type { Deps } from '../../core/deps'
import { setDevSwitch } from '../../core/devSwitches'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { iso } from '../../core/rows'
import { anyProject, memberProject, refParam } from '../projects/access'
import type { MemberProjectRow } from '../../core/rows'
import { failStaleUpdates, findProjectKeys, latestUpdate, requestJwtSecretUpdate, toUpdateMeta, type ProjectKeysRow } from './store'


/** The PostgREST service of a project: app id 1, as the dashboard's client libraries expect. */
const AUTO_API = { id: 1, name: 'Auto API' }

function toProjectSettings(
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
        app_config: { protocol: url.protocol.replace(/:$/, ''), endpoint: `${url.host}/p/${project.ref}` },
        service_api_keys: serviceKeys,
      },
    ],
  }
}

/** The API key info: the settings' one service, its keys picked out by tag (the same permission rule). */
function toApiInfo(settings: ProjectSettings, mayReadSecrets: boolean): ProjectApiInfo {
  const service = settings.services[0]
  const tagged = (tag: string) => service.service_api_keys.find((key) => key.tags === tag)?.api_key ?? null
  return {
    autoApiService: {
      protocol: service.app_config.protocol,
      endpoint: service.app_config.endpoint,
      defaultApiKey: tagged('anon'),
      ...(mayReadSecrets ? { serviceApiKey: tagged('service_role') } : {}),
    },
  }
}

export function toV1Keys(keys: ProjectKeysRow | undefined, mayReadSecrets: boolean): V1ApiKey[] {
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

export function keysRoutes({ db, clock, config, ownUrl }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.getProjectSettings), project, async (c) => {
    const keys = await findProjectKeys(db, c.var.project.id)
    const mayReadSecrets = can(c.var.project.role, 'service_api_keys:read')
    return c.json(toProjectSettings(c.var.project, keys, baseUrl(ownUrl), mayReadSecrets))
  })

  app.on(...at(endpoints.getProjectApiInfo), project, async (c) => {
    const keys = await findProjectKeys(db, c.var.project.id)
    const mayReadSecrets = can(c.var.project.role, 'service_api_keys:read')
    return c.json(toApiInfo(toProjectSettings(c.var.project, keys, baseUrl(ownUrl), mayReadSecrets), mayReadSecrets))
  })

  app.on(...at(endpoints.updateJwtSecret), refParam, validate('json', endpoints.updateJwtSecret.body), project, async (c) => {
    const row = c.var.project
    if (!can(row.role, 'service_api_keys:read') || !can(row.role, 'projects:write')) {
      return errorJson(c, 403, 'You do not have permission to update the JWT secret of this project')
    }
    const body = c.req.valid('json')
    const result = await db.transaction((tx) =>
      requestJwtSecretUpdate(tx, row.id, body.jwt_secret, clock.now(), config.lifecycle.jwtUpdateMs),
    )
    if (!result.ok) return errorJson(c, result.status, result.message)
    const accepted: JwtSecretUpdateAccepted = { change_tracking_id: result.changeTrackingId }
    return c.json(accepted, 202)
  })

  app.on(...at(endpoints.getJwtSecretUpdateStatus), project, async (c) => {
    const update = await db.transaction(async (tx) => {
      await failStaleUpdates(tx, c.var.project.id, clock.now())
      return latestUpdate(tx, c.var.project.id)
    })
    const body: JwtSecretUpdateStatusResponse = { jwtSecretUpdateStatus: update ? { meta: toUpdateMeta(update) } : null }
    return c.json(body)
  })

  app.on(...at(endpoints.v1ListApiKeys), refParam, validate('query', endpoints.v1ListApiKeys.query), project, async (c) => {
    const keys = await findProjectKeys(db, c.var.project.id)
    return c.json(toV1Keys(keys, can(c.var.project.role, 'service_api_keys:read')))
  })

  return app
}

/** Development control (mounted only with DEV_CONTROLS=1): the project's next JWT secret update to be applied fails. */
export function keysDevRoutes({ db }: Deps) {
  const app = new Hono()

  app.on(...at(endpoints.devFailNextJwtUpdate), anyProject(db), async (c) => {
    if (!(await findProjectKeys(db, c.var.project.id))) {
      return errorJson(c, 409, 'The project has no API keys yet: wait until it has finished setting up')
    }
    await setDevSwitch(db, c.var.project.id, 'fail_next_jwt_update')
    return c.json({ fail_next_jwt_update: true as const })
  })

  return app
}
