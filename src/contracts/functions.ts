/**
 * A project's edge functions, in the Management API contract's shapes (FunctionResponse, V1CreateFunctionBody).
 *   GET    /v1/projects/{ref}/functions          → FunctionList
 *   POST   /v1/projects/{ref}/functions          CreateFunctionBody (JSON) → FunctionResponse (201)
 *   GET    /v1/projects/{ref}/functions/{slug}   → FunctionResponse
 *   DELETE /v1/projects/{ref}/functions/{slug}   → 200
 * Listing needs membership; creating and deleting need project_edge_function:all. Running them is not built yet.
 */
import * as z from 'zod/mini'

export const FunctionSlug = z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'A function slug starts with a letter and holds only letters, digits, - and _'))

export const FunctionResponse = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.enum(['ACTIVE', 'REMOVED', 'THROTTLED']),
  version: z.number().check(z.int()),
  /** Milliseconds since the epoch. */
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  verify_jwt: z.optional(z.boolean()),
  import_map: z.optional(z.boolean()),
  entrypoint_path: z.optional(z.string()),
  import_map_path: z.optional(z.string()),
  ezbr_sha256: z.optional(z.string()),
})
export type FunctionResponse = z.infer<typeof FunctionResponse>

export const FunctionList = z.array(FunctionResponse)
export type FunctionList = z.infer<typeof FunctionList>

export const CreateFunctionBody = z.object({
  slug: FunctionSlug,
  name: z.string().check(z.minLength(1, 'name is required'), z.maxLength(200)),
  body: z.string().check(z.minLength(1, 'body is required')),
  verify_jwt: z.optional(z.boolean()),
})
export type CreateFunctionBody = z.infer<typeof CreateFunctionBody>

/** PATCH /v1/projects/{ref}/functions/{slug} (JSON; an eszip bundle is not taken). */
export const UpdateFunctionBody = z.object({
  name: z.optional(z.string().check(z.minLength(1, 'name must not be empty'), z.maxLength(200))),
  body: z.optional(z.string().check(z.minLength(1, 'body must not be empty'))),
  verify_jwt: z.optional(z.boolean()),
})
export type UpdateFunctionBody = z.infer<typeof UpdateFunctionBody>

/** The metadata part of a multipart deploy (FunctionDeployBody.metadata). */
export const DeployMetadata = z.object({
  entrypoint_path: z.string().check(z.minLength(1, 'entrypoint_path is required')),
  import_map_path: z.optional(z.string()),
  static_patterns: z.optional(z.array(z.string())),
  verify_jwt: z.optional(z.boolean()),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
})
export type DeployMetadata = z.infer<typeof DeployMetadata>

/** A secret as the API answers it: its value is the SHA-256 digest (hex) of the value, never the value. */
export const SecretResponse = z.object({ name: z.string(), value: z.string(), updated_at: z.optional(z.string()) })
export const SecretList = z.array(SecretResponse)
export type SecretList = z.infer<typeof SecretList>

export const CreateSecretsBody = z.array(
  z.object({
    name: z.string().check(
      z.minLength(1, 'name is required'),
      z.maxLength(256),
      z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a secret name holds letters, digits and _ and does not start with a digit'),
      z.refine((name) => !name.startsWith('SUPABASE_'), 'Secret name must not start with the SUPABASE_ prefix.'),
    ),
    value: z.string().check(z.maxLength(24_576)),
  }),
)
export const DeleteSecretsBody = z.array(z.string().check(z.minLength(1)))

/** One entry of a function's log (its invocations and console output), newest last. */
export const FunctionLogEntry = z.object({
  id: z.string(),
  timestamp: z.number(),
  function_id: z.string(),
  kind: z.enum(['invocation', 'console', 'boot', 'shutdown']),
  level: z.enum(['log', 'info', 'error']),
  event_message: z.string(),
  method: z.optional(z.string()),
  path: z.optional(z.string()),
  version: z.optional(z.number()),
  status: z.optional(z.number()),
  duration_ms: z.optional(z.number()),
  /** CPU time the worker used during an invocation (ms), and its memory when it answered (MB). */
  cpu_time_ms: z.optional(z.number()),
  memory_mb: z.optional(z.number()),
  heap_memory_mb: z.optional(z.number()),
  external_memory_mb: z.optional(z.number()),
})
export const FunctionLogs = z.object({ result: z.array(FunctionLogEntry) })
export type FunctionLogs = z.infer<typeof FunctionLogs>

/**
 * The analytics endpoints' answer (AnalyticsResponse): rows of whatever the query selects, or an error in place of
 * them.
 */
export const AnalyticsResponse = z.object({ result: z.optional(z.array(z.unknown())), error: z.optional(z.unknown()) })
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>

/** The periods of functions.combined-stats (the function overview's charts). */
export const COMBINED_STATS_INTERVALS = ['15min', '1hr', '3hr', '1day'] as const
export const CombinedStatsQuery = z.object({
  interval: z.enum(COMBINED_STATS_INTERVALS),
  function_id: z.string().check(z.minLength(1, 'function_id is required')),
})

/** One time bucket of functions.combined-stats: the function's invocations by status class and its log lines. */
export const CombinedStatsRow = z.object({
  /** The bucket's start, ISO 8601 (a minute for 15min and 1hr, an hour for 3hr and 1day). */
  timestamp: z.string(),
  requests_count: z.number(),
  success_count: z.number(),
  redirect_count: z.number(),
  client_err_count: z.number(),
  server_err_count: z.number(),
  /** Milliseconds, of the bucket's invocations. */
  avg_execution_time: z.number(),
  max_execution_time: z.number(),
  /**
   * Milliseconds of CPU time (user + system) of the worker during the bucket's invocations; the kernel counts it in
   * 10 ms ticks, so a short call reads 0 or 10 and the average is what to read.
   */
  avg_cpu_time_used: z.number(),
  max_cpu_time_used: z.number(),
  /** Megabytes the worker held when it answered: resident, V8 heap in use, and outside the heap. */
  avg_memory_used: z.number(),
  avg_heap_memory_used: z.number(),
  avg_external_memory_used: z.number(),
  log_count: z.number(),
  log_info_count: z.number(),
  log_error_count: z.number(),
})
export type CombinedStatsRow = z.infer<typeof CombinedStatsRow>

/** A bucket with nothing in it yet (the server fills it as it counts). */
export const emptyCombinedStatsRow = (timestamp: string): CombinedStatsRow => ({
  timestamp,
  requests_count: 0,
  success_count: 0,
  redirect_count: 0,
  client_err_count: 0,
  server_err_count: 0,
  avg_execution_time: 0,
  max_execution_time: 0,
  avg_cpu_time_used: 0,
  max_cpu_time_used: 0,
  avg_memory_used: 0,
  avg_heap_memory_used: 0,
  avg_external_memory_used: 0,
  log_count: 0,
  log_info_count: 0,
  log_error_count: 0,
})
export const CombinedStats = z.object({ result: z.array(CombinedStatsRow) })
export type CombinedStats = z.infer<typeof CombinedStats>

/** logs.all: the platform's SQL over a log source; without start and end, the last minute; at most 24 hours. */
export const LogsQuery = z.object({
  sql: z.optional(z.string().check(z.maxLength(20_000, 'sql: at most 20,000 characters'))),
  iso_timestamp_start: z.optional(z.iso.datetime({ offset: true, error: 'iso_timestamp_start: an ISO 8601 date-time' })),
  iso_timestamp_end: z.optional(z.iso.datetime({ offset: true, error: 'iso_timestamp_end: an ISO 8601 date-time' })),
})
