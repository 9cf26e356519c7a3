/**
 * The auth service's settings and mailbox for the dashboard and the Management API (contracts: src/contracts/auth.ts):
 *   GET   /v1/projects/{ref}/config/auth        any member of the project's organization
 *   PATCH /v1/projects/{ref}/config/auth        project_auth:all; the service obeys the next request
 *   GET   /platform/projects/{ref}/auth/mailbox project_auth:all (the messages hold sign-in links)
 */
import { Hono } from 'hono'
import type { AuthConfig } from '../../../contracts/auth'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberProject, refParam } from '../projects/access'
import { AUTH_CONFIG_BASE } from './configDefaults'
import { readMailbox } from './mail'
import { REFRESH_REUSE_GRACE_MS } from './grants'
import type { AuthSettings } from './settings'
import { loadAuthSettings, saveAuthSettings } from './store'

export function authConfigJson(settings: AuthSettings): AuthConfig {
  return {
    ...AUTH_CONFIG_BASE,
    ...settings,
    security_refresh_token_reuse_interval: REFRESH_REUSE_GRACE_MS / 1000,
  } as AuthConfig
}

export function authConfigRoutes({ db }: Pick<Deps, 'db'>) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.getAuthConfig), project, async (c) => c.json(authConfigJson(await loadAuthSettings(db, c.var.project.id))))

  app.on(...at(endpoints.updateAuthConfig), refParam, validate('json', endpoints.updateAuthConfig.body), project, async (c) => {
    if (!can(c.var.project.role, 'project_auth:all')) {
      return errorJson(c, 403, "Your role may not change this project's auth settings")
    }
    const saved = await saveAuthSettings(db, c.var.project.id, c.req.valid('json'))
    return c.json(authConfigJson(saved))
  })

  app.on(...at(endpoints.getAuthMailbox), project, async (c) => {
    if (!can(c.var.project.role, 'project_auth:all')) {
      return errorJson(c, 403, "Your role may not read this project's mailbox: its messages hold sign-in links")
    }
    return c.json({ messages: await readMailbox(db, c.var.project.id) })
  })

  return app
}
