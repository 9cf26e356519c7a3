import * as z from 'zod/mini'
import { ProjectStatus } from './common'

/**
 * API keys, project settings and JWT secret rotation.
 *   GET  /platform/props/project/{ref}/settings                  -> ProjectSettings
 *   GET  /platform/props/project/{ref}/api                       -> ProjectApiInfo (spec 3's API key info)
 *   POST /platform/props/project/{ref}/jwt-secret-update         JwtSecretUpdateBody -> JwtSecretUpdateAccepted
 *   GET  /platform/props/project/{ref}/jwt-secret-update-status  -> JwtSecretUpdateStatusResponse
 *   GET  /v1/projects/{ref}/api-keys                             -> V1ApiKeyList
 * The service_role key and the jwt_secret are absent (not masked) for members without service_api_keys:read.
 */

/** Shortest custom JWT secret the platform accepts. */
export const JWT_SECRET_MIN_LENGTH = 32
export const JWT_SECRET_TOO_SHORT = `The JWT secret must be at least ${JWT_SECRET_MIN_LENGTH} characters long`

/** Tags of a key, comma-separated ('anon', 'service_role'). */
export const ApiKeyTag = z.enum(['anon', 'service_role'])
export type ApiKeyTag = z.infer<typeof ApiKeyTag>

export const ServiceApiKey = z.object({
  api_key: z.string().check(z.minLength(1)),
  name: z.string(),
  tags: z.string(),
})
export type ServiceApiKey = z.infer<typeof ServiceApiKey>

export const ProjectService = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  app: z.object({ id: z.number().check(z.int()), name: z.string() }),
  app_config: z.object({ protocol: z.string(), endpoint: z.string() }),
  service_api_keys: z.array(ServiceApiKey),
})
export type ProjectService = z.infer<typeof ProjectService>

export const ProjectSettings = z.object({
  project: z.object({
    id: z.number().check(z.int()),
    ref: z.string(),
    name: z.string(),
    status: ProjectStatus,
    db_host: z.string(),
    /** Only for members allowed to read service_api_keys. */
    jwt_secret: z.optional(z.string()),
  }),
  services: z.array(ProjectService),
})
export type ProjectSettings = z.infer<typeof ProjectSettings>

/**
 * The API key info (spec 3): the project's Auto API service with its keys picked out — `defaultApiKey` the anon key,
 * `serviceApiKey` the service_role key (absent, not masked, without service_api_keys:read), `endpoint` the host and
 * path of the project URL (`{protocol}://{endpoint}`, a client library's supabaseUrl). The keys are null while the
 * project has none (coming up).
 */
export const ProjectApiInfo = z.object({
  autoApiService: z.object({
    protocol: z.string(),
    endpoint: z.string(),
    defaultApiKey: z.nullable(z.string().check(z.minLength(1))),
    serviceApiKey: z.optional(z.nullable(z.string().check(z.minLength(1)))),
  }),
})
export type ProjectApiInfo = z.infer<typeof ProjectApiInfo>

/** Absent jwt_secret: roll (the platform generates one); present: a custom secret. */
export const JwtSecretUpdateBody = z.strictObject({
  jwt_secret: z.optional(
    z.string().check(
      z.minLength(JWT_SECRET_MIN_LENGTH, JWT_SECRET_TOO_SHORT),
      z.maxLength(1024, 'The JWT secret must be at most 1024 characters long'),
    ),
  ),
})
export type JwtSecretUpdateBody = z.infer<typeof JwtSecretUpdateBody>

export const JwtSecretUpdateAccepted = z.object({ change_tracking_id: z.string() })
export type JwtSecretUpdateAccepted = z.infer<typeof JwtSecretUpdateAccepted>

export const JwtSecretUpdateState = z.enum(['updating', 'updated', 'failed'])
export type JwtSecretUpdateState = z.infer<typeof JwtSecretUpdateState>

export const JwtSecretUpdateMeta = z.object({
  change_tracking_id: z.string(),
  error: z.nullable(z.string()),
  progress: z.string(),
  status: JwtSecretUpdateState,
})
export type JwtSecretUpdateMeta = z.infer<typeof JwtSecretUpdateMeta>

/** null: the secret was never updated. */
export const JwtSecretUpdateStatusResponse = z.object({
  jwtSecretUpdateStatus: z.nullable(z.object({ meta: JwtSecretUpdateMeta })),
})
export type JwtSecretUpdateStatusResponse = z.infer<typeof JwtSecretUpdateStatusResponse>

/** Management API ApiKeyResponse (legacy JWT keys). */
export const V1ApiKey = z.object({
  api_key: z.nullable(z.string()),
  id: z.nullable(z.string()),
  type: z.nullable(z.enum(['legacy', 'publishable', 'secret'])),
  prefix: z.nullable(z.string()),
  name: z.string(),
  description: z.nullable(z.string()),
  hash: z.nullable(z.string()),
  secret_jwt_template: z.nullable(z.record(z.string(), z.unknown())),
  inserted_at: z.nullable(z.string()),
  updated_at: z.nullable(z.string()),
})
export type V1ApiKey = z.infer<typeof V1ApiKey>
export const V1ApiKeyList = z.array(V1ApiKey)

/** POST /dev/projects/{ref}/fail-next-jwt-update */
export const DevFailNextJwtUpdateResponse = z.object({ fail_next_jwt_update: z.literal(true) })

/** GET /v1/projects/{ref}/api-keys?reveal: accepted as the Management API has it (keys are shown by permission). */
export const V1ApiKeysQuery = z.object({ reveal: z.optional(z.enum(['true', 'false'], 'reveal must be true or false')) })
