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
import type { AiSettings } from '../../../contracts/orgSettings'
import type { Queryable } from '../../db'
import type { Deps } from '../../core/deps'
import { at, validate, type AppEnv } from '../../core/http'
import { memberProject, refParam } from '../projects/access'

async function readAiSettings(db: Queryable, accountId: number, projectId: number): Promise<AiSettings> {
  const { rows } = await db.query<{ slug: string; opt_in_tags: string[]; send: boolean | null }>(
    `select o.slug, o.opt_in_tags,
       (select s.send_anonymous_schema_metadata from ai_settings s where s.account_id = $1 and s.project_id = p.id) as send
     from projects p join organizations o on o.id = p.organization_id where p.id = $2`,
    [accountId, projectId],
  )
  const row = rows[0]!
  return { send_anonymous_schema_metadata: row.send ?? false, organization_slug: row.slug, organization_opt_in_tags: row.opt_in_tags }
}

export function aiSettingsRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.getAiSettings), project, async (c) => c.json(await readAiSettings(db, c.get('account').id, c.var.project.id)))

  app.on(...at(endpoints.updateAiSettings), refParam, validate('json', endpoints.updateAiSettings.body), project, async (c) => {
    const accountId = c.get('account').id
    const { send_anonymous_schema_metadata: send } = c.req.valid('json')
    await db.query(
      `insert into ai_settings (account_id, project_id, send_anonymous_schema_metadata, updated_at) values ($1, $2, $3, $4)
       on conflict (account_id, project_id) do update set send_anonymous_schema_metadata = excluded.send_anonymous_schema_metadata,
         updated_at = excluded.updated_at`,
      [accountId, c.var.project.id, send, clock.now().toISOString()],
    )
    return c.json(await readAiSettings(db, accountId, c.var.project.id))
  })

  return app
}
