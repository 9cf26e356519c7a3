/**
 * Connectivity of a project's API server (the connecting screen's test).
 *   GET {platform}/projects/{ref}/live      ProjectLiveResponse   (health; kps-v3.8.6 and later)
 *   GET {platform}/projects/{ref}/api/rest  RestSchemaResponse    (the REST schema, an OpenAPI 2 document as PostgREST serves)
 * Both answer 200 only while the project's API server is ONLINE, otherwise 503 { message }.
 */
import * as z from 'zod'

export const ProjectLiveResponse = z.object({ status: z.literal('ok') })
export type ProjectLiveResponse = z.infer<typeof ProjectLiveResponse>

const SchemaProperty = z.object({
  type: z.string().optional(),
  format: z.string().optional(),
  description: z.string().optional(),
}).passthrough()

export const RestSchemaResponse = z.object({
  swagger: z.literal('2.0'),
  info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }),
  host: z.string(),
  basePath: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  definitions: z.record(
    z.string(),
    z.object({
      type: z.literal('object'),
      required: z.array(z.string()).optional(),
      properties: z.record(z.string(), SchemaProperty),
      description: z.string().optional(),
    }),
  ),
})
export type RestSchemaResponse = z.infer<typeof RestSchemaResponse>
