import { endpoint } from '../endpoint'
import { V1ApiKeyList, V1ApiKeysQuery } from '../keys'
import { V1ProjectList, V1ProjectRefResponse, V1ProjectWithDatabase } from '../v1'

// Management API reads.
export const v1ListProjects = /* @__PURE__ */ endpoint('GET', 'v1', '/projects', { response: V1ProjectList })
export const v1GetProject = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref', { response: V1ProjectWithDatabase })
export const v1DeleteProject = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref', { response: V1ProjectRefResponse })
export const v1ListApiKeys = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/api-keys', { query: V1ApiKeysQuery, response: V1ApiKeyList })
