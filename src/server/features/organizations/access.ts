/**
 * The `:slug` of an organization route: validated (400), then loaded for the signed-in member (404 for an unknown
 * slug and for an organization the person does not belong to, so the two cannot be told apart).
 */
import * as z from 'zod'
import { createMiddleware } from 'hono/factory'
import { OrgSlug } from '../../../contracts/common'
import type { Queryable } from '../../db'
import { errorJson, formatIssues, validate, type AppEnv } from '../../core/http'
import { findMemberOrganization, type OrganizationRow } from './store'

/** What other features may use of organizations: this module is the organizations feature's one face to them. */
export { findMemberOrganization, listMemberOrganizations, memberRole, planOf, toOrganization, type OrganizationRow } from './store'

const ORGANIZATION_NOT_FOUND = 'Organization not found'

/** Validates `:slug` only: put it first when a body or query is validated before the organization is loaded. */
export const slugParam = validate('param', z.object({ slug: OrgSlug }))

/** Validates `:slug` and loads the organization the signed-in person is a member of into `c.var.organization`. */
export function memberOrganization(db: Queryable) {
  return createMiddleware<AppEnv & { Variables: { organization: OrganizationRow } }>(async (c, next) => {
    const slug = OrgSlug.safeParse(c.req.param('slug'))
    if (!slug.success) return c.json({ message: formatIssues(slug.error.issues, 'param') }, 400)
    const organization = await findMemberOrganization(db, c.get('account').id, slug.data)
    if (!organization) return errorJson(c, 404, ORGANIZATION_NOT_FOUND)
    c.set('organization', organization)
    await next()
  })
}
