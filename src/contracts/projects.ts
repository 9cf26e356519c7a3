import * as z from 'zod/mini'
import { PostgrestStatus, ProjectStatus } from './common'

/** GET /platform/projects (list) and GET /platform/projects/{ref} (detail). */
export const Project = z.object({
  id: z.number().check(z.int()),
  ref: z.string(),
  name: z.string(),
  organization_id: z.number().check(z.int()),
  organization_slug: z.string(),
  status: ProjectStatus,
  /** The project's REST endpoint; empty while none exists yet. */
  restUrl: z.string(),
  /** Version of the project's API gateway, as 'kps-v3.8.6'. */
  kpsVersion: z.nullable(z.string()),
  is_branch_enabled: z.boolean(),
  /**
   * The parent project's ref when this project is a preview branch (the project a branch builds its database in),
   * as the Management API's branch names it; null for every other project. A preview branch follows its parent's
   * repository: it is never linked to one of its own.
   */
  parent_project_ref: z.nullable(z.string()),
  postgrestStatus: PostgrestStatus,
  region: z.string(),
  inserted_at: z.string(),
  /** Postgres version, as '15.6'. */
  db_version: z.string(),
  /** When the status last changed (server time): waiting screens count from it. */
  status_changed_at: z.string(),
})
export type Project = z.infer<typeof Project>
export const ProjectList = z.array(Project)

/** GET /platform/projects/{ref}/status */
export const ProjectStatusResponse = z.object({ status: ProjectStatus })
export type ProjectStatusResponse = z.infer<typeof ProjectStatusResponse>

/** PATCH /platform/projects/{ref}: rename (needs projects:write). */
export const UpdateProjectBody = z.object({ name: z.string().check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(64)) })
export type UpdateProjectBody = z.infer<typeof UpdateProjectBody>

/**
 * GET {platform}/projects/{ref}/live: the health of the project's API server (kps-v3.8.6 and later), the connecting
 * screen's test. 200 only while the API server is ONLINE, otherwise 503 { message }.
 */
export const ProjectLiveResponse = z.object({ status: z.literal('ok') })
export type ProjectLiveResponse = z.infer<typeof ProjectLiveResponse>
