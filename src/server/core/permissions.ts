import { Permission, type Role } from '../../contracts/common'

/**
 * The one place where roles become permissions. Every route that checks asks `can(role, permission)`;
 * the browser's copy (GET /platform/profile/permissions) is derived from the same table.
 */
const ALL = Permission.options

const byRole: Record<Role, readonly Permission[]> = {
  Owner: ALL,
  Administrator: ALL,
  Developer: ALL.filter(
    (p) => p !== 'service_api_keys:read' && p !== 'infra:execute:project-initialize-or-resume' && p !== 'organizations:write',
  ),
  // Read-only can read everything it is a member of and change nothing.
  'Read-only': [],
}

export function permissionsFor(role: Role): Permission[] {
  return [...byRole[role]]
}

export function can(role: Role, permission: Permission): boolean {
  return byRole[role].includes(permission)
}
