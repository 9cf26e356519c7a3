/**
 * Saved queries (the SQL Editor's snippets), kept by the platform per project: private to their author
 * (visibility 'user') or shared with the project's members ('project'); a favourite is each person's own.
 *   GET    /platform/projects/{ref}/snippets        → SnippetList (those the person may see, content included)
 *   POST   /platform/projects/{ref}/snippets        CreateSnippetBody → 201 Snippet
 *   PATCH  /platform/projects/{ref}/snippets/{id}   UpdateSnippetBody → Snippet (rename, edit, share, favourite)
 *   DELETE /platform/projects/{ref}/snippets/{id}   → 204
 *   GET    /v1/snippets?project_ref&cursor&limit&sort_by&sort_order → V1SnippetList (the Management API's SnippetList)
 *   GET    /v1/snippets/{id}                        → Snippet (the Management API's SnippetResponse)
 * Only the author renames, edits, shares or deletes a snippet (403 otherwise); a snippet the person may not see is 404.
 */
import * as z from 'zod/mini'

export const SNIPPET_NAME_MAX = 256
/** A snippet's SQL, in characters: the request body's limit bounds it anyway. */
export const SNIPPET_SQL_MAX = 500_000

export const SnippetVisibility = z.enum(['user', 'project', 'org', 'public'])
/** What a person may choose: private, or shared with the project. */
export const ChosenVisibility = z.enum(['user', 'project'])

const Person = z.object({ id: z.number(), username: z.string() })

/** The Management API's SnippetList item (no content). */
export const SnippetSummary = z.object({
  id: z.string(),
  inserted_at: z.string(),
  updated_at: z.string(),
  type: z.enum(['sql']),
  visibility: SnippetVisibility,
  name: z.string(),
  description: z.nullable(z.string()),
  project: z.object({ id: z.number(), name: z.string() }),
  owner: Person,
  updated_by: Person,
  favorite: z.boolean(),
})
export type SnippetSummary = z.infer<typeof SnippetSummary>

/** The Management API's SnippetResponse. */
export const Snippet = z.object({
  ...SnippetSummary.shape,
  content: z.object({
    /** Deprecated in the Management API: the root-level `favorite` is the one to read. */
    favorite: z.optional(z.boolean()),
    schema_version: z.string(),
    sql: z.string(),
  }),
})
export type Snippet = z.infer<typeof Snippet>

export const SnippetList = z.object({ data: z.array(Snippet) })
export type SnippetList = z.infer<typeof SnippetList>

export const V1SnippetList = z.object({ data: z.array(SnippetSummary), cursor: z.optional(z.string()) })
export type V1SnippetList = z.infer<typeof V1SnippetList>

const Name = z.string().check(z.trim(), z.minLength(1, 'name is required'), z.maxLength(SNIPPET_NAME_MAX, `name: at most ${SNIPPET_NAME_MAX} characters`))
const Sql = z.string().check(z.maxLength(SNIPPET_SQL_MAX, `sql: at most ${SNIPPET_SQL_MAX} characters`))
const Description = z.nullable(z.string().check(z.maxLength(2_000, 'description: at most 2000 characters')))

export const CreateSnippetBody = z.object({
  name: Name,
  sql: Sql,
  visibility: z.optional(ChosenVisibility),
  description: z.optional(Description),
})
export type CreateSnippetBody = z.infer<typeof CreateSnippetBody>

export const UpdateSnippetBody = z
  .object({
    name: z.optional(Name),
    sql: z.optional(Sql),
    visibility: z.optional(ChosenVisibility),
    description: z.optional(Description),
    favorite: z.optional(z.boolean()),
  })
  .check(z.refine((b) => Object.values(b).some((v) => v !== undefined), 'Name at least one of name, sql, visibility, description, favorite'))
export type UpdateSnippetBody = z.infer<typeof UpdateSnippetBody>

/** The Management API's list query. `limit` is a string there, 1 to 100. */
export const V1SnippetQuery = z.object({
  project_ref: z.optional(z.string().check(z.regex(/^[a-z]{20}$/, 'project_ref: a project ref of 20 lowercase letters'))),
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(z.string().check(z.regex(/^([1-9]|[1-9][0-9]|100)$/, 'limit: a number from 1 to 100'))),
  sort_by: z.optional(z.enum(['name', 'inserted_at'])),
  sort_order: z.optional(z.enum(['asc', 'desc'])),
})
export type V1SnippetQuery = z.infer<typeof V1SnippetQuery>

export const SnippetIdParam = z.object({ id: z.uuid('id: a snippet id (uuid)') })
