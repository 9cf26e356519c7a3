/**
 * What a function's page reads beyond the Management API's shapes (./functions.ts):
 *   GET /platform/projects/{ref}/functions/{slug}/files → FunctionFiles (the deployed version's files, as stored)
 *   POST /platform/projects/{ref}/functions/test-token TestTokenBody → TestToken (a user's access token for the Test
 *        panel, for members who may read the service_role key: it lets them act as that user)
 * and the Test panel's answer, read from the function's own response through the project's gateway
 * (`{project url}/functions/v1/{slug}`), which is whatever the function sends: status, headers and body as text.
 */
import * as z from 'zod/mini'

export const FunctionFile = z.object({ name: z.string().check(z.minLength(1)), content: z.string() })
export type FunctionFile = z.infer<typeof FunctionFile>

export const FunctionFiles = z.object({
  entrypoint_path: z.string().check(z.minLength(1)),
  version: z.number().check(z.int()),
  files: z.array(FunctionFile),
})
export type FunctionFiles = z.infer<typeof FunctionFiles>

/** The methods the Test panel sends. */
export const TEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type TestMethod = (typeof TEST_METHODS)[number]

/** Who a test is sent as: the project's anon key, its service_role key, or a user of the project's auth. */
export const TestRole = z.enum(['anon', 'service_role', 'user'])
export type TestRole = z.infer<typeof TestRole>

/** One request of the Test panel, as sent. */
export interface FunctionTestRequest {
  ref: string
  /** The project's URL (`{protocol}://{endpoint}`). */
  projectUrl: string
  slug: string
  method: TestMethod
  /** The path after the function's slug, with its query ('' or '/…' or '?…'). */
  path: string
  headers: Array<[string, string]>
  body: string
  apiKey: string
  /** As a user of the project's auth: their access token is the bearer (the anon key stays the apikey). */
  userId?: string
}

export const TestTokenBody = z.object({ user_id: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'user_id must be a UUID')) })
export type TestTokenBody = z.infer<typeof TestTokenBody>

/** An access token as the project's auth service signs one for the user (without a session: it cannot be refreshed). */
export const TestToken = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.literal('bearer'),
  expires_in: z.number().check(z.int(), z.gt(0)),
  user: z.object({ id: z.string(), email: z.nullable(z.string()) }),
})
export type TestToken = z.infer<typeof TestToken>

/** The function's answer as the Test panel shows it; the duration is measured by the dashboard. */
export const FunctionTestResult = z.object({
  status: z.number().check(z.int(), z.gte(100), z.lte(599)),
  statusText: z.string(),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string(),
  duration_ms: z.number().check(z.gte(0)),
})
export type FunctionTestResult = z.infer<typeof FunctionTestResult>

/** The longest answer the Test panel keeps (the rest is cut, and said to be). */
export const TEST_BODY_LIMIT = 64 * 1024
