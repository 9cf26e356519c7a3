/** The SQL of organization settings: the name and opt-in tags, the plan, and each person's AI settings of a project. */
import type { PlanId } from '../../../contracts/common'
import type { AiSettings } from '../../../contracts/orgSettings'
import type { Queryable } from '../../db'

/** Sets what is given (null keeps the column); `optInTagsJson` is the tags' JSON array. */
export async function updateOrganizationSettings(
  db: Queryable,
  organizationId: number,
  change: { name: string | null; optInTagsJson: string | null },
): Promise<void> {
  await db.query(`update organizations set name = coalesce($2, name), opt_in_tags = coalesce($3::jsonb, opt_in_tags) where id = $1`, [
    organizationId,
    change.name,
    change.optInTagsJson,
  ])
}

/** The plan; plan_changed_at moves only when the plan does. */
export async function setPlan(db: Queryable, organizationId: number, plan: PlanId, now: Date): Promise<void> {
  await db.query(
    `update organizations set plan_id = $2, plan_changed_at = case when plan_id = $2 then plan_changed_at else $3 end where id = $1`,
    [organizationId, plan, now.toISOString()],
  )
}

/** The person's AI setting of the project (false until saved), with the project's organization's slug and tags. */
export async function readAiSettings(db: Queryable, accountId: number, projectId: number): Promise<AiSettings> {
  const { rows } = await db.query<{ slug: string; opt_in_tags: string[]; send: boolean | null }>(
    `select o.slug, o.opt_in_tags,
       (select s.send_anonymous_schema_metadata from ai_settings s where s.account_id = $1 and s.project_id = p.id) as send
     from projects p join organizations o on o.id = p.organization_id where p.id = $2`,
    [accountId, projectId],
  )
  const row = rows[0]!
  return { send_anonymous_schema_metadata: row.send ?? false, organization_slug: row.slug, organization_opt_in_tags: row.opt_in_tags }
}

export async function saveAiSettings(db: Queryable, accountId: number, projectId: number, send: boolean, now: Date): Promise<void> {
  await db.query(
    `insert into ai_settings (account_id, project_id, send_anonymous_schema_metadata, updated_at) values ($1, $2, $3, $4)
     on conflict (account_id, project_id) do update set send_anonymous_schema_metadata = excluded.send_anonymous_schema_metadata,
       updated_at = excluded.updated_at`,
    [accountId, projectId, send, now.toISOString()],
  )
}
