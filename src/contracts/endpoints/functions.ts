import { endpoint } from '../endpoint'
import {
  AnalyticsResponse,
  CombinedStats,
  CombinedStatsQuery,
  CreateFunctionBody,
  CreateSecretsBody,
  DeleteSecretsBody,
  FunctionList,
  FunctionLogs,
  FunctionResponse,
  LogsQuery,
  SecretList,
  UpdateFunctionBody,
} from '../functions'

// Edge functions (src/contracts/functions.ts), in the Management API's shapes.
export const listFunctions = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions', { response: FunctionList })
export const getFunction = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions/:slug', { response: FunctionResponse })
export const createFunction = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/functions', { body: CreateFunctionBody, response: FunctionResponse })
export const deleteFunction = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref/functions/:slug')
/** Multipart: `metadata` (JSON, DeployMetadata) and `file` parts; `?slug=`. */
export const deployFunction = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/functions/deploy', { response: FunctionResponse })
export const updateFunction = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/functions/:slug', { body: UpdateFunctionBody, response: FunctionResponse })
/** The deployed entrypoint's source, as text. */
export const getFunctionBody = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions/:slug/body')
export const listSecrets = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/secrets', { response: SecretList })
export const createSecrets = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/secrets', { body: CreateSecretsBody })
export const deleteSecrets = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref/secrets', { body: DeleteSecretsBody })
/** The function's last 1,000 log entries (the dashboard's logs page). */
export const functionLogs = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/functions/:slug/logs', { response: FunctionLogs })
/** A function's invocations and log lines per time bucket (the function overview's charts). */
export const functionCombinedStats = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/analytics/endpoints/functions.combined-stats', {
  query: CombinedStatsQuery,
  response: CombinedStats,
})
/** The project's logs by the platform's SQL; this platform keeps the function sources (function_logs, function_edge_logs). */
export const projectLogs = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/analytics/endpoints/logs.all', { query: LogsQuery, response: AnalyticsResponse })
