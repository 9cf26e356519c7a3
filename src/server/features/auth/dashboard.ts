/**
 * The dashboard's Authentication → Users calls (contracts: src/contracts/projectAuth.ts). Each is checked here
 * against the member's role (the list and a user's details for any member; every change needs project_auth:all),
 * then forwarded to the project's own auth service through the gateway with the project's service_role key, as
 * the platform's dashboard calls GoTrue's admin API: the service stays the one place users are written, and e-mails
 * go out exactly as its other callers' do. The service's refusals come back in the platform's `{ message, code }`.
 * In this order: a bad ref, query or body 400; not a member 404; a change without the permission 403; a project
 * that is not ACTIVE_HEALTHY 409; then the service's own answer (an e-mail already taken 422, an unknown user 404).
 */
import { Hono, type Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import { AuthEmptyAnswer, AuthUser, AuthUserPage } from '../../../contracts/projectAuth'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'

/** The in-process gateway the calls go through (the composed app's gateway sub-app). */
export type GatewayFetch = (path: string, init: RequestInit) => Response | Promise<Response>

const UserParam = z.object({ ref: ProjectRef, id: z.string().uuid('User id must be a UUID') })
const NOT_ACTIVE = { restoreTo: 'manage its users', onceActive: 'its users can be managed' }

type C = Context<MemberProjectEnv>

export function authDashboardRoutes({ db }: Pick<Deps, 'db'>, gateway: GatewayFetch) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** Undefined when the member may make the change; else the refusal. */
  const refuseChange = (c: C) =>
    can(c.var.project.role, 'project_auth:all') ? undefined : errorJson(c, 403, "Your role may not change this project's users")

  /** Sends one request to the project's auth service as its service_role; the service's answer, or a refusal. */
  async function forward(c: C, method: string, path: string, body?: unknown): Promise<{ res: Response; json: unknown } | Response> {
    const notActive = refuseUnlessActive(c, NOT_ACTIVE)
    if (notActive) return notActive
    const { rows } = await db.query<{ service_role_key: string }>(`select service_role_key from project_api_keys where project_id = $1`, [
      c.var.project.id,
    ])
    const key = rows[0]?.service_role_key
    if (!key) return errorJson(c, 409, 'The project has no API keys yet: its auth service cannot be reached', 'project_not_active')
    const res = await gateway(`/p/${c.var.project.ref}/auth/v1${path}`, {
      method,
      headers: { apikey: key, authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json: unknown = await res.json().catch(() => undefined)
    if (res.ok) return { res, json }
    // The service's `{ code, error_code, msg }` (or its gateway's), reworded in the platform's shape.
    const e = (json ?? {}) as { msg?: unknown; error_code?: unknown; message?: unknown }
    const message = typeof e.msg === 'string' ? e.msg : typeof e.message === 'string' ? e.message : 'The auth service refused the request'
    const status = (res.status >= 400 && res.status < 600 ? res.status : 502) as ContentfulStatusCode
    return errorJson(c, status, message, typeof e.error_code === 'string' ? e.error_code : undefined)
  }

  const userJson = (c: C, out: { json: unknown }) => c.json(AuthUser.parse(out.json))

  app.on(...at(endpoints.listAuthUsers), refParam, validate('query', endpoints.listAuthUsers.query), project, async (c) => {
    const q = c.req.valid('query')
    const search = new URLSearchParams({ page: String(q.page), per_page: String(q.per_page) })
    const keywords = q.keywords?.trim()
    if (keywords) search.set('filter', keywords)
    const out = await forward(c, 'GET', `/admin/users?${search}`)
    if (out instanceof Response) return out
    const users = (out.json as { users?: unknown }).users
    const total = Number(out.res.headers.get('x-total-count') ?? '0')
    return c.json(AuthUserPage.parse({ users, total }))
  })

  app.on(...at(endpoints.getAuthUser), validate('param', UserParam), project, async (c) => {
    const out = await forward(c, 'GET', `/admin/users/${c.req.valid('param').id}`)
    return out instanceof Response ? out : userJson(c, out)
  })

  app.on(...at(endpoints.createAuthUser), refParam, validate('json', endpoints.createAuthUser.body), project, async (c) => {
    const refused = refuseChange(c)
    if (refused) return refused
    const out = await forward(c, 'POST', '/admin/users', c.req.valid('json'))
    return out instanceof Response ? out : userJson(c, out)
  })

  app.on(...at(endpoints.inviteAuthUser), refParam, validate('json', endpoints.inviteAuthUser.body), project, async (c) => {
    const refused = refuseChange(c)
    if (refused) return refused
    const out = await forward(c, 'POST', '/invite', c.req.valid('json'))
    return out instanceof Response ? out : userJson(c, out)
  })

  for (const [e, path] of [
    [endpoints.sendAuthMagicLink, '/magiclink'],
    [endpoints.sendAuthRecovery, '/recover'],
  ] as const) {
    app.on(...at(e), refParam, validate('json', e.body), project, async (c) => {
      const refused = refuseChange(c)
      if (refused) return refused
      // A magic link to an existing user only: the dashboard never signs a new user up by accident.
      const out = await forward(c, 'POST', path, path === '/magiclink' ? { ...c.req.valid('json'), create_user: false } : c.req.valid('json'))
      return out instanceof Response ? out : c.json(AuthEmptyAnswer.parse({}))
    })
  }

  app.on(...at(endpoints.updateAuthUser), validate('param', UserParam), validate('json', endpoints.updateAuthUser.body), project, async (c) => {
    const refused = refuseChange(c)
    if (refused) return refused
    const out = await forward(c, 'PUT', `/admin/users/${c.req.valid('param').id}`, c.req.valid('json'))
    return out instanceof Response ? out : userJson(c, out)
  })

  app.on(...at(endpoints.deleteAuthUser), validate('param', UserParam), project, async (c) => {
    const refused = refuseChange(c)
    if (refused) return refused
    const out = await forward(c, 'DELETE', `/admin/users/${c.req.valid('param').id}`)
    return out instanceof Response ? out : c.json(AuthEmptyAnswer.parse({}))
  })

  return app
}
