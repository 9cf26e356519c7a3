/** Fixtures of the GitHub integration (repository linker and integrations tests): Demo Pro Org's shapes. */
import type { Connection, Installation, Repository } from '../src/contracts/github'
import type { LinkerData } from '../machines/repositoryRelink.machine'

export const ORG = { id: 2, slug: 'demo-pro', name: 'Demo Pro Org' }

export const INSTALLATION: Installation = {
  id: 7,
  integration: { name: 'GitHub' },
  metadata: { account: { name: 'demo-pro', type: 'Organization', avatar_url: 'data:image/svg+xml;base64,PHN2Zy8+' }, gitHubConnectionOwner: 'owner' },
  inserted_at: '2026-11-01T10:00:00.000Z',
  added_by: { id: 1, primary_email: 'owner@example.com', username: 'owner' },
}

const repository = (id: number, name: string): Repository => ({ id, name: `demo-pro/${name}`, installation_id: INSTALLATION.id, default_branch: 'main' })
export const NOTES_APP = repository(11, 'notes-app')
export const LANDING_PAGE = repository(12, 'landing-page')
export const BROKEN = repository(13, 'broken-migrations')
export const REPOSITORIES = [NOTES_APP, LANDING_PAGE, BROKEN]

export const ACME = { ref: 'acmestorefrontref0001', name: 'Acme Storefront', parentRef: null }
export const PORTAL = { ref: 'customerportalref0002', name: 'Customer Portal', parentRef: null }
/** A preview branch of Acme Storefront: its own project, never offered to the linker. */
export const ACME_PREVIEW = { ref: 'acmepreviewbranch0003', name: 'preview', parentRef: ACME.ref }
export const PROJECTS = [ACME, PORTAL]

export const connection = (id: number, repo: Repository, project: { ref: string; name: string }, more: Partial<Connection> = {}): Connection => ({
  id,
  installation_id: INSTALLATION.id,
  project: { id: id + 100, name: project.name, ref: project.ref },
  repository: { id: repo.id, name: repo.name },
  user: { id: 1, primary_email: 'owner@example.com', username: 'owner' },
  inserted_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
  workdir: '.',
  branch_limit: 50,
  new_branch_per_pr: false,
  supabase_changes_only: false,
  ...more,
})

/** Acme Storefront linked to notes-app, as in the demo. */
export const ACME_NOTES = connection(1, NOTES_APP, ACME)

export const LINKER_DATA: LinkerData = { installed: true, repositories: REPOSITORIES, projects: PROJECTS, connections: [ACME_NOTES] }
