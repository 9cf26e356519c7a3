/** Settings answers for the API keys tests. */
import type { ProjectApiInfo, ProjectSettings } from '../src/contracts/keys'
import { REF } from './fixtures'

export const ANON_KEY = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.anon-signature'
export const SERVICE_KEY = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.service-signature'
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters'

export function makeSettings(opts: { keys?: boolean; secrets?: boolean; anon?: string; service?: string; secret?: string } = {}): ProjectSettings {
  const keys = opts.keys ?? true
  const secrets = opts.secrets ?? true
  return {
    project: {
      id: 1,
      ref: REF,
      name: 'Analytics',
      status: keys ? 'ACTIVE_HEALTHY' : 'COMING_UP',
      db_host: `db.${REF}.localhost`,
      ...(keys && secrets ? { jwt_secret: opts.secret ?? JWT_SECRET } : {}),
    },
    services: [
      {
        id: 1,
        name: 'Default API',
        app: { id: 1, name: 'Auto API' },
        app_config: { protocol: 'http', endpoint: `localhost/rest/${REF}` },
        service_api_keys: keys
          ? [
              { api_key: opts.anon ?? ANON_KEY, name: 'anon key', tags: 'anon' },
              ...(secrets ? [{ api_key: opts.service ?? SERVICE_KEY, name: 'service_role key', tags: 'service_role' }] : []),
            ]
          : [],
      },
    ],
  }
}

/** The API key info answer (spec 3) with the same keys as makeSettings: serviceApiKey only with `secrets`. */
export function makeApiInfo(opts: { keys?: boolean; secrets?: boolean; anon?: string; service?: string } = {}): ProjectApiInfo {
  const keys = opts.keys ?? true
  const secrets = opts.secrets ?? true
  return {
    autoApiService: {
      protocol: 'http',
      endpoint: `localhost/rest/${REF}`,
      defaultApiKey: keys ? (opts.anon ?? ANON_KEY) : null,
      ...(secrets ? { serviceApiKey: keys ? (opts.service ?? SERVICE_KEY) : null } : {}),
    },
  }
}
