/**
 * Organizations the person is a member of and one organization (its subscription is served with the plans, in
 * orgSettings); and the Management API's GET /v1/organizations and /v1/organizations/{slug} (only the caller's
 * organizations; any other slug 404).
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import * as endpoints from '../../../contracts/endpoints'
import { V1OrganizationDetail, V1OrganizationList } from '../../../contracts/v1'
import type { Deps } from '../../core/deps'
import { at, type AppEnv } from '../../core/http'
import { memberOrganization } from './access'
import { listMemberOrganizations, toOrganization, toV1Organization, toV1OrganizationDetail } from './store'

/**
 * The Management API's organization reads. Third-party clients call them; the dashboard does not, so they are
 * described here rather than in src/contracts/endpoints.ts (which lists the dashboard's calls).
 */
const v1ListOrganizations = endpoint('GET', 'v1', '/organizations', { response: V1OrganizationList })
const v1GetOrganization = endpoint('GET', 'v1', '/organizations/:slug', { response: V1OrganizationDetail })

export function organizationRoutes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)

  app.on(...at(endpoints.listOrganizations), async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(orgs.map(toOrganization))
  })

  app.on(...at(endpoints.getOrganization), organization, (c) => c.json(toOrganization(c.var.organization)))

  app.on(...at(v1ListOrganizations), async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(orgs.map(toV1Organization) satisfies V1OrganizationList)
  })

  app.on(...at(v1GetOrganization), organization, (c) => c.json(toV1OrganizationDetail(c.var.organization) satisfies V1OrganizationDetail))

  return app
}
