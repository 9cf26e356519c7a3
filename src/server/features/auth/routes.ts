/**
 * Each project's auth service, compatible with what @supabase/supabase-js (auth-js) sends and expects, behind the
 * gateway at `{origin}/p/{ref}/auth/v1`: sign-up, password / refresh-token / PKCE grants, e-mailed links and codes
 * (/otp, /magiclink, /recover, /invite, /verify), the signed-in user (/user, /logout) and the admin API for the
 * service_role key. Users live in the project's own database (schema auth); access tokens are HS256 JWTs signed
 * with the project's current JWT secret, so the gateway, REST and row level security (`auth.uid()`) accept them,
 * and a rotation of the secret ends them. Refusals are in the platform's `{ code, error_code, msg }` shape.
 */
import { Hono, type Context } from 'hono'
import type { Deps } from '../../core/deps'
import type { GatewayEnv, GatewayRefusal, Product } from '../../gateway'
import { ProjectDbError } from '../../projectdb/types'
import { adminRoutes } from './admin'
import { AuthApiError, authErrorResponse } from './errors'
import { grantRoutes } from './grants'
import { authService } from './service'
import { signedInRoutes } from './signedIn'
import { verifyRoutes } from './verify'

const GATEWAY_CODES: Record<string, string> = {
  project_not_found: 'project_not_found',
  project_unavailable: 'service_unavailable',
  no_key: 'no_authorization',
  bad_authorization_header: 'bad_jwt',
  invalid_token: 'bad_jwt',
  other_project: 'bad_jwt',
  token_expired: 'bad_jwt',
  bad_role: 'bad_jwt',
  no_secret: 'no_authorization',
}

export function authProduct(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Product {
  const s = authService(deps)
  const app = new Hono<GatewayEnv>()

  app.get('/health', (c) => c.json({ version: 'v2.170.0', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }))

  app.get('/settings', async (c) => {
    const settings = await s.settingsOf(c)
    return c.json({
      external: { anonymous_users: false, email: true, phone: settings.external_phone_enabled, apple: false, azure: false, bitbucket: false, discord: false, facebook: false, figma: false, github: false, gitlab: false, google: false, keycloak: false, linkedin_oidc: false, notion: false, slack_oidc: false, spotify: false, twitch: false, twitter: false, workos: false, zoom: false },
      disable_signup: settings.disable_signup,
      mailer_autoconfirm: settings.mailer_autoconfirm,
      phone_autoconfirm: settings.sms_autoconfirm,
      sms_provider: '',
      saml_enabled: false,
    })
  })

  grantRoutes(app, s)
  verifyRoutes(app, s)
  signedInRoutes(app, s)
  adminRoutes(app, s)

  // Last: what no route above answered (a sub-app's notFound is not used once mounted).
  app.all('*', (c) => c.json({ code: 404, error_code: 'not_found', msg: `No route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404))

  app.onError((err, c) => {
    if (err instanceof AuthApiError) {
      const res = authErrorResponse(c, err)
      const reasons = (err as { reasons?: string[] }).reasons
      if (reasons) return c.json({ code: err.status, error_code: err.errorCode, msg: err.message, weak_password: { reasons } }, err.status)
      return res
    }
    if (err instanceof ProjectDbError && (err.code === 'database_unavailable' || err.code === 'database_busy' || err.code === 'query_timeout')) {
      return c.json({ code: 503, error_code: 'service_unavailable', msg: 'The project database is not available: try again in a moment' }, 503)
    }
    // The name and SQLSTATE only: a message may quote a value of the request.
    console.error('auth service failure:', err instanceof Error ? err.name : 'error', err instanceof ProjectDbError ? err.code : '')
    return c.json({ code: 500, error_code: 'unexpected_failure', msg: 'Unexpected failure, please check server logs for more information' }, 500)
  })

  return {
    name: 'auth',
    app,
    keys: 'required',
    // The links of e-mails are opened by a browser, which has no key to send.
    keyless: (method, path) => method === 'GET' && path === '/verify',
    refuse: (c: Context, refusal: GatewayRefusal) => {
      for (const [k, v] of Object.entries(refusal.headers)) c.header(k, v)
      return c.json({ code: refusal.status, error_code: GATEWAY_CODES[refusal.reason] ?? 'bad_jwt', msg: refusal.message }, refusal.status)
    },
  }
}


