/** The SQL of organizations: the ones a person is a member of, with the person's role in each. */
import type { Role } from '../../../contracts/common'
import type { Organization } from '../../../contracts/organizations'
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
