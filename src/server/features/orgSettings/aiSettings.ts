/**
 * The AI settings of a project, per person:
 *   GET /platform/projects/{ref}/ai-settings   → AiSettings (false until the person saves one)
 *   PUT /platform/projects/{ref}/ai-settings   { send_anonymous_schema_metadata } → AiSettings
 * Any member may keep their own setting (it changes nothing of the project). The answer carries the project's
 * organization's opt-in tags: in the platform build the dashboard allows the setting only with AI_SQL (spec 5); the
 * self-hosted build does not apply the opt-in, so the server stores the person's choice either way and leaves the
 * rule to the build that shows it.
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, validate, type AppEnv } from '../../core/http'
import { memberProject, refParam } from '../projects/access'
import { readAiSettings, saveAiSettings } from './store'

export function aiSettingsRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.getAiSettings), project, async (c) => c.json(await readAiSettings(db, c.get('account').id, c.var.project.id)))

  app.on(...at(endpoints.updateAiSettings), refParam, validate('json', endpoints.updateAiSettings.body), project, async (c) => {
    const accountId = c.get('account').id
    const { send_anonymous_schema_metadata: send } = c.req.valid('json')
    await saveAiSettings(db, accountId, c.var.project.id, send, clock.now())
    return c.json(await readAiSettings(db, accountId, c.var.project.id))
  })

  return app
}
