/**
 * Pause project: the action in the project's general settings. It reads the person's permissions in the
 * project's organization; without projects:write the action stays disabled with the reason. A request opens a
 * confirm dialog whose buttons are disabled once confirmed; the pause call follows. On the server's 200 the
 * project is refetched, so the router shows the pausing page for the status the server reports.
 * Invariants: only an ACTIVE_HEALTHY project can be asked to pause; a failed call keeps the dialog with the error.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Permission, ProjectStatus } from '../src/contracts/common'

const PAUSE_PERMISSION: Permission = 'projects:write'

interface PauseProjectInput {
  ref: string
  organizationSlug: string
  status: ProjectStatus
}

interface Context extends PauseProjectInput {
  permissions: Permission[]
  error: string | null
}

type PauseProjectEvent =
  | { type: 'pause.request' }
  | { type: 'pause.confirm' }
  | { type: 'pause.cancel' }
  | { type: 'permissions.retry' }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Unknown error')

export const pauseProjectMachine = setup({
  types: {
    input: {} as PauseProjectInput,
    context: {} as Context,
    events: {} as PauseProjectEvent,
    children: {} as { fetchPermissions: 'fetchPermissions'; pauseProject: 'pauseProject' },
  },
  actors: {
    fetchPermissions: fromPromise<Permission[], { organizationSlug: string }>(async () => {
      throw new Error('fetchPermissions not provided')
    }),
    pauseProject: fromPromise<void, { ref: string }>(async () => {
      throw new Error('pauseProject not provided')
    }),
  },
  actions: {
    /** Provided by the page: the project status machine refetches the project. */
    refreshProject: () => {},
    /**
     * Provided by the app: the pausing page's code starts loading while the person confirms, so the page shows as soon
     * as the pause is answered, and its polling beat counts from then.
     */
    prepareForPausing: () => {},
  },
  guards: {
    mayPause: ({ context }) => context.permissions.includes(PAUSE_PERMISSION) && context.status === 'ACTIVE_HEALTHY',
  },
}).createMachine({
  id: 'pauseProject',
  context: ({ input }) => ({ ...input, permissions: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchPermissions',
        src: 'fetchPermissions',
        input: ({ context }) => ({ organizationSlug: context.organizationSlug }),
        onDone: { target: 'idle', actions: assign({ permissions: ({ event }) => event.output, error: null }) },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    loadFailed: {
      on: { 'permissions.retry': 'loading' },
    },
    idle: {
      on: { 'pause.request': { guard: 'mayPause', target: 'confirming' } },
    },
    confirming: {
      entry: 'prepareForPausing',
      on: {
        'pause.confirm': { target: 'pausing', actions: assign({ error: null }) },
        'pause.cancel': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    pausing: {
      invoke: {
        id: 'pauseProject',
        src: 'pauseProject',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: 'requested',
        onError: { target: 'confirming', actions: assign({ error: ({ event }) => `Failed to pause project: ${messageOf(event.error)}` }) },
      },
    },
    requested: {
      type: 'final',
      entry: 'refreshProject',
    },
  },
})

interface PauseProjectView {
  phase: 'loading' | 'loadFailed' | 'ready'
  canRequest: boolean
  /** Why the action is disabled, when it is. */
  reason: string | null
  dialogOpen: boolean
  confirmed: boolean
  /** The dialog's buttons, disabled once confirmed. */
  canConfirm: boolean
  canCancel: boolean
  error: string | null
}

export function selectPauseProjectView(snapshot: SnapshotFrom<typeof pauseProjectMachine>): PauseProjectView {
  const { permissions, status } = snapshot.context
  const loading = snapshot.matches('loading')
  const loadFailed = snapshot.matches('loadFailed')
  const confirmed = snapshot.matches('pausing') || snapshot.matches('requested')
  const reason =
    loading || loadFailed
      ? null
      : !permissions.includes(PAUSE_PERMISSION)
        ? 'You need additional permissions to pause this project'
        : status !== 'ACTIVE_HEALTHY' && snapshot.matches('idle')
          ? `Only a healthy project can be paused; this one is ${status}`
          : null
  return {
    phase: loading ? 'loading' : loadFailed ? 'loadFailed' : 'ready',
    canRequest: snapshot.can({ type: 'pause.request' }),
    reason,
    dialogOpen: snapshot.matches('confirming') || confirmed,
    confirmed,
    canConfirm: snapshot.can({ type: 'pause.confirm' }),
    canCancel: snapshot.can({ type: 'pause.cancel' }),
    error: loadFailed || snapshot.matches('confirming') ? snapshot.context.error : null,
  }
}
