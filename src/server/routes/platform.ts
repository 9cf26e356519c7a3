/** /platform: sign-in, profile, access tokens, organizations, projects. */
import type { Hono } from 'hono'
import * as z from 'zod'
import { CreateAccessTokenBody, SignInBody } from '../../contracts/auth'
import { OrgSlug, ProjectRef } from '../../contracts/common'
import { UpdateProjectBody } from '../../contracts/projects'
import type { PlanId } from '../../contracts/common'
import {
  createAccessToken,
  createSession,
  deleteSession,
  setSessionCookie,
  toAccessToken,
  type AccessTokenRow,
} from '../auth'
import type { Deps } from '../deps'
import { errorJson, validate, type AppEnv } from '../http'
import { can, permissionsFor } from '../permissions'
import { dummyPasswordHash, verifyPassword } from '../secrets'
import {
  findMemberOrganization,
  findMemberProject,
  listMemberOrganizations,
  listMemberProjects,
  toOrganization,
  toProject,
  type AccountRow,
} from '../store'

const planNames: Record<PlanId, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' }
const RefParam = z.object({ ref: ProjectRef })
const SlugParam = z.object({ slug: OrgSlug })
const TokenIdParam = z.object({ id: z.coerce.number().int().positive('Token id must be a positive number') })

export function baseUrl(deps: Deps, requestUrl: string): string {
  return deps.config.publicUrl ?? new URL(requestUrl).origin
}

const profileOf = (a: AccountRow) => ({ id: a.id, username: a.username, primary_email: a.primary_email })

/** Routes that need no session; registered before the session middleware. */
export function registerPublicPlatformRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock, config } = deps

  app.get('/platform/health', (c) => c.json({ ok: true as const }))

  app.post('/platform/auth/sign-in', validate('json', SignInBody), async (c) => {
    const { email, password } = c.req.valid('json')
    const { rows } = await db.query<AccountRow & { password_hash: string }>(
      'select id, username, primary_email, password_hash from accounts where primary_email = $1',
      [email],
    )
    const account = rows[0]
    // The scrypt work is done for unknown e-mails too, so timing tells nothing.
    const ok = await verifyPassword(password, account?.password_hash ?? (await dummyPasswordHash()))
    if (!account || !ok) return errorJson(c, 401, 'Invalid email or password')
    const token = await createSession(db, account.id, clock.now(), config.sessionTtlMs)
    setSessionCookie(c, token, config.sessionTtlMs)
    return c.json(profileOf(account))
  })

  app.post('/platform/auth/sign-out', async (c) => {
    await deleteSession(c, db)
    return c.body(null, 204)
  })
}

/** Routes behind the session (the middleware is installed by the app before these). */
export function registerPlatformRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { db, clock } = deps

  app.get('/platform/profile', (c) => c.json(profileOf(c.get('account'))))

  app.get('/platform/profile/permissions', async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(
      orgs.map((o) => ({
        organization_id: o.id,
        organization_slug: o.slug,
        role: o.role,
        permissions: permissionsFor(o.role),
      })),
    )
  })

  app.get('/platform/profile/access-tokens', async (c) => {
    const { rows } = await db.query<AccessTokenRow>(
      `select id, name, token_alias, created_at, last_used_at from access_tokens where account_id = $1 order by id`,
      [c.get('account').id],
    )
    return c.json(rows.map(toAccessToken))
  })

  app.post('/platform/profile/access-tokens', validate('json', CreateAccessTokenBody), async (c) => {
    const created = await createAccessToken(db, c.get('account').id, c.req.valid('json').name, clock.now())
    return c.json(created, 201)
  })

  app.delete('/platform/profile/access-tokens/:id', validate('param', TokenIdParam), async (c) => {
    const { rows } = await db.query('delete from access_tokens where id = $1 and account_id = $2 returning id', [
      c.req.valid('param').id,
      c.get('account').id,
    ])
    if (!rows.length) return errorJson(c, 404, 'Access token not found')
    return c.body(null, 204)
  })

  app.get('/platform/organizations', async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(orgs.map(toOrganization))
  })

  app.get('/platform/organizations/:slug', validate('param', SlugParam), async (c) => {
    const org = await findMemberOrganization(db, c.get('account').id, c.req.valid('param').slug)
    if (!org) return errorJson(c, 404, 'Organization not found')
    return c.json(toOrganization(org))
  })

  app.get('/platform/organizations/:slug/billing/subscription', validate('param', SlugParam), async (c) => {
    const org = await findMemberOrganization(db, c.get('account').id, c.req.valid('param').slug)
    if (!org) return errorJson(c, 404, 'Organization not found')
    return c.json({
      plan: { id: org.plan_id, name: planNames[org.plan_id] },
      // Free and Pro come with the spend cap on; larger plans bill usage.
      usage_billing_enabled: org.plan_id === 'team' || org.plan_id === 'enterprise',
    })
  })

  app.get('/platform/projects', async (c) => {
    const rows = await listMemberProjects(db, c.get('account').id)
    const base = baseUrl(deps, c.req.url)
    return c.json(rows.map((r) => toProject(r, base)))
  })

  app.get('/platform/projects/:ref', validate('param', RefParam), async (c) => {
    const row = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    return c.json(toProject(row, baseUrl(deps, c.req.url)))
  })

  app.get('/platform/projects/:ref/status', validate('param', RefParam), async (c) => {
    const row = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    return c.json({ status: row.status })
  })

  app.patch(
    '/platform/projects/:ref',
    validate('param', RefParam),
    validate('json', UpdateProjectBody),
    async (c) => {
      const account = c.get('account')
      const row = await findMemberProject(db, account.id, c.req.valid('param').ref)
      if (!row) return errorJson(c, 404, 'Project not found')
      if (!can(row.role, 'projects:write')) {
        return errorJson(c, 403, 'You do not have permission to change this project')
      }
      const name = c.req.valid('json').name
      await db.query('update projects set name = $2, updated_at = $3 where id = $1', [
        row.id,
        name,
        clock.now().toISOString(),
      ])
      return c.json(toProject({ ...row, name }, baseUrl(deps, c.req.url)))
    },
  )
}
