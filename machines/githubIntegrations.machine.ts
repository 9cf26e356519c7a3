/**
 * The organization's integrations (/org/{slug}/integrations, and a project's settings/integrations): its installation
 * cards and its project-to-repository connection cards, a connection deleted after a confirmation.
 * Invariants: one deletion at a time; a failed deletion says 'Failed to delete Github connection: {message}' in a
 * toast and keeps the card; a refresh (asked by the repository linker after it linked) reads the connections again
 * without hiding the cards shown; a request unanswered after requestTimeout is abandoned and reported.
 * The toasts go to the region handed in (the open project's), or to a toast machine of its own ('toasts').
 */
import { assign, fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import type { Connection, Installation } from '../src/contracts/github'
import { toastMachine, type ToastTone } from './toast.machine'

export const deleteFailedMessage = (message: string) => `Failed to delete Github connection: ${message}`

export interface IntegrationsData {
  organization: { id: number; slug: string; name: string }
  installations: Installation[]
  connections: Connection[]
}

type ToastsRef = ActorRefFrom<typeof toastMachine>

interface Context {
  slug: string
  toasts: ToastsRef
  data: IntegrationsData | null
  loadError: string | null
  deleteId: number | null
}

type IntegrationsEvent =
  | { type: 'integrations.retry' }
  | { type: 'connections.refresh' }
  | { type: 'connection.delete'; id: number }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const githubIntegrationsMachine = setup({
  types: {
    input: {} as { slug: string; toasts?: ToastsRef },
    context: {} as Context,
    events: {} as IntegrationsEvent,
    children: {} as { loadIntegrations: 'loadIntegrations'; listConnections: 'listConnections'; deleteConnection: 'deleteConnection'; toasts: 'toasts' },
  },
  actors: {
    loadIntegrations: fromPromise<IntegrationsData, { slug: string }>(async () => {
      throw new Error('loadIntegrations not provided')
    }),
    listConnections: fromPromise<Connection[], { organizationId: number }>(async () => {
      throw new Error('listConnections not provided')
    }),
    deleteConnection: fromPromise<void, { organizationId: number; connectionId: number }>(async () => {
      throw new Error('deleteConnection not provided')
    }),
    toasts: toastMachine,
  },
  actions: {
    showToast: sendTo(
      ({ context }) => context.toasts,
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, tone: params.tone, message: params.message }),
    ),
    storeConnections: assign(({ context }, params: { connections: Connection[] }) => ({
      data: context.data ? { ...context.data, connections: params.connections } : null,
    })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'githubIntegrations',
  context: ({ input, spawn }) => ({
    slug: input.slug,
    toasts: input.toasts ?? spawn('toasts', { id: 'toasts' }),
    data: null,
    loadError: null,
    deleteId: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadIntegrations',
        src: 'loadIntegrations',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: { target: 'loaded', actions: assign({ data: ({ event }) => event.output, loadError: null }) },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error, 'Failed to load integrations') }) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ loadError: TIMED_OUT }) } },
    },
    failed: {
      on: { 'integrations.retry': 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'connections.refresh': 'refreshing',
            'connection.delete': { target: 'confirming', actions: assign({ deleteId: ({ event }) => event.id }) },
          },
        },
        refreshing: {
          invoke: {
            id: 'listConnections',
            src: 'listConnections',
            input: ({ context }) => ({ organizationId: context.data?.organization.id ?? 0 }),
            onDone: { target: 'idle', actions: { type: 'storeConnections', params: ({ event }) => ({ connections: event.output }) } },
            // The cards shown stay; the next refresh or visit reads them again.
            onError: 'idle',
          },
          after: { requestTimeout: 'idle' },
        },
        confirming: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: assign({ deleteId: null }) },
          },
        },
        deleting: {
          invoke: {
            id: 'deleteConnection',
            src: 'deleteConnection',
            input: ({ context }) => ({ organizationId: context.data?.organization.id ?? 0, connectionId: context.deleteId ?? 0 }),
            onDone: {
              target: 'refreshing',
              actions: assign(({ context }) => ({
                data: context.data ? { ...context.data, connections: context.data.connections.filter((c) => c.id !== context.deleteId) } : null,
                deleteId: null,
              })),
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'showToast', params: ({ event }) => ({ tone: 'error', message: deleteFailedMessage(messageOf(event.error, 'Unknown error')) }) }, assign({ deleteId: null })],
            },
          },
          after: {
            requestTimeout: {
              target: 'idle',
              actions: [{ type: 'showToast', params: { tone: 'error', message: deleteFailedMessage(TIMED_OUT) } }, assign({ deleteId: null })],
            },
          },
        },
      },
    },
  },
})

export type GitHubIntegrationsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'loaded'
      organization: IntegrationsData['organization']
      installations: Installation[]
      connections: Connection[]
      /** The connection asked to be deleted, while its confirmation shows or its deletion runs. */
      remove: { connection: Connection; deleting: boolean } | null
      refreshing: boolean
    }

export function selectGitHubIntegrationsView(snapshot: SnapshotFrom<typeof githubIntegrationsMachine>): GitHubIntegrationsView {
  const { data, loadError, deleteId } = snapshot.context
  if (snapshot.matches('failed')) return { phase: 'failed', error: loadError ?? 'Failed to load integrations' }
  if (!snapshot.matches('loaded') || !data) return { phase: 'loading' }
  const removed = data.connections.find((c) => c.id === deleteId)
  return {
    phase: 'loaded',
    organization: data.organization,
    installations: data.installations,
    connections: data.connections,
    remove: removed && (snapshot.matches({ loaded: 'confirming' }) || snapshot.matches({ loaded: 'deleting' })) ? { connection: removed, deleting: snapshot.matches({ loaded: 'deleting' }) } : null,
    refreshing: snapshot.matches({ loaded: 'refreshing' }),
  }
}

/** The machine's own toast region, when it was not handed one. */
export const selectOwnToasts = (snapshot: SnapshotFrom<typeof githubIntegrationsMachine>) => snapshot.children.toasts

/** The organization once loaded (the repository linker needs its id), else null. */
export const selectIntegrationsOrganization = (snapshot: SnapshotFrom<typeof githubIntegrationsMachine>) => snapshot.context.data?.organization ?? null
