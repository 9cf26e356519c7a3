/**
 * The Management API's reads of one API key and of the legacy keys' switch:
 *   GET /v1/projects/{ref}/api-keys/{id}     ApiKeyResponse: one of the list's keys by its id (anon, service_role);
 *                                            the service_role key only for members holding service_api_keys:read,
 *                                            as the list shows it (to others it is not found)
 *   GET /v1/projects/{ref}/api-keys/legacy   LegacyApiKeysResponse: the JWT keys are the only keys here, always on
 *   GET /v1/projects/{ref}/config/auth/signing-keys[/legacy|/{id}]
 *                                            SigningKeyResponse(s): the project's JWT secret is its one signing key
 *                                            (HS256, in use, no public part); a rotation replaces it in place, so it
 *                                            keeps its id and its updated_at moves. Any member reads them: no secret
 */
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import { endpoint } from '../../../contracts/endpoint'
import { V1ApiKey, V1ApiKeysQuery } from '../../../contracts/keys'
import { V1LegacyApiKeys, V1SigningKey, V1SigningKeys } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { iso } from '../../core/rows'
import { memberProject, refParam } from '../projects/access'
import { toV1Keys } from './routes'
import { findProjectKeys } from './store'

const v1GetLegacyApiKeys = endpoint('GET', 'v1', '/projects/:ref/api-keys/legacy', { response: V1LegacyApiKeys })
const v1GetApiKey = endpoint('GET', 'v1', '/projects/:ref/api-keys/:id', { query: V1ApiKeysQuery, response: V1ApiKey })
const KeyParam = z.object({ ref: ProjectRef, id: z.string().min(1, 'id is required').max(100, 'id is too long') })
const v1ListSigningKeys = endpoint('GET', 'v1', '/projects/:ref/config/auth/signing-keys', { response: V1SigningKeys })
const v1GetLegacySigningKey = endpoint('GET', 'v1', '/projects/:ref/config/auth/signing-keys/legacy', { response: V1SigningKey })
const v1GetSigningKey = endpoint('GET', 'v1', '/projects/:ref/config/auth/signing-keys/:id', { response: V1SigningKey })
const SigningKeyParam = z.object({ ref: ProjectRef, id: z.uuid('id must be a UUID') })

/** A name-based UUID (version 5, RFC 9562) of the project's legacy key: the same for the project on every read. */
function legacyKeyId(ref: string): string {
  const hash = createHash('sha1').update(`legacy-jwt-secret:${ref}`).digest()
  hash[6] = (hash[6] & 0x0f) | 0x50
  hash[8] = (hash[8] & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

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

  /** The project's one signing key, or undefined while it has no keys yet (setting up). */
  const legacyKey = async (projectId: number, ref: string): Promise<V1SigningKey | undefined> => {
    const row = await findProjectKeys(db, projectId)
    if (!row) return undefined
    return { id: legacyKeyId(ref), algorithm: 'HS256', status: 'in_use', public_jwk: null, created_at: iso(row.created_at), updated_at: iso(row.updated_at) }
  }
  const NO_KEY = 'Signing key not found'

  app.on(...at(v1ListSigningKeys), refParam, project, async (c) => {
    const key = await legacyKey(c.var.project.id, c.var.project.ref)
    return c.json({ keys: key ? [key] : [] } satisfies V1SigningKeys)
  })

  // Before the key route: `legacy` would be refused as an id that is no UUID.
  app.on(...at(v1GetLegacySigningKey), refParam, project, async (c) => {
    const key = await legacyKey(c.var.project.id, c.var.project.ref)
    return key ? c.json(key satisfies V1SigningKey) : errorJson(c, 404, NO_KEY)
  })

  app.on(...at(v1GetSigningKey), validate('param', SigningKeyParam), project, async (c) => {
    const key = await legacyKey(c.var.project.id, c.var.project.ref)
    if (!key || key.id !== c.req.valid('param').id) return errorJson(c, 404, NO_KEY)
    return c.json(key satisfies V1SigningKey)
  })

  return app
}
