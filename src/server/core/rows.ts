/** Row shapes and conversions every feature shares. */
import type { PostgrestStatus, ProjectStatus, Role } from '../../contracts/common'

/** A timestamp column (Date from pg, string from PGlite JSON) as an ISO string. */
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()
}

/** The signed-in person (set on the request by the session and bearer middlewares). */
export interface AccountRow {
  id: number
  username: string
  primary_email: string
}

/** A project as the store holds it (the projects feature reads it; the cache and other features carry it). */
export interface ProjectRow {
  id: number
  ref: string
  name: string
  organization_id: number
  organization_slug: string
  status: ProjectStatus
  postgrest_status: PostgrestStatus
  kps_version: string | null
  is_branch_enabled: boolean
  /** The parent's ref when the project is a preview branch's own project; null for any other project. */
  parent_project_ref: string | null
  region: string
  db_version: string
  inserted_at: Date | string
  status_changed_at: Date | string
}

export interface MemberProjectRow extends ProjectRow {
  role: Role
}
