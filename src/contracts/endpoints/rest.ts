import { endpoint } from '../endpoint'
import { RestSchemaResponse } from '../rest'

// The REST schema of a project's API (src/contracts/rest.ts).
export const getProjectRestSchema = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/api/rest', { response: RestSchemaResponse })
