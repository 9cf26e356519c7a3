/**
 * Organization settings, the subscription plan and the AI settings:
 *  - PATCH /platform/organizations/{slug}: rename, and the opt-in preferences (opt_in_tags);
 *  - GET /platform/organizations/{slug}/billing/plans and PUT …/billing/subscription: the plans and the change;
 *  - GET and PUT /platform/projects/{ref}/ai-settings: the person's 'send anonymous schema metadata' setting for a
 *    project, with the opt-in of the project's organization (the platform build's rule, spec 5).
 */
import * as z from 'zod/mini'
import { PlanId } from './common'

/** The opt-in tags an organization may set. AI_SQL: share anonymous schema metadata with the AI (spec 5). */
export const OptInTag = z.enum(['AI_SQL'])
export type OptInTag = z.infer<typeof OptInTag>
export const AI_SQL_TAG: OptInTag = 'AI_SQL'

export const ORGANIZATION_NAME_MAX = 64

export const OrganizationName = z.string().check(
  z.trim(),
  z.minLength(1, 'Organization name is required'),
  z.maxLength(ORGANIZATION_NAME_MAX, `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters`),
  z.refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'Organization name cannot contain control characters'),
)

/** PATCH /platform/organizations/{slug}: what changes (at least one field); answered with the Organization. */
export const UpdateOrganizationBody = z
  .strictObject({
    name: z.optional(OrganizationName),
    opt_in_tags: z.optional(z.array(OptInTag).check(z.maxLength(16))),
  })
  .check(z.refine((body) => body.name !== undefined || body.opt_in_tags !== undefined, 'Nothing to change: give name or opt_in_tags'))
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>

/** The plans a person may choose here (enterprise is arranged, not chosen). */
export const SelectablePlanId = z.enum(['free', 'pro', 'team'])
export type SelectablePlanId = z.infer<typeof SelectablePlanId>

/** GET /platform/organizations/{slug}/billing/plans */
export const Plan = z.object({
  id: PlanId,
  name: z.string(),
  /** US dollars per month, before usage. */
  price_monthly: z.number(),
  description: z.string(),
  features: z.array(z.string()),
})
export type Plan = z.infer<typeof Plan>
export const PlanList = z.object({ plans: z.array(Plan) })
export type PlanList = z.infer<typeof PlanList>

/** PUT /platform/organizations/{slug}/billing/subscription; answered with the Subscription. */
export const ChangePlanBody = z.strictObject({ plan: SelectablePlanId })
export type ChangePlanBody = z.infer<typeof ChangePlanBody>

/** GET and PUT /platform/projects/{ref}/ai-settings */
export const AiSettings = z.object({
  /** The signed-in person's setting for this project. */
  send_anonymous_schema_metadata: z.boolean(),
  organization_slug: z.string(),
  /** The project's organization's opt-in tags: AI_SQL allows the setting in the platform build. */
  organization_opt_in_tags: z.array(z.string()),
})
export type AiSettings = z.infer<typeof AiSettings>
export const UpdateAiSettingsBody = z.strictObject({ send_anonymous_schema_metadata: z.boolean() })
export type UpdateAiSettingsBody = z.infer<typeof UpdateAiSettingsBody>
