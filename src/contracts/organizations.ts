import * as z from 'zod/mini'
import { PlanId } from './common'

/** GET /platform/organizations and /platform/organizations/{slug} */
export const Organization = z.object({
  id: z.number().check(z.int()),
  slug: z.string(),
  name: z.string(),
  plan: z.object({ id: PlanId }),
  opt_in_tags: z.array(z.string()),
})
export type Organization = z.infer<typeof Organization>
export const OrganizationList = z.array(Organization)

/** GET /platform/organizations/{slug}/billing/subscription */
export const Subscription = z.object({
  plan: z.object({ id: PlanId, name: z.string() }),
  usage_billing_enabled: z.boolean(),
})
export type Subscription = z.infer<typeof Subscription>
