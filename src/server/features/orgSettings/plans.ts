/**
 * The plans: the subscription answer (usage billing) and the plans offered. The other rules that depend on the plan
 * read organizations.plan_id directly, so a plan change takes effect on the next request: the free project limit
 * (pause/routes.ts, free organizations only) and the usage records (usage/routes.ts: capped on free and pro, free
 * units per plan).
 */
import type { PlanId } from '../../../contracts/common'
import type { Subscription } from '../../../contracts/organizations'
import type { Plan } from '../../../contracts/orgSettings'

export const PLAN_NAMES: Record<PlanId, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' }

export function subscriptionOf(plan: PlanId): Subscription {
  return {
    plan: { id: plan, name: PLAN_NAMES[plan] },
    // Free and Pro come with the spend cap on; larger plans bill usage.
    usage_billing_enabled: plan === 'team' || plan === 'enterprise',
  }
}

/** The plans a person may choose on the billing page, with what each means on this platform. */
export function selectablePlans(freeProjectLimit: number): Plan[] {
  return [
    {
      id: 'free',
      name: PLAN_NAMES.free,
      price_monthly: 0,
      description: 'For trying things out and small side projects.',
      features: [
        `Each member may have ${freeProjectLimit} active free projects`,
        'Usage capped at the free quota (spend cap)',
        'No database branching',
      ],
    },
    {
      id: 'pro',
      name: PLAN_NAMES.pro,
      price_monthly: 25,
      description: 'For production applications.',
      features: ['No free project limit', 'Larger quota, usage capped (spend cap)', 'Database branching'],
    },
    {
      id: 'team',
      name: PLAN_NAMES.team,
      price_monthly: 599,
      description: 'For teams that need to scale beyond the quota.',
      features: ['No free project limit', 'Usage billing: usage past the quota is billed, never capped', 'Database branching'],
    },
  ]
}
