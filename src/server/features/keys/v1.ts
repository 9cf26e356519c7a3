/**
 * The Management API's reads of one API key and of the legacy keys' switch:
 *   GET /v1/projects/{ref}/api-keys/{id}     ApiKeyResponse: one of the list's keys by its id (anon, service_role);
 *                                            the service_role key only for members holding service_api_keys:read,
 *                                            as the list shows it (to others it is not found)
 *   GET /v1/projects/{ref}/api-keys/legacy   LegacyApiKeysResponse: the JWT keys are the only keys here, always on
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import { endpoint } from '../../../contracts/endpoint'
import { V1ApiKey, V1ApiKeysQuery } from '../../../contracts/keys'
import { V1LegacyApiKeys } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberProject, refParam } from '../projects/access'
import { toV1Keys } from './routes'
import { findProjectKeys } from './store'

const v1GetLegacyApiKeys = endpoint('GET', 'v1', '/projects/:ref/api-keys/legacy', { response: V1LegacyApiKeys })
const v1GetApiKey = endpoint('GET', 'v1', '/projects/:ref/api-keys/:id', { query: V1ApiKeysQuery, response: V1ApiKey })
const KeyParam = z.object({ ref: ProjectRef, id: z.string().min(1, 'id is required').max(100, 'id is too long') })

export function keysV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  // Before the key route: `legacy` would read as a key's id.
  app.on(...at(v1GetLegacyApiKeys), refParam, project, (c) => c.json({ enabled: true } satisfies V1LegacyApiKeys))

  app.on(...at(v1GetApiKey), validate('param', KeyParam), validate('query', V1ApiKeysQuery), project, async (c) => {
    const { id } = c.req.valid('param')
    const keys = toV1Keys(await findProjectKeys(db, c.var.project.id), can(c.var.project.role, 'service_api_keys:read'))
    const key = keys.find((k) => k.id === id)
    if (!key) return errorJson(c, 404, `API key not found: this project has no key ${JSON.stringify(id)}`)
    return c.json(key satisfies V1ApiKey)
  })

  return app
}
