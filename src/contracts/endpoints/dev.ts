import { DevAdvanceResponse, DevCreateProjectBody, DevLatencyBody, DevLatencyResponse, DevSetPostgrestBody, DevSetStatusBody } from '../dev'
import { endpoint } from '../endpoint'
import { DevFailNextJwtUpdateResponse } from '../keys'
import { DevFailNextRestoreBody, DevFailNextRestoreResponse } from '../pause'
import { Project } from '../projects'
import { DevFailNextUpgradeBody, DevFailNextUpgradeResponse } from '../upgrade'
import { DevReadOnlyBody, DevResourceWarningBody, DevUsageBody, DevUsageResponse, ResourceWarning } from '../usage'

// Development controls (served only with DEV_CONTROLS=1).
export const devCreateProject = /* @__PURE__ */ endpoint('POST', 'dev', '/projects', { body: DevCreateProjectBody, response: Project })
export const devSetStatus = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/status', { body: DevSetStatusBody, response: Project })
export const devSetPostgrest = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/postgrest', { body: DevSetPostgrestBody, response: Project })
export const devAdvance = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/advance', { response: DevAdvanceResponse })
export const devSetLatency = /* @__PURE__ */ endpoint('POST', 'dev', '/latency', { body: DevLatencyBody, response: DevLatencyResponse })
export const devFailNextRestore = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-restore', {
  body: DevFailNextRestoreBody,
  response: DevFailNextRestoreResponse,
})
export const devFailNextJwtUpdate = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-jwt-update', { response: DevFailNextJwtUpdateResponse })
export const devFailNextUpgrade = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/fail-next-upgrade', {
  body: DevFailNextUpgradeBody,
  response: DevFailNextUpgradeResponse,
})
export const devSetResourceWarning = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/resource-warnings', {
  body: DevResourceWarningBody,
  response: ResourceWarning,
})
export const devSetReadOnly = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/read-only', { body: DevReadOnlyBody, response: ResourceWarning })
export const devSetUsage = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/usage', { body: DevUsageBody, response: DevUsageResponse })
