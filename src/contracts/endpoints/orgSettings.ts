import { endpoint } from '../endpoint'
import { Organization, Subscription } from '../organizations'
import { AiSettings, ChangePlanBody, PlanList, UpdateAiSettingsBody, UpdateOrganizationBody } from '../orgSettings'

// Organization settings, the plan change and the AI settings (src/contracts/orgSettings.ts).
export const updateOrganization = /* @__PURE__ */ endpoint('PATCH', 'platform', '/organizations/:slug', { body: UpdateOrganizationBody, response: Organization })
export const listPlans = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/billing/plans', { response: PlanList })
export const changePlan = /* @__PURE__ */ endpoint('PUT', 'platform', '/organizations/:slug/billing/subscription', { body: ChangePlanBody, response: Subscription })
export const getAiSettings = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/ai-settings', { response: AiSettings })
export const updateAiSettings = /* @__PURE__ */ endpoint('PUT', 'platform', '/projects/:ref/ai-settings', { body: UpdateAiSettingsBody, response: AiSettings })
