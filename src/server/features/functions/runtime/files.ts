/**
 * What a function's page reads besides the Management API:
 *   GET  /platform/projects/{ref}/functions/{slug}/files → FunctionFiles
 *        Any member reads them (as the Management API's `…/body` answers any member); the files are the stored
 *        version's, or its single body when it was made with one.
 *   POST /platform/projects/{ref}/functions/test-token { user_id } → TestToken
 *        The Test panel's "as a user": an access token for one user of the project's auth, signed with the project's
 *        JWT secret with the claims its auth service gives (no session, so it cannot be refreshed; it lasts
 *        TEST_TOKEN_SECONDS). Acting as any user is what the service_role key allows, so only members who may read
 *        that key get one. A user that does not exist is a 404, a project that is not up a 409.
 */
import { Hono } from 'hono'
import { SignJWT } from 'jose'
import * as z from 'zod'
import { ProjectRef } from '../../../../contracts/common'
import * as endpoints from '../../../../contracts/endpoints/functionRuntime'
import type { FunctionFiles, TestToken } from '../../../../contracts/functionRuntime'
import type { Deps } from '../../../core/deps'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../../core/http'
import { can } from '../../../core/permissions'
import { answerDatabaseFailure } from '../../../core/domainErrors'
import { ProjectDbError } from '../../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive } from '../../projects/access'
import { findRunnable, functionFiles, projectApiKeys } from './store'

/** How long a Test panel token lasts: long enough for a few tries, short enough not to be worth keeping. */
export const TEST_TOKEN_SECONDS = 600

interface TestUser {
  id: string
  email: string | null
  phone: string | null
  app_metadata: Record<string, unknown> | null
  user_metadata: Record<string, unknown> | null
  is_anonymous: boolean | null
  banned: boolean
}

const SlugParam = z.object({ ref: ProjectRef, slug: z.string().regex(/^[A-Za-z0-9_-]+$/, 'function_slug: letters, digits, - and _ only').max(128) })

export function functionFilesRoutes({ db, projectDbs, clock, ownUrl }: Pick<Deps, 'db' | 'projectDbs' | 'clock' | 'ownUrl'>) {
  const app = new Hono<AppEnv>()
  app.on(...at(endpoints.createTestToken), refParam, validate('json', endpoints.createTestToken.body), memberProject(db), async (c) => {
    if (!can(c.var.project.role, 'service_api_keys:read')) {
      return errorJson(c, 403, "You need to be allowed to read the project's service_role key to test a function as one of its users")
    }
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    const { ref, id: projectId } = c.var.project
    const keys = await projectApiKeys(db, projectId)
    if (!keys) return errorJson(c, 409, 'The project has no JWT secret yet', 'project_not_active')
    let user: TestUser | undefined
    try {
      user = await projectDbs.transaction(ref, { readOnly: true }, async (tx) => {
        const { rows } = await tx.query<TestUser>(
          `select id::text as id, email, phone, raw_app_meta_data as app_metadata, raw_user_meta_data as user_metadata,
                  is_anonymous, coalesce(banned_until > now(), false) as banned
             from auth.users where id = $1::uuid and deleted_at is null`,
          [c.req.valid('json').user_id],
        )
        return rows[0]
      })
    } catch (err) {
      if (err instanceof ProjectDbError) return answerDatabaseFailure(c, err, "The project's database is not available right now")
      throw err
    }
    if (!user) return errorJson(c, 404, 'No user with this id in the project')
    if (user.banned) return errorJson(c, 422, 'This user is banned: the auth service would give them no token', 'user_banned')
    const nowS = Math.floor(clock.now().getTime() / 1000)
    const access_token = await new SignJWT({
      aud: 'authenticated',
      sub: user.id,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.app_metadata ?? {},
      user_metadata: user.user_metadata ?? {},
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'impersonation', timestamp: nowS }],
      is_anonymous: user.is_anonymous ?? false,
      ref,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(`${baseUrl(ownUrl)}/p/${ref}/auth/v1`)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + TEST_TOKEN_SECONDS)
      .sign(new TextEncoder().encode(keys.jwt_secret))
    return c.json({ access_token, token_type: 'bearer', expires_in: TEST_TOKEN_SECONDS, user: { id: user.id, email: user.email } } satisfies TestToken)
  })
  app.on(...at(endpoints.getFunctionFiles), validate('param', SlugParam), memberProject(db), async (c) => {
    const { slug } = c.req.valid('param')
    const fn = await findRunnable(db, c.var.project.id, slug)
    if (!fn) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    const stored = await functionFiles(db, fn.id)
    const files = stored.length > 0 ? stored : [{ name: fn.entrypoint_path, content: fn.body }]
    return c.json({ entrypoint_path: fn.entrypoint_path, version: fn.version, files } satisfies FunctionFiles)
  })
  return app
}
