/** Organizations the person is a member of, one organization, and its subscription. */
import { Hono } from 'hono'
import type { PlanId } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, type AppEnv } from '../../core/http'
import { memberOrganization } from './access'
import { listMemberOrganizations, toOrganization } from './store'

const planNames: Record<PlanId, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' }

export function organizationRoutes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)

  app.on(...at(endpoints.listOrganizations), async (c) => {
    const orgs = await listMemberOrganizations(db, c.get('account').id)
    return c.json(orgs.map(toOrganization))
  })

  app.on(...at(endpoints.getOrganization), organization, (c) => c.json(toOrganization(c.var.organization)))

  app.on(...at(endpoints.getSubscription), organization, (c) => {
    const org = c.var.organization
    return c.json({
      plan: { id: org.plan_id, name: planNames[org.plan_id] },
      // Free and Pro come with the spend cap on; larger plans bill usage.
      usage_billing_enabled: org.plan_id === 'team' || org.plan_id === 'enterprise',
    })
  })

  return app
}
