/**
 * Paused: the page of a paused (INACTIVE) project and its restore. It first reads what the restore depends on —
 * the person's permissions in the project's organization, the organization's plan and the members who reached
 * the free project limit — then a Restore request is refused (no infra-execute permission), blocked (free plan
 * with members at the limit) or confirmed in a dialog whose buttons are disabled once confirmed.
 * Invariants: the project is marked RESTORING only from the server's answer to the restore call; every outcome
 * of the call leaves a toast.
 */
import { assign, fromPromise, sendParent, sendTo, setup, type SnapshotFrom } from 'xstate'
import type { Permission, PlanId } from '../src/contracts/common'
import type { MemberReachedFreeProjectLimit } from '../src/contracts/pause'
import type { Project } from '../src/contracts/projects'
import { TOAST_SYSTEM_ID, type ToastTone } from './toast.machine'

const RESTORE_PERMISSION: Permission = 'infra:execute:project-initialize-or-resume'
const FREE_PLAN: PlanId = 'free'

export interface RestoreContext {
  /** The person's permissions in the project's organization. */
  permissions: Permission[]
  plan: PlanId
  membersReachedLimit: MemberReachedFreeProjectLimit[]
}

interface PausedInput {
  project: Project
}

interface Context {
  project: Project
  restoreContext: RestoreContext | null
  error: string | null
}

type PausedEvent =
  | { type: 'restore.request' }
  | { type: 'restore.confirm' }
  | { type: 'restore.cancel' }
  | { type: 'limit.close' }
  | { type: 'context.retry' }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Unknown error')

export const pausedMachine = setup({
  types: {
    input: {} as PausedInput,
    context: {} as Context,
    events: {} as PausedEvent,
    children: {} as { fetchRestoreContext: 'fetchRestoreContext'; restoreProject: 'restoreProject' },
  },
  actors: {
    fetchRestoreContext: fromPromise<RestoreContext, { organizationSlug: string }>(async () => {
      throw new Error('fetchRestoreContext not provided')
    }),
    restoreProject: fromPromise<Project, { ref: string }>(async () => {
      throw new Error('restoreProject not provided')
    }),
  },
  actions: {
    /** The project status machine routes to the restoring page on the new status. */
    projectUpdated: (_, _params: { project: Project }) => {},
    showToast: (_, _params: { tone: ToastTone; message: string }) => {},
  },
  guards: {
    lacksRestorePermission: ({ context }) => !context.restoreContext?.permissions.includes(RESTORE_PERMISSION),
    reachedFreeProjectLimit: ({ context }) =>
      context.restoreContext?.plan === FREE_PLAN && context.restoreContext.membersReachedLimit.length > 0,
  },
}).createMachine({
  id: 'paused',
  context: ({ input }) => ({ project: input.project, restoreContext: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchRestoreContext',
        src: 'fetchRestoreContext',
        input: ({ context }) => ({ organizationSlug: context.project.organization_slug }),
        onDone: { target: 'idle', actions: assign({ restoreContext: ({ event }) => event.output, error: null }) },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    loadFailed: {
      on: { 'context.retry': 'loading' },
    },
    idle: {
      on: {
        'restore.request': [
          { guard: 'lacksRestorePermission', target: 'denied' },
          { guard: 'reachedFreeProjectLimit', target: 'limitReached' },
          { target: 'confirming' },
        ],
      },
    },
    /** The click without the permission: the refusal stays on screen; another click shows it again. */
    denied: {
      on: { 'restore.request': { target: 'denied', reenter: true } },
    },
    limitReached: {
      on: { 'limit.close': 'idle' },
    },
    confirming: {
      on: {
        'restore.confirm': 'restoring',
        'restore.cancel': 'idle',
      },
    },
    restoring: {
      invoke: {
        id: 'restoreProject',
        src: 'restoreProject',
        input: ({ context }) => ({ ref: context.project.ref }),
        onDone: {
          target: 'restored',
          actions: [
            { type: 'showToast', params: { tone: 'success', message: 'Restoring project' } },
            { type: 'projectUpdated', params: ({ event }) => ({ project: event.output }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({ tone: 'error', message: `Failed to restore project: ${messageOf(event.error)}` }),
          },
        },
      },
    },
    restored: { type: 'final' },
  },
})

/** The paused flow as the project status machine's child: the restored project goes up to it. */
export const pausedChildMachine = pausedMachine.provide({
  actions: {
    projectUpdated: sendParent((_, params: { project: Project }) => ({ type: 'project.updated', project: params.project })),
    // The toast region lives in the project status machine's system, so it outlives this page.
    showToast: sendTo(
      ({ system }) => system.get(TOAST_SYSTEM_ID),
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, ...params }),
    ),
  },
})

interface PausedView {
  phase: 'loading' | 'loadFailed' | 'ready'
  loadError: string | null
  /** The Restore button is enabled (a click without the permission still shows the refusal). */
  canRequestRestore: boolean
  lacksPermission: boolean
  denied: boolean
  plan: PlanId | null
  membersReachedLimit: MemberReachedFreeProjectLimit[]
  dialog: 'none' | 'limit' | 'confirm'
  /** Confirmed: the restore call runs (the dialog says so). */
  confirmed: boolean
  /** The dialog's buttons, disabled once confirmed. */
  canConfirm: boolean
  canCancel: boolean
}

export function selectPausedView(snapshot: SnapshotFrom<typeof pausedMachine>): PausedView {
  const rc = snapshot.context.restoreContext
  const confirmed = snapshot.matches('restoring') || snapshot.matches('restored')
  return {
    phase: snapshot.matches('loading') ? 'loading' : snapshot.matches('loadFailed') ? 'loadFailed' : 'ready',
    loadError: snapshot.matches('loadFailed') ? snapshot.context.error : null,
    canRequestRestore: snapshot.can({ type: 'restore.request' }),
    lacksPermission: rc !== null && !rc.permissions.includes(RESTORE_PERMISSION),
    denied: snapshot.matches('denied'),
    plan: rc?.plan ?? null,
    membersReachedLimit: rc?.membersReachedLimit ?? [],
    dialog: snapshot.matches('limitReached') ? 'limit' : snapshot.matches('confirming') || confirmed ? 'confirm' : 'none',
    confirmed,
    canConfirm: snapshot.can({ type: 'restore.confirm' }),
    canCancel: snapshot.can({ type: 'restore.cancel' }),
  }
}
