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
