import { endpoint } from '../endpoint'
import { DatabaseUpgradeStatusResponse, ProjectUpgradeEligibilityResponse, ProjectUpgradeInitiateResponse, UpgradeDatabaseBody, UpgradeStatusQuery } from '../upgrade'

// Postgres upgrade (Management API; src/contracts/upgrade.ts).
export const startUpgrade = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/upgrade', { body: UpgradeDatabaseBody, response: ProjectUpgradeInitiateResponse })
// The server sends DatabaseUpgradeStatusWireResponse (status as a number); `response` is the dashboard's parsed
// reading of it (the number as the spec's word), which is what a client wants from the descriptor.
export const getUpgradeStatus = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/status', {
  query: UpgradeStatusQuery,
  response: DatabaseUpgradeStatusResponse,
})
export const getUpgradeEligibility = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/eligibility', { response: ProjectUpgradeEligibilityResponse })
