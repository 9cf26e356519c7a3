import { endpoint } from '../endpoint'
import { Organization, OrganizationList, Subscription } from '../organizations'
import { MembersReachedFreeProjectLimit } from '../pause'
import { OrgUsageQuery, OrgUsageResponse } from '../usage'

// Organizations.
export const listOrganizations = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations', { response: OrganizationList })
export const getOrganization = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug', { response: Organization })
export const getSubscription = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/billing/subscription', { response: Subscription })
export const getOrgUsage = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/usage', { query: OrgUsageQuery, response: OrgUsageResponse })
export const getMembersReachedFreeProjectLimit = /* @__PURE__ */ endpoint('GET', 'platform', '/organizations/:slug/members/reached-free-project-limit', {
  response: MembersReachedFreeProjectLimit,
})
