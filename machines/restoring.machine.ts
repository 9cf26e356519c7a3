/**
 * Restoring: the page of a project being restored. Polls the project status on a fixed beat whose slot is the
 * request's time-out (./polling.ts): at once, then every 4 s exactly, counted from the previous request's start,
 * through both phases (before and after RESTORING is seen); each request gets 2 s and is then abandoned (its
 * signal aborted), so polls never overlap nor drift. Failed, malformed and timed-out answers keep polling.
 * Invariants: success is shown only after the server reports ACTIVE_HEALTHY *after* RESTORING was seen (by this
 * screen, counting the status the page opened with) — a stale ACTIVE_HEALTHY from before the restore began is not
 * taken as done; RESTORATION_FAILED stops polling and shows the recorded error. 'Return to project' asks the
 * project status machine to refetch the project, which never leaves the screen stuck loading.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { refreshThroughParent } from './projectChild'
import type { ProjectStatus } from '../src/contracts/common'
import type { RestoreStatusResponse } from '../src/contracts/pause'
import type { ProjectStatusResponse } from '../src/contracts/projects'
import { elapsedMachine } from './elapsed.machine'
import { onBeat, slot } from './polling'

interface RestoringInput {
  ref: string
  /** The project's status when the screen opened. */
  status: ProjectStatus
  /** When the project entered its status (server time): the elapsed notice counts from it. */
  since: string
}

/** A restore can last minutes to hours; past an hour the page offers support. */
const RESTORING_OVERDUE_AFTER_MS = 60 * 60_000

interface Context {
  ref: string
  status: ProjectStatus
  since: string
  /** The failure the server recorded (null: none recorded or unreadable). */
  error: string | null
}

type RestoringEvent = { type: 'project.return' }

type StatusParams = { status: ProjectStatus }
const statusOf = ({ event }: { event: { output: ProjectStatusResponse } }): StatusParams => ({ status: event.output.status })

export const restoringMachine = setup({
  types: {
    input: {} as RestoringInput,
    context: {} as Context,
    events: {} as RestoringEvent,
    children: {} as { elapsed: 'elapsed'; fetchProjectStatus: 'fetchProjectStatus'; fetchRestoreStatus: 'fetchRestoreStatus' },
  },
  actors: {
    fetchProjectStatus: fromPromise<ProjectStatusResponse, { ref: string }>(async () => {
      throw new Error('fetchProjectStatus not provided')
    }),
    fetchRestoreStatus: fromPromise<RestoreStatusResponse, { ref: string }>(async () => {
      throw new Error('fetchRestoreStatus not provided')
    }),
    elapsed: elapsedMachine,
  },
  actions: {
    refreshProject: () => {},
    refreshProjectList: () => {},
    storeStatus: assign((_, params: StatusParams) => ({ status: params.status })),
  },
  delays: {
    pollInterval: 4_000,
    requestTimeout: 2_000,
  },
  guards: {
    isRestoring: (_, params: StatusParams) => params.status === 'RESTORING',
    isActiveHealthy: (_, params: StatusParams) => params.status === 'ACTIVE_HEALTHY',
    isRestorationFailed: (_, params: StatusParams) => params.status === 'RESTORATION_FAILED',
    openedFailed: ({ context }) => context.status === 'RESTORATION_FAILED',
    openedRestoring: ({ context }) => context.status === 'RESTORING',
  },
}).createMachine({
  id: 'restoring',
  context: ({ input }) => ({ ref: input.ref, status: input.status, since: input.since, error: null }),
  initial: 'opening',
  states: {
    opening: {
      always: [
        { guard: 'openedFailed', target: 'readingFailure' },
        { guard: 'openedRestoring', target: 'watching.polling.confirmed' },
        { target: 'watching.polling.unconfirmed' },
      ],
    },
    watching: {
      invoke: {
        id: 'elapsed',
        src: 'elapsed',
        input: ({ context }) => ({ since: context.since, overdueAfterMs: RESTORING_OVERDUE_AFTER_MS }),
      },
      initial: 'polling',
      states: {
        // The fixed beat (./polling.ts) over both phases: it re-enters the phase the poll is in (`phase`, a history
        // state), so seeing RESTORING moves to `confirmed` without restarting the beat.
        // Always entered through `opening`, which picks the phase from the status the page opened with.
        polling: {
          ...onBeat('pollInterval', 'unconfirmed', '.phase'),
          states: {
            phase: { type: 'history' },
            /** RESTORING not seen yet: an ACTIVE_HEALTHY now would be the state before the restore, not its end. */
            unconfirmed: {
              initial: 'requesting',
              states: {
                requesting: {
                  invoke: {
                    id: 'fetchProjectStatus',
                    src: 'fetchProjectStatus',
                    input: ({ context }) => ({ ref: context.ref }),
                    onDone: [
                      {
                        guard: { type: 'isRestorationFailed', params: statusOf },
                        target: '#restoring.readingFailure',
                        actions: { type: 'storeStatus', params: statusOf },
                      },
                      {
                        guard: { type: 'isRestoring', params: statusOf },
                        target: '#restoring.watching.polling.confirmed.settled',
                        actions: { type: 'storeStatus', params: statusOf },
                      },
                      { target: 'settled', actions: { type: 'storeStatus', params: statusOf } },
                    ],
                    onError: 'settled',
                  },
                  after: slot('requestTimeout'),
                },
                settled: {},
              },
            },
            /** RESTORING seen: ACTIVE_HEALTHY now means the restore is done. */
            confirmed: {
              initial: 'requesting',
              states: {
                requesting: {
                  invoke: {
                    id: 'fetchProjectStatus',
                    src: 'fetchProjectStatus',
                    input: ({ context }) => ({ ref: context.ref }),
                    onDone: [
                      {
                        guard: { type: 'isActiveHealthy', params: statusOf },
                        target: '#restoring.complete',
                        actions: { type: 'storeStatus', params: statusOf },
                      },
                      {
                        guard: { type: 'isRestorationFailed', params: statusOf },
                        target: '#restoring.readingFailure',
                        actions: { type: 'storeStatus', params: statusOf },
                      },
                      { target: 'settled', actions: { type: 'storeStatus', params: statusOf } },
                    ],
                    onError: 'settled',
                  },
                  after: slot('requestTimeout'),
                },
                settled: {},
              },
            },
          },
        },
      },
    },
    /** The restore failed: read what the server recorded, once (an unreadable answer shows a general message). */
    readingFailure: {
      invoke: {
        id: 'fetchRestoreStatus',
        src: 'fetchRestoreStatus',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'failed', actions: assign({ error: ({ event }) => event.output.error }) },
        onError: 'failed',
      },
      after: { requestTimeout: 'failed' },
    },
    failed: {},
    complete: {
      on: { 'project.return': 'returning' },
    },
    /** The project status machine refetches the project and leaves this page for the restored project's. */
    returning: {
      type: 'final',
      entry: ['refreshProject', 'refreshProjectList'],
    },
  },
})

export const restoringChildMachine = restoringMachine.provide({ actions: refreshThroughParent() })

const RESTORING_TITLES = {
  inProgress: 'Restoration in progress',
  failed: 'Restoration failed',
  complete: 'Restoration complete!',
} as const

interface RestoringView {
  phase: 'inProgress' | 'failed' | 'complete'
  title: (typeof RESTORING_TITLES)[keyof typeof RESTORING_TITLES]
  error: string | null
  canReturn: boolean
}

export function selectRestoringView(snapshot: SnapshotFrom<typeof restoringMachine>): RestoringView {
  const phase = snapshot.matches('failed')
    ? 'failed'
    : snapshot.matches('complete') || snapshot.status === 'done'
      ? 'complete'
      : 'inProgress'
  return {
    phase,
    title: RESTORING_TITLES[phase],
    error: phase === 'failed' ? snapshot.context.error : null,
    canReturn: snapshot.can({ type: 'project.return' }),
  }
}
