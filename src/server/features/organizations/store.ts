/** The SQL of organizations: the ones a person is a member of, with the person's role in each. */
import type { PlanId, Role } from '../../../contracts/common'
import type { Organization } from '../../../contracts/organizations'
import type { V1OptInTag, V1Organization, V1OrganizationDetail } from '../../../contracts/v1'
import type { Queryable } from '../../db'

export interface OrganizationRow {
  id: number
  slug: string
  name: string
  plan_id: Organization['plan']['id']
  opt_in_tags: string[]
  role: Role
}

export function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, slug: row.slug, name: row.name, plan: { id: row.plan_id }, opt_in_tags: row.opt_in_tags }
}

/** The Management API's list item: `id` (deprecated there) is the slug. */
export function toV1Organization(row: OrganizationRow): V1Organization {
  return { id: row.slug, slug: row.slug, name: row.name }
}

/**
 * This platform's opt-in tags as the Management API names them. AI_SQL (sharing schema metadata with the SQL
 * assistant, spec 5) is the contract's AI_SQL_GENERATOR_OPT_IN; a tag with no counterpart in the contract's enum is
 * left out of the v1 answer (none exists today: the platform has no data or log generator to opt in to).
 */
const v1OptInTags: Record<string, V1OptInTag> = { AI_SQL: 'AI_SQL_GENERATOR_OPT_IN' }

export function toV1OrganizationDetail(row: OrganizationRow): V1OrganizationDetail {
  return {
    id: row.slug,
    name: row.name,
    plan: row.plan_id,
    opt_in_tags: row.opt_in_tags.flatMap((tag) => (tag in v1OptInTags ? [v1OptInTags[tag]] : [])),
    // Every project's database is on the ga channel (GET /v1/projects says release_channel 'ga').
    allowed_release_channels: ['ga'],
  }
}

/** Organizations the account belongs to, with its role in each. */
export async function listMemberOrganizations(db: Queryable, accountId: number): Promise<OrganizationRow[]> {
  const { rows } = await db.query<OrganizationRow>(
    `select o.id, o.slug, o.name, o.plan_id, o.opt_in_tags, m.role
     from organizations o join members m on m.organization_id = o.id
     where m.account_id = $1 order by o.id`,
    [accountId],
  )
  return rows
}

/** The organization if the account is a member; undefined otherwise (callers answer 404). */
export async function findMemberOrganization(
  db: Queryable,
  accountId: number,
  slug: string,
): Promise<OrganizationRow | undefined> {
  const { rows } = await db.query<OrganizationRow>(
    `select o.id, o.slug, o.name, o.plan_id, o.opt_in_tags, m.role
     from organizations o join members m on m.organization_id = o.id
     where m.account_id = $1 and o.slug = $2`,
    [accountId, slug],
  )
  return rows[0]
}

/** The account's role in the organization; undefined when it is not a member. */
export async function memberRole(db: Queryable, organizationId: number, accountId: number): Promise<Role | undefined> {
  const { rows } = await db.query<{ role: Role }>('select role from members where organization_id = $1 and account_id = $2', [
    organizationId,
    accountId,
  ])
  return rows[0]?.role
}

/** The organization's plan; undefined for an unknown id. */
export async function planOf(db: Queryable, organizationId: number): Promise<PlanId | undefined> {
  const { rows } = await db.query<{ plan_id: PlanId }>('select plan_id from organizations where id = $1', [organizationId])
  return rows[0]?.plan_id
}
