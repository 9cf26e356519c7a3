import type { Project } from '../src/contracts/projects'

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
