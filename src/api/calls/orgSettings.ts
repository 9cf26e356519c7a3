import type { ChangePlanBody, UpdateAiSettingsBody, UpdateOrganizationBody } from '../../contracts/orgSettings'
import * as endpoints from '../../contracts/endpoints/orgSettings'
import { call, type CallOptions } from '../http'

// Organization settings, the plan change and the AI settings.
export const updateOrganization = (slug: string | undefined, body: UpdateOrganizationBody, options?: CallOptions) =>
  call(endpoints.updateOrganization, { slug }, { ...options, body })
export const listPlans = (slug: string | undefined, options?: CallOptions) => call(endpoints.listPlans, { slug }, options)
export const changePlan = (slug: string | undefined, body: ChangePlanBody, options?: CallOptions) => call(endpoints.changePlan, { slug }, { ...options, body })
export const getAiSettings = (ref: string | undefined, options?: CallOptions) => call(endpoints.getAiSettings, { ref }, options)
export const updateAiSettings = (ref: string | undefined, body: UpdateAiSettingsBody, options?: CallOptions) =>
  call(endpoints.updateAiSettings, { ref }, { ...options, body })
