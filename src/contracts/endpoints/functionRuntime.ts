import { endpoint } from '../endpoint'
import { FunctionFiles, TestToken, TestTokenBody } from '../functionRuntime'

// A function's page (src/contracts/functionRuntime.ts).
/** The deployed version's files (a function made with a single body has that one file). */
export const getFunctionFiles = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/functions/:slug/files', { response: FunctionFiles })
/** A user's access token for the Test panel (signed with the project's JWT secret, short-lived). */
export const createTestToken = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/functions/test-token', { body: TestTokenBody, response: TestToken })
