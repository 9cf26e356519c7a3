/**
 * Project list: the organizations a person belongs to and their projects, loaded together. A first load that
 * fails shows an error with a retry; `projects.refresh` (sent by the project status flow when a project comes
 * up) reloads in the background and keeps the list on screen, and a failed refresh keeps the last good list.
 * The search text lives here so the grouping and filtering are one selector the views read.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Organization } from '../src/contracts/organizations'
import type { Project } from '../src/contracts/projects'

export interface ProjectListData {
  organizations: Organization[]
  projects: Project[]
}

interface Context extends ProjectListData {
  error: string | null
  query: string
}

type ProjectListEvent =
  | { type: 'projects.refresh' }
  | { type: 'projects.retry' }
  | { type: 'projects.search'; query: string }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load projects')

export const projectListMachine = setup({
  types: {
    context: {} as Context,
    events: {} as ProjectListEvent,
    children: {} as { fetchProjects: 'fetchProjects' },
  },
  actors: {
    fetchProjects: fromPromise<ProjectListData>(async () => {
      throw new Error('fetchProjects not provided')
    }),
  },
  actions: {
    storeList: assign((_, params: ProjectListData) => ({ ...params, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
  },
}).createMachine({
  id: 'projectList',
  context: { organizations: [], projects: [], error: null, query: '' },
  initial: 'loading',
  on: {
    'projects.search': { actions: assign({ query: ({ event }) => event.query }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchProjects',
        src: 'fetchProjects',
        onDone: { target: 'loaded', actions: { type: 'storeList', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'projects.retry': 'loading', 'projects.refresh': 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'projects.refresh': 'refreshing' },
        },
        refreshing: {
          invoke: {
            id: 'fetchProjects',
            src: 'fetchProjects',
            onDone: { target: 'idle', actions: { type: 'storeList', params: ({ event }) => event.output } },
            // The last good list stays on screen.
            onError: 'idle',
          },
        },
      },
    },
  },
})

type ProjectListSnapshot = SnapshotFrom<typeof projectListMachine>

interface OrganizationGroup {
  organization: Organization
  projects: Project[]
}

type ProjectListView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; refreshing: boolean; query: string; groups: OrganizationGroup[]; noResults: boolean }

function matchesQuery(project: Project, query: string) {
  const q = query.trim().toLowerCase()
  return q === '' || project.name.toLowerCase().includes(q) || project.ref.toLowerCase().includes(q)
}

/** Organizations in their server order, each with its projects filtered by the search text. */
export function selectProjectListView(snapshot: ProjectListSnapshot): ProjectListView {
  const { organizations, projects, query, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load projects' }
  const searching = query.trim() !== ''
  const groups = organizations.map((organization) => ({
    organization,
    projects: projects.filter((project) => project.organization_id === organization.id && matchesQuery(project, query)),
  }))
  return {
    phase: 'loaded',
    refreshing: snapshot.matches({ loaded: 'refreshing' }),
    query,
    // While searching, organizations without a match are left out; no match anywhere is 'No results found.'.
    groups: searching ? groups.filter((group) => group.projects.length > 0) : groups,
    noResults: searching && groups.every((group) => group.projects.length === 0),
  }
}

/** Every project, for the command menu. */
export const selectAllProjects = (snapshot: ProjectListSnapshot) => snapshot.context.projects

/** The organization a project belongs to, for breadcrumbs. */
export function selectOrganizationBySlug(slug: string | null) {
  return (snapshot: ProjectListSnapshot) => snapshot.context.organizations.find((organization) => organization.slug === slug) ?? null
}
