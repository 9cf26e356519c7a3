import type { OrgUsageQuery } from '../../contracts/usage'
import * as endpoints from '../../contracts/endpoints/organizations'
import { call, type CallOptions } from '../http'

// Organizations.
export const listOrganizations = (options?: CallOptions) => call(endpoints.listOrganizations, {}, options)
export const getOrganization = (slug: string | undefined, options?: CallOptions) => call(endpoints.getOrganization, { slug }, options)
export const getSubscription = (slug: string | undefined, options?: CallOptions) => call(endpoints.getSubscription, { slug }, options)
export const getOrgUsage = (slug: string | undefined, query: OrgUsageQuery, options?: CallOptions) =>
  call(endpoints.getOrgUsage, { slug }, { ...options, query: { start: query.start, end: query.end, project_ref: query.project_ref || undefined } })
export const getMembersReachedFreeProjectLimit = (slug: string | undefined, options?: CallOptions) =>
  call(endpoints.getMembersReachedFreeProjectLimit, { slug }, options)
