import { endpoint } from '../endpoint'
import { CreateFunctionBody, FunctionList, FunctionResponse } from '../functions'

// Edge functions (src/contracts/functions.ts), in the Management API's shapes.
export const listFunctions = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions', { response: FunctionList })
export const getFunction = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions/:slug', { response: FunctionResponse })
export const createFunction = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/functions', { body: CreateFunctionBody, response: FunctionResponse })
export const deleteFunction = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref/functions/:slug')
