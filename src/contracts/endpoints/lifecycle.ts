import { endpoint } from '../endpoint'
import { EmptyBody, RestoreResponse, RestoreStatusResponse } from '../pause'
import { DatabaseUpgradeStatusResponse, ProjectUpgradeEligibilityResponse, ProjectUpgradeInitiateResponse, UpgradeDatabaseBody, UpgradeStatusQuery } from '../upgrade'

// Pause and restore.
export const pauseProject = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/pause', { body: EmptyBody })
export const restoreProjectV1 = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/restore', { body: EmptyBody })
export const restoreProject = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/restore', { body: EmptyBody, response: RestoreResponse })
export const getRestoreStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/restore/status', { response: RestoreStatusResponse })

// Postgres upgrade (Management API).
export const startUpgrade = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/upgrade', { body: UpgradeDatabaseBody, response: ProjectUpgradeInitiateResponse })
// The server sends DatabaseUpgradeStatusWireResponse (status as a number); `response` is the dashboard's parsed
// reading of it (the number as the spec's word), which is what a client wants from the descriptor.
export const getUpgradeStatus = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/status', {
  query: UpgradeStatusQuery,
  response: DatabaseUpgradeStatusResponse,
})
export const getUpgradeEligibility = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/upgrade/eligibility', { response: ProjectUpgradeEligibilityResponse })
