/**
 * Pausing: the page of a project going down or pausing ('Pausing project'). After 4 s it polls the project status on
 * a fixed beat whose slot is the request's time-out (./polling.ts): every 2 s exactly, counted from the previous
 * request's start; each poll owns its 2 s slot, which is also its time-out (spec: 2 s) — a request that has not
 * answered when the slot ends is abandoned (its signal aborted) as the next one starts, so polls never overlap
 * and never drift. Failed, malformed and
 * timed-out answers keep polling. On INACTIVE it stops for good and asks for the project and the project list
 * to be refreshed. While it waits, an elapsed child counts from the server's status change.
 */
import { fromPromise, setup, type SnapshotFrom } from 'xstate'
import { refreshThroughParent } from './projectChild'
import type { ProjectStatus } from '../src/contracts/common'
import type { ProjectStatusResponse } from '../src/contracts/projects'
import { elapsedMachine } from './elapsed.machine'
import { onBeat } from './polling'

interface PausingInput {
  ref: string
  /** When the project entered its status (server time): the elapsed notice counts from it. */
  since: string
}

/** A pause normally takes a few minutes; past this the page offers support. */
export const PAUSING_OVERDUE_AFTER_MS = 10 * 60_000

export const pausingMachine = setup({
  types: {
    input: {} as PausingInput,
    context: {} as { ref: string; since: string },
    children: {} as { elapsed: 'elapsed'; fetchProjectStatus: 'fetchProjectStatus' },
  },
  actors: {
    fetchProjectStatus: fromPromise<ProjectStatusResponse, { ref: string }>(async () => {
      throw new Error('fetchProjectStatus not provided')
    }),
    elapsed: elapsedMachine,
  },
  actions: {
    refreshProject: () => {},
    refreshProjectList: () => {},
  },
  delays: {
    initialDelay: 4_000,
    /** Also each request's time-out: the next poll abandons an unanswered one. */
    pollInterval: 2_000,
  },
  guards: {
    isInactive: (_, params: { status: ProjectStatus }) => params.status === 'INACTIVE',
  },
}).createMachine({
  id: 'pausing',
  context: ({ input }) => ({ ref: input.ref, since: input.since }),
  initial: 'waiting',
  states: {
    waiting: {
      invoke: {
        id: 'elapsed',
        src: 'elapsed',
        input: ({ context }) => ({ since: context.since, overdueAfterMs: PAUSING_OVERDUE_AFTER_MS }),
      },
      initial: 'delaying',
      states: {
        delaying: {
          after: { initialDelay: 'polling' },
        },
        // The fixed beat (./polling.ts); the 2 s beat is also each request's slot (its time-out).
        polling: {
          ...onBeat('pollInterval'),
          states: {
            requesting: {
              invoke: {
                id: 'fetchProjectStatus',
                src: 'fetchProjectStatus',
                input: ({ context }) => ({ ref: context.ref }),
                onDone: [
                  {
                    guard: { type: 'isInactive', params: ({ event }) => ({ status: event.output.status }) },
                    target: '#pausing.paused',
                  },
                  { target: 'settled' },
                ],
                onError: 'settled',
              },
            },
            /** Answered or failed: the next poll starts when this one's 2 s are up. */
            settled: {},
          },
        },
      },
    },
    paused: {
      type: 'final',
      entry: ['refreshProject', 'refreshProjectList'],
    },
  },
})

/** The pausing flow as the project status machine's child: its refresh requests go up to it. */
export const pausingChildMachine = pausingMachine.provide({ actions: refreshThroughParent() })

interface PausingView {
  polling: boolean
  complete: boolean
}

export function selectPausingView(snapshot: SnapshotFrom<typeof pausingMachine>): PausingView {
  return {
    polling: snapshot.matches({ waiting: 'polling' }),
    complete: snapshot.status === 'done',
  }
}
