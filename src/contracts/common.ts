import * as z from 'zod/mini'

/** The project statuses the dashboard distinguishes (spec section 4). */
export const ProjectStatus = z.enum([
  'INACTIVE',
  'UPGRADING',
  'RESTORING',
  'COMING_UP',
  'UNKNOWN',
  'GOING_DOWN',
  'PAUSING',
  'ACTIVE_HEALTHY',
  'RESTORATION_FAILED',
])
export type ProjectStatus = z.infer<typeof ProjectStatus>

/** State of a project's API server (PostgREST); OFFLINE drives the connecting page. */
export const PostgrestStatus = z.enum(['ONLINE', 'OFFLINE'])
export type PostgrestStatus = z.infer<typeof PostgrestStatus>

export const Role = z.enum(['Owner', 'Administrator', 'Developer', 'Read-only'])
export type Role = z.infer<typeof Role>

/**
 * Permissions the spec names, derived from the member's role on the server.
 * `projects:write` stands for every change a Read-only member may not make.
 */
export const Permission = z.enum([
  'projects:write',
  'project_auth:all',
  'project_storage:all',
  'project_edge_function:all',
  'realtime:all',
  'service_api_keys:read',
  'infra:execute:project-initialize-or-resume',
  // May manage the organization: its name, opt-in preferences and plan, its members, the add-ons its projects are
  // billed for (Owner and Administrator).
  'organizations:write',
])
export type Permission = z.infer<typeof Permission>

const ALL_PERMISSIONS = Permission.options

/**
 * The one table where roles become permissions: the server enforces it (every route that checks asks `can`), the
 * browser's list (GET /platform/profile/permissions) is derived from it, and the machines and views that offer an
 * action only to those allowed read the same table.
 */
const PERMISSIONS_BY_ROLE: Record<Role, readonly Permission[]> = {
  Owner: ALL_PERMISSIONS,
  Administrator: ALL_PERMISSIONS,
  Developer: ALL_PERMISSIONS.filter(
    (p) => p !== 'service_api_keys:read' && p !== 'infra:execute:project-initialize-or-resume' && p !== 'organizations:write',
  ),
  // Read-only can read everything it is a member of and change nothing.
  'Read-only': [],
}

export function permissionsFor(role: Role): Permission[] {
  return [...PERMISSIONS_BY_ROLE[role]]
}

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS_BY_ROLE[role].includes(permission)
}

export const PlanId = z.enum(['free', 'pro', 'team', 'enterprise'])
export type PlanId = z.infer<typeof PlanId>

/** Every error the servers answer with: `{ message }`, plus a machine-readable code where useful. */
export const ErrorBody = z.object({ message: z.string(), code: z.optional(z.string()) })
export type ErrorBody = z.infer<typeof ErrorBody>

/** Project refs: 20 lowercase letters, as in the Management API contract. */
export const ProjectRef = z.string().check(z.regex(/^[a-z]{20}$/, 'Project ref is required'))
export const OrgSlug = z.string().check(z.regex(/^[\w-]+$/, 'slug is required'))

/** GET /platform/health: no session, no side effect. */
export const HealthResponse = z.object({ ok: z.literal(true) })
