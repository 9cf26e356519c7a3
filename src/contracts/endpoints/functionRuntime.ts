import { endpoint } from '../endpoint'
import { FunctionFiles } from '../functionRuntime'

// A function's page (src/contracts/functionRuntime.ts).
/** The deployed version's files (a function made with a single body has that one file). */
export const getFunctionFiles = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/functions/:slug/files', { response: FunctionFiles })
