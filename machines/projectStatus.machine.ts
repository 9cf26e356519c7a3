/**
 * Project status: loads the open project and decides which full-page state its current route shows
 * (resolveProjectPage holds the spec's layout rules). Each full-page state is a state here; the building
 * state invokes the building flow, which ends when the project is healthy and asks for a refresh.
 * Invariants: a route change that keeps the same page does not restart the page's flow; a refresh keeps
 * the project on screen (no blank page) and a failed refresh keeps the last good data.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Project } from '../src/contracts/projects'
import type { LifecycleChildren } from './lifecycleChildren'
import { TOAST_SYSTEM_ID, toastMachine } from './toast.machine'
import { isBuildingStatus, normalizeSection, resolveProjectPage, type ProjectPage } from './projectPage'
import { href } from '../src/href'

interface ProjectStatusInput {
  ref: string
  section: string
}

interface Context {
  ref: string
  section: string
  project: Project | null
  error: string | null
}

type ProjectStatusEvent =
  | { type: 'route.changed'; section: string }
  | { type: 'project.refresh' }
  | { type: 'project.updated'; project: Project }
  | { type: 'project.retry' }
  | { type: 'projects.refresh' }

/**
 * A lifecycle flow's place until it is provided (./lifecycleChildren.ts): its code is not part of this machine's, so
 * a project that needs none of those screens never loads it. Unprovided, the flow fails at once and says so.
 */
function provided<K extends keyof LifecycleChildren>(name: K): LifecycleChildren[K] {
  return fromPromise(async () => {
    throw new Error(`the ${name} flow is not provided`)
  }) as unknown as LifecycleChildren[K]
}

const pageIs = (page: ProjectPage) => ({ context }: { context: Context }) =>
  context.project !== null && resolveProjectPage(context.project, context.section) === page

export const projectStatusMachine = setup({
  types: {
    input: {} as ProjectStatusInput,
    context: {} as Context,
    events: {} as ProjectStatusEvent,
    children: {} as {
      toasts: 'toasts'
      fetchProject: 'fetchProject'
      refetchProject: 'fetchProject'
      paused: 'paused'
      upgrading: 'upgrading'
      pausing: 'pausing'
      connecting: 'connecting'
      restoring: 'restoring'
      building: 'building'
    },
  },
  actors: {
    fetchProject: fromPromise<Project, { ref: string }>(async () => {
      throw new Error('fetchProject not provided')
    }),
    building: provided('building'),
    upgrading: provided('upgrading'),
    connecting: provided('connecting'),
    paused: provided('paused'),
    pausing: provided('pausing'),
    restoring: provided('restoring'),
    toasts: toastMachine,
  },
  actions: {
    /** Provided by the app: tells the project list to load again. */
    refreshProjectList: () => {},
  },
  guards: {
    isNotFound: (_, params: { error: unknown }) => (params.error as { status?: unknown } | null)?.status === 404,
    isPaused: pageIs('paused'),
    isUpgrading: pageIs('upgrading'),
    isPausing: pageIs('pausing'),
    isConnecting: pageIs('connecting'),
    isRestoring: pageIs('restoring'),
    isBuilding: pageIs('building'),
    /** A route change only re-routes when the page it shows changes, so a running flow is not restarted. */
    changesPage: ({ context }, params: { section: string }) =>
      context.project !== null &&
      resolveProjectPage(context.project, params.section) !== resolveProjectPage(context.project, context.section),
  },
}).createMachine({
  id: 'projectStatus',
  context: ({ input }) => ({ ref: input.ref, section: normalizeSection(input.section), project: null, error: null }),
  // The project's toasts outlive the page states that ask for them (a flow sends to system id 'toasts').
  invoke: { id: 'toasts', src: 'toasts', systemId: TOAST_SYSTEM_ID },
  initial: 'loading',
  on: {
    'route.changed': [
      {
        guard: { type: 'changesPage', params: ({ event }) => ({ section: normalizeSection(event.section) }) },
        target: '.routing',
        actions: assign({ section: ({ event }) => normalizeSection(event.section) }),
      },
      { actions: assign({ section: ({ event }) => normalizeSection(event.section) }) },
    ],
    'project.updated': {
      target: '.routing',
      actions: assign({ project: ({ event }) => event.project, error: null }),
    },
    'projects.refresh': { actions: 'refreshProjectList' },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchProject',
        src: 'fetchProject',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'routing', actions: assign({ project: ({ event }) => event.output, error: null }) },
        onError: [
          // An unknown ref (or a project of someone else's organization: the platform answers both alike) is not a
          // failure to retry: the page says the project does not exist.
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          {
            target: 'loadFailed',
            actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : 'Failed to load project') }),
          },
        ],
      },
    },
    loadFailed: {
      on: { 'project.retry': 'loading' },
    },
    notFound: {},
    routing: {
      always: [
        { guard: 'isPaused', target: 'paused' },
        { guard: 'isUpgrading', target: 'upgrading' },
        { guard: 'isPausing', target: 'pausing' },
        { guard: 'isConnecting', target: 'connecting' },
        { guard: 'isRestoring', target: 'restoring' },
        { guard: 'isBuilding', target: 'building' },
        { target: 'normal' },
      ],
    },
    normal: { on: { 'project.refresh': 'refreshing' } },
    paused: {
      invoke: { id: 'paused', src: 'paused', input: ({ context }) => ({ project: context.project! }) },
      on: { 'project.refresh': 'refreshing' },
    },
    upgrading: {
      invoke: {
        id: 'upgrading',
        src: 'upgrading',
        input: ({ context }) => ({ ref: context.ref, since: context.project!.status_changed_at }),
      },
      on: { 'project.refresh': 'refreshing' },
    },
    pausing: {
      invoke: {
        id: 'pausing',
        src: 'pausing',
        input: ({ context }) => ({ ref: context.ref, since: context.project!.status_changed_at }),
      },
      on: { 'project.refresh': 'refreshing' },
    },
    connecting: {
      invoke: { id: 'connecting', src: 'connecting', input: ({ context }) => ({ project: context.project! }) },
      on: { 'project.refresh': 'refreshing' },
    },
    restoring: {
      invoke: {
        id: 'restoring',
        src: 'restoring',
        input: ({ context }) => ({
          ref: context.ref,
          status: context.project!.status,
          since: context.project!.status_changed_at,
        }),
      },
      on: { 'project.refresh': 'refreshing' },
    },
    building: {
      invoke: {
        id: 'building',
        src: 'building',
        input: ({ context }) => ({
          ref: context.ref,
          status: context.project!.status,
          since: context.project!.status_changed_at,
        }),
      },
      on: { 'project.refresh': 'refreshing' },
    },
    refreshing: {
      invoke: {
        id: 'refetchProject',
        src: 'fetchProject',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'routing', actions: assign({ project: ({ event }) => event.output }) },
        // The last good project stays; its page's own polling will ask again.
        onError: 'routing',
      },
    },
  },
})

type ProjectStatusSnapshot = SnapshotFrom<typeof projectStatusMachine>

type ProjectView =
  | { phase: 'loading'; project: null; page: null; error: null }
  | { phase: 'loadFailed'; project: null; page: null; error: string }
  | { phase: 'notFound'; project: null; page: null; error: null }
  | { phase: 'ready'; project: Project; page: ProjectPage; refreshing: boolean; error: null }

/** What the project layout renders: never the raw snapshot. */
export function selectProjectView(snapshot: ProjectStatusSnapshot): ProjectView {
  const { project, error, section } = snapshot.context
  if (project === null) {
    if (snapshot.matches('notFound')) return { phase: 'notFound', project: null, page: null, error: null }
    return snapshot.matches('loadFailed')
      ? { phase: 'loadFailed', project: null, page: null, error: error ?? 'Failed to load project' }
      : { phase: 'loading', project: null, page: null, error: null }
  }
  return {
    phase: 'ready',
    project,
    page: resolveProjectPage(project, section),
    refreshing: snapshot.matches('refreshing'),
    error: null,
  }
}

export const selectProject = (snapshot: ProjectStatusSnapshot) => snapshot.context.project

/** Whether the project of the route does not exist (for the person): the frame then shows no project tools. */
export const selectProjectNotFound = (snapshot: ProjectStatusSnapshot) => snapshot.matches('notFound')

/** Where a tool link of the project leads: the building page while the project is coming up. */
export function projectLink(project: Pick<Project, 'ref' | 'status'> | null, ref: string, path: string) {
  if (project !== null && isBuildingStatus(project.status) && path !== '' && !path.startsWith('settings')) {
    return href.project(ref, 'building')
  }
  return href.project(ref, path)
}
