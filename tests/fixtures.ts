import type { Project } from '../src/contracts/projects'
import type { ProjectUpgradeEligibilityResponse } from '../src/contracts/upgrade'

type PostgresMajor = ProjectUpgradeEligibilityResponse['target_upgrade_versions'][number]['postgres_version']

export const REF = 'abcdefghijklmnopqrst'

export function makeProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 1,
    ref: REF,
    name: 'Analytics',
    organization_id: 2,
    organization_slug: 'demo-pro',
    status: 'ACTIVE_HEALTHY',
    restUrl: `http://localhost/rest/${REF}/v1/`,
    kpsVersion: 'kps-v3.8.6',
    is_branch_enabled: false,
    parent_project_ref: null,
    postgrestStatus: 'ONLINE',
    region: 'us-east-1',
    inserted_at: '2026-11-01T10:00:00.000Z',
    db_version: '15.6',
    status_changed_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  }
}

/**
 * A project's upgrade eligibility: eligible for the given majors (none: not eligible), from 14.1 unless `current`
 * says otherwise.
 */
export const upgradeEligibility = (targets: PostgresMajor[], current = 'supabase-postgres-14.1.1.042'): ProjectUpgradeEligibilityResponse => ({
  eligible: targets.length > 0,
  current_app_version: current,
  current_app_version_release_channel: 'ga',
  latest_app_version: 'supabase-postgres-17.4.1.042',
  target_upgrade_versions: targets.map((t) => ({ postgres_version: t, release_channel: 'ga', app_version: `supabase-postgres-${t}` })),
  duration_estimate_hours: 1,
  legacy_auth_custom_roles: [],
  objects_to_be_dropped: [],
  unsupported_extensions: [],
  user_defined_objects_in_internal_schemas: [],
  validation_errors: [],
  warnings: [],
})
