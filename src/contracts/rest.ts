/**
 * The REST schema of a project's API: the OpenAPI 2 document PostgREST serves, read from the project's own database.
 *   GET {platform}/projects/{ref}/api/rest  RestSchemaResponse
 * It answers 200 only while the project's API server is ONLINE, otherwise 503 { message }.
 */
import * as z from 'zod/mini'

const SchemaProperty = z.looseObject({
  type: z.optional(z.string()),
  format: z.optional(z.string()),
  description: z.optional(z.string()),
})

export const RestSchemaResponse = z.object({
  swagger: z.literal('2.0'),
  info: z.object({ title: z.string(), version: z.string(), description: z.optional(z.string()) }),
  host: z.string(),
  basePath: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  definitions: z.record(
    z.string(),
    z.object({
      type: z.literal('object'),
      required: z.optional(z.array(z.string())),
      properties: z.record(z.string(), SchemaProperty),
      description: z.optional(z.string()),
      /** This platform's addition to PostgREST's document: 'table', 'view', 'materialized_view', … */
      'x-kind': z.optional(z.string()),
    }),
  ),
})
export type RestSchemaResponse = z.infer<typeof RestSchemaResponse>
