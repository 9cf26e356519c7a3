/**
 * Repository relink: the 'Add GitHub repository' side panel (spec 4 'Repository linker', 5, 7, 8, 9). It reads the
 * organization's GitHub repositories, platform projects and connections; a person picks one repository and one
 * project (each list searched by text) and connects them. A person who has not authorized GitHub, or an
 * organization without the GitHub installation, gets the install step first: a 600x800 centred popup on the
 * platform's install page, whose completion arrives as an event (the popup's message) or is found by polling.
 * Invariants: a preview branch's own project is never offered (it follows its parent's repository); Connect is
 * possible only with both chosen and a repository not already connected; the project's own
 * connection is deleted first (its failure ignored), then the new one created; success closes the panel with one
 * toast and asks the organization's connections to refresh; a failure keeps the panel and both selections, with
 * one toast; the panel cannot be closed while connecting; a request unanswered after requestTimeout is abandoned.
 */
import { and, assign, enqueueActions, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate'
import { REPOSITORY_ALREADY_CONNECTED, type Connection, type CreateConnectionBody, type Repository } from '../src/contracts/github'
import type { toastMachine, ToastTone } from './toast.machine'

export const LINKED_MESSAGE = 'Successfully linked project to repository!'
export const createFailedMessage = (message: string) => `Failed to create Github connection: ${message}`
export const repositoryConnectedMessage = (repository: string) => `Unable to connect to ${repository}: ${REPOSITORY_ALREADY_CONNECTED}`
export const NO_NEW_CONNECTION = 'No new connection'

export type ToastsRef = ActorRefFrom<typeof toastMachine>

export interface LinkerProject {
  ref: string
  name: string
  /** The parent project's ref when this project is a preview branch; null otherwise. */
  parentRef: string | null
}

/** The projects a repository may be linked to: not a preview branch's own project. */
const linkable = (projects: LinkerProject[]) => projects.filter((p) => p.parentRef === null)

/** What the panel reads when it opens. */
export interface LinkerData {
  /** Whether the person has authorized GitHub and the organization has its installation. */
  installed: boolean
  repositories: Repository[]
  projects: LinkerProject[]
  connections: Connection[]
}

export interface RelinkInput {
  organization: { id: number | null; slug: string }
  toasts: ToastsRef
  /** The actor showing the organization's connections: told 'connections.refresh' after a link (or a failed one). */
  connectionsOwner: AnyActorRef | null
}

interface Context extends RelinkInput {
  data: LinkerData | null
  loadError: string | null
  installError: string | null
  repositorySearch: string
  projectSearch: string
  repositoryId: number | null
  projectRef: string | null
  connectError: string | null
}

type RelinkEvent =
  | { type: 'panel.open'; projectRef?: string }
  | { type: 'panel.close' }
  | { type: 'linker.retry' }
  | { type: 'install.start' }
  | { type: 'install.cancel' }
  /** From the install popup's watcher: the page said the installation is recorded. */
  | { type: 'install.completed' }
  /** From the install popup's watcher: the popup could not be opened. */
  | { type: 'install.failed'; error: string }
  | { type: 'repository.search'; text: string }
  | { type: 'project.search'; text: string }
  | { type: 'repository.select'; id: number }
  | { type: 'project.select'; ref: string }
  | { type: 'connect' }

export interface CreateInput {
  organizationId: number | null
  body: CreateConnectionBody
}

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

const selectedRepository = (context: Context) => context.data?.repositories.find((r) => r.id === context.repositoryId) ?? null
/** The connection the chosen repository already has (to any project), if any. */
const repositoryConnection = (context: Context) => context.data?.connections.find((c) => c.repository.id === context.repositoryId) ?? null
/** The connection the chosen project has now: deleted before the new one is made. */
const projectConnection = (context: Context) => context.data?.connections.find((c) => c.project.ref === context.projectRef) ?? null

/** The message of a failed create: the repository conflict in the spec's words, anything else prefixed. */
function connectErrorOf(context: Context, error: unknown) {
  const message = messageOf(error, 'Unknown error')
  const repository = selectedRepository(context)
  if (message === REPOSITORY_ALREADY_CONNECTED && repository) return repositoryConnectedMessage(repository.name)
  return createFailedMessage(message)
}

const EMPTY_SELECTION = { repositorySearch: '', projectSearch: '', repositoryId: null, projectRef: null, connectError: null } as const

export const repositoryRelinkMachine = setup({
  types: {
    input: {} as RelinkInput,
    context: {} as Context,
    events: {} as RelinkEvent,
    children: {} as {
      loadLinker: 'loadLinker'
      checkInstallation: 'checkInstallation'
      watchInstallPopup: 'watchInstallPopup'
      deleteConnection: 'deleteConnection'
      createConnection: 'createConnection'
    },
  },
  actors: {
    loadLinker: fromPromise<LinkerData, { organizationId: number | null; slug: string }>(async () => {
      throw new Error('loadLinker not provided')
    }),
    /** Whether the install step has completed (the authorization and the installation are there). */
    checkInstallation: fromPromise<boolean, { slug: string }>(async () => {
      throw new Error('checkInstallation not provided')
    }),
    /** Opens the install popup and sends 'install.completed' when its page reports, 'install.failed' if it cannot open. */
    watchInstallPopup: fromCallback<RelinkEvent, { slug: string }>(() => {
      throw new Error('watchInstallPopup not provided')
    }),
    deleteConnection: fromPromise<void, { organizationId: number | null; connectionId: number }>(async () => {
      throw new Error('deleteConnection not provided')
    }),
    /** null: the platform answered without a connection. */
    createConnection: fromPromise<Connection | null, CreateInput>(async () => {
      throw new Error('createConnection not provided')
    }),
  },
  actions: {
    /** Asks the actor showing the organization's connections to read them again. */
    refreshConnections: enqueueActions(({ context, enqueue }) => {
      if (context.connectionsOwner) enqueue.sendTo(context.connectionsOwner, { type: 'connections.refresh' })
    }),
    showToast: sendTo(
      ({ context }) => context.toasts,
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, tone: params.tone, message: params.message }),
    ),
    storeConnectError: assign((_, params: { message: string }) => ({ connectError: params.message })),
  },
  guards: {
    needsInstall: (_, params: { data: LinkerData }) => !params.data.installed,
    isInstalled: (_, params: { installed: boolean }) => params.installed,
    canConnect: ({ context }) =>
      selectedRepository(context) !== null &&
      linkable(context.data?.projects ?? []).some((p) => p.ref === context.projectRef) &&
      repositoryConnection(context) === null,
    projectHasConnection: ({ context }) => projectConnection(context) !== null,
    isNewConnection: (_, params: { connection: Connection | null }) => params.connection !== null,
  },
  delays: {
    requestTimeout: 10_000,
    /** How often the install step asks whether the popup's page has recorded the installation. */
    installPollInterval: 3_000,
  },
}).createMachine({
  id: 'repositoryRelink',
  context: ({ input }) => ({
    ...input,
    data: null,
    loadError: null,
    installError: null,
    ...EMPTY_SELECTION,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'panel.open': {
          target: 'open',
          actions: assign(({ event }) => ({ ...EMPTY_SELECTION, projectRef: event.projectRef ?? null, data: null, loadError: null, installError: null })),
        },
      },
    },
    open: {
      initial: 'loading',
      on: { 'panel.close': 'closed' },
      states: {
        loading: {
          invoke: {
            id: 'loadLinker',
            src: 'loadLinker',
            input: ({ context }) => ({ organizationId: context.organization.id, slug: context.organization.slug }),
            onDone: [
              { guard: { type: 'needsInstall', params: ({ event }) => ({ data: event.output }) }, target: 'needsInstall', actions: assign({ data: ({ event }) => event.output }) },
              {
                target: 'choosing',
                // A project asked for at opening that is not offered (unknown, or a preview branch) is not kept chosen.
                actions: assign(({ context, event }) => ({
                  data: event.output,
                  projectRef: linkable(event.output.projects).some((p) => p.ref === context.projectRef) ? context.projectRef : null,
                })),
              },
            ],
            onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error, 'Failed to load GitHub repositories') }) },
          },
          after: { requestTimeout: { target: 'failed', actions: assign({ loadError: TIMED_OUT }) } },
        },
        failed: {
          on: { 'linker.retry': { target: 'loading', actions: assign({ loadError: null }) } },
        },
        needsInstall: {
          on: { 'install.start': { target: 'installing', actions: assign({ installError: null }) } },
        },
        installing: {
          invoke: { id: 'watchInstallPopup', src: 'watchInstallPopup', input: ({ context }) => ({ slug: context.organization.slug }) },
          on: {
            'install.completed': 'loading',
            'install.failed': { target: 'needsInstall', actions: assign({ installError: ({ event }) => event.error }) },
            'install.cancel': 'needsInstall',
          },
          initial: 'waiting',
          states: {
            waiting: { after: { installPollInterval: 'checking' } },
            checking: {
              invoke: {
                id: 'checkInstallation',
                src: 'checkInstallation',
                input: ({ context }) => ({ slug: context.organization.slug }),
                onDone: [{ guard: { type: 'isInstalled', params: ({ event }) => ({ installed: event.output }) }, target: '#repositoryRelink.open.loading' }, { target: 'waiting' }],
                // A failed check is asked again on the next beat; the popup's own message still counts.
                onError: 'waiting',
              },
              after: { requestTimeout: 'waiting' },
            },
          },
        },
        choosing: {
          on: {
            'repository.search': { actions: assign({ repositorySearch: ({ event }) => event.text }) },
            'project.search': { actions: assign({ projectSearch: ({ event }) => event.text }) },
            'repository.select': { actions: assign({ repositoryId: ({ event }) => event.id, connectError: null }) },
            'project.select': { actions: assign({ projectRef: ({ event }) => event.ref, connectError: null }) },
            connect: [
              { guard: and(['canConnect', 'projectHasConnection']), target: 'connecting.removingPrevious', actions: assign({ connectError: null }) },
              { guard: 'canConnect', target: 'connecting.creating', actions: assign({ connectError: null }) },
            ],
          },
        },
        connecting: {
          // Closing mid-way would leave the project without its old connection and without the new one.
          on: { 'panel.close': {} },
          initial: 'creating',
          states: {
            removingPrevious: {
              invoke: {
                id: 'deleteConnection',
                src: 'deleteConnection',
                input: ({ context }) => ({ organizationId: context.organization.id, connectionId: projectConnection(context)?.id ?? 0 }),
                // Spec 4: the old connection's deletion errors are ignored.
                onDone: 'creating',
                onError: 'creating',
              },
              after: { requestTimeout: 'creating' },
            },
            creating: {
              invoke: {
                id: 'createConnection',
                src: 'createConnection',
                input: ({ context }) => {
                  const repository = selectedRepository(context)
                  return {
                    organizationId: context.organization.id,
                    body: { installation_id: repository?.installation_id ?? 0, project_ref: context.projectRef ?? '', repository_id: repository?.id ?? 0 },
                  }
                },
                onDone: [
                  {
                    guard: { type: 'isNewConnection', params: ({ event }) => ({ connection: event.output }) },
                    target: '#repositoryRelink.closed',
                    actions: [{ type: 'showToast', params: { tone: 'success', message: LINKED_MESSAGE } }, 'refreshConnections'],
                  },
                  {
                    target: '#repositoryRelink.open.choosing',
                    actions: [
                      { type: 'storeConnectError', params: { message: createFailedMessage(NO_NEW_CONNECTION) } },
                      { type: 'showToast', params: { tone: 'error', message: createFailedMessage(NO_NEW_CONNECTION) } },
                      // The old connection may be gone: the lists show what is there now.
                      'refreshConnections',
                    ],
                  },
                ],
                onError: {
                  target: '#repositoryRelink.open.choosing',
                  actions: [
                    { type: 'storeConnectError', params: ({ context, event }) => ({ message: connectErrorOf(context, event.error) }) },
                    { type: 'showToast', params: ({ context, event }) => ({ tone: 'error', message: connectErrorOf(context, event.error) }) },
                    'refreshConnections',
                  ],
                },
              },
              after: {
                requestTimeout: {
                  target: '#repositoryRelink.open.choosing',
                  actions: [
                    { type: 'storeConnectError', params: { message: createFailedMessage(TIMED_OUT) } },
                    { type: 'showToast', params: { tone: 'error', message: createFailedMessage(TIMED_OUT) } },
                    'refreshConnections',
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
})

// ---------------------------------------------------------------------------------------------------------------
// Selectors

const matchesText = (name: string, text: string) => name.toLowerCase().includes(text.trim().toLowerCase())

export interface RepositoryOption {
  id: number
  name: string
  /** The project the repository is connected to, if any. */
  connectedTo: string | null
}

export interface ProjectOption {
  ref: string
  name: string
  /** The repository the project is connected to, if any. */
  connectedTo: string | null
}

export type RepositoryRelinkView =
  | { phase: 'closed' }
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'install'; installing: boolean; error: string | null }
  | {
      phase: 'choosing'
      repositorySearch: string
      projectSearch: string
      /** The repositories matching the search (all when it is empty). */
      repositories: RepositoryOption[]
      projects: ProjectOption[]
      /** The organization has no repositories / no projects at all (not just none matching). */
      noRepositories: boolean
      noProjects: boolean
      repositoryId: number | null
      projectRef: string | null
      /** 'Unable to connect to …' when the chosen repository already has a connection. */
      conflict: string | null
      /** The repository the chosen project is linked to now (relinking replaces it). */
      replaces: string | null
      canConnect: boolean
      connecting: boolean
      error: string | null
    }

export function selectRepositoryRelinkView(snapshot: SnapshotFrom<typeof repositoryRelinkMachine>): RepositoryRelinkView {
  const context = snapshot.context
  if (snapshot.matches('closed')) return { phase: 'closed' }
  if (snapshot.matches({ open: 'loading' })) return { phase: 'loading' }
  if (snapshot.matches({ open: 'failed' })) return { phase: 'failed', error: context.loadError ?? 'Failed to load GitHub repositories' }
  if (snapshot.matches({ open: 'needsInstall' }) || snapshot.matches({ open: 'installing' })) {
    return { phase: 'install', installing: snapshot.matches({ open: 'installing' }), error: context.installError }
  }
  const data = context.data ?? { installed: true, repositories: [], projects: [], connections: [] }
  const byRepository = new Map(data.connections.map((c) => [c.repository.id, c.project.name]))
  const byProject = new Map(data.connections.map((c) => [c.project.ref, c.repository.name]))
  const repository = selectedRepository(context)
  return {
    phase: 'choosing',
    repositorySearch: context.repositorySearch,
    projectSearch: context.projectSearch,
    repositories: data.repositories
      .filter((r) => matchesText(r.name, context.repositorySearch))
      .map((r) => ({ id: r.id, name: r.name, connectedTo: byRepository.get(r.id) ?? null })),
    projects: linkable(data.projects)
      .filter((p) => matchesText(p.name, context.projectSearch))
      .map((p) => ({ ref: p.ref, name: p.name, connectedTo: byProject.get(p.ref) ?? null })),
    noRepositories: data.repositories.length === 0,
    noProjects: linkable(data.projects).length === 0,
    repositoryId: context.repositoryId,
    projectRef: context.projectRef,
    conflict: repository && repositoryConnection(context) ? repositoryConnectedMessage(repository.name) : null,
    replaces: context.projectRef === null ? null : (byProject.get(context.projectRef) ?? null),
    canConnect: snapshot.can({ type: 'connect' }),
    connecting: snapshot.matches({ open: 'connecting' }),
    error: context.connectError,
  }
}
