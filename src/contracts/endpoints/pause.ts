import { endpoint } from '../endpoint'
import { EmptyBody, RestoreResponse, RestoreStatusResponse } from '../pause'

// Pause and restore (src/contracts/pause.ts).
export const pauseProject = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/pause', { body: EmptyBody })
export const restoreProjectV1 = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/restore', { body: EmptyBody })
export const restoreProject = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/restore', { body: EmptyBody, response: RestoreResponse })
export const getRestoreStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/restore/status', { response: RestoreStatusResponse })
