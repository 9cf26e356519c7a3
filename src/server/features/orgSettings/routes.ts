/**
 * Organization settings and the subscription plan:
 *   PATCH /platform/organizations/{slug}                       { name?, opt_in_tags? } → Organization
 *   GET   /platform/organizations/{slug}/billing/plans         → { plans } (free, pro, team)
 *   GET   /platform/organizations/{slug}/billing/subscription  → Subscription (any member)
 *   PUT   /platform/organizations/{slug}/billing/subscription  { plan } → Subscription
 * In this order: a bad slug or body 400; not a member 404 'Organization not found'; without organizations:write
 * (Owner and Administrator hold it, read from the member's role on this request) 403. A plan change is one update of
 * organizations.plan_id: whatever the plan gates reads it on the next request (./plans.ts says where).
 */
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { PlanList } from '../../../contracts/orgSettings'
import type { Subscription } from '../../../contracts/organizations'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { findMemberOrganization, memberOrganization, slugParam, toOrganization } from '../organizations/access'
import { selectablePlans, subscriptionOf } from './plans'
import { setPlan, updateOrganizationSettings } from './store'

export const SETTINGS_PERMISSION_MESSAGE = "You need additional permissions to change this organization's settings"
export const PLAN_PERMISSION_MESSAGE = "You need additional permissions to change this organization's plan"

export function orgSettingsRoutes({ db, clock, config }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)

  app.on(...at(endpoints.updateOrganization), slugParam, validate('json', endpoints.updateOrganization.body), organization, async (c) => {
    const org = c.var.organization
    if (!can(org.role, 'organizations:write')) return errorJson(c, 403, SETTINGS_PERMISSION_MESSAGE)
    const body = c.req.valid('json')
    // Each tag once, in a stable order, whatever the request's order.
    const tags = body.opt_in_tags === undefined ? null : JSON.stringify([...new Set(body.opt_in_tags)].sort())
    await updateOrganizationSettings(db, org.id, { name: body.name ?? null, optInTagsJson: tags })
    const updated = await findMemberOrganization(db, c.get('account').id, org.slug)
    return c.json(toOrganization(updated!))
  })

  app.on(...at(endpoints.getSubscription), organization, (c) => c.json(subscriptionOf(c.var.organization.plan_id)))

  app.on(...at(endpoints.listPlans), organization, (c) => c.json({ plans: selectablePlans(config.freeProjectLimit) } satisfies PlanList))

  app.on(...at(endpoints.changePlan), slugParam, validate('json', endpoints.changePlan.body), organization, async (c) => {
    const org = c.var.organization
    if (!can(org.role, 'organizations:write')) return errorJson(c, 403, PLAN_PERMISSION_MESSAGE)
    const { plan } = c.req.valid('json')
    if (org.plan_id === 'enterprise') return errorJson(c, 409, 'An Enterprise plan is changed by arrangement, not here', 'plan_not_selectable')
    await setPlan(db, org.id, plan, clock.now())
    return c.json(subscriptionOf(plan) satisfies Subscription)
  })

  return app
}
