/**
 * Building: the screen of a project that is coming up ('Setting up project') or in an unknown state
 * ('Initiating project set up'). Polls the project status on a fixed beat whose slot is the request's time-out
 * (./polling.ts): a request every 4 s exactly, counted from the previous request's start (the first 4 s in); each
 * gets 2 s and is then abandoned (its signal aborted), so polls never overlap nor drift. Failed, malformed and
 * timed-out answers keep polling. On ACTIVE_HEALTHY it stops for good and asks for the project and the project list to be refreshed.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { ProjectStatus } from '../src/contracts/common'
import type { ProjectStatusResponse } from '../src/contracts/projects'
import { elapsedMachine } from './elapsed.machine'
import { onBeat, slot } from './polling'
import { refreshThroughParent } from './projectChild'

interface BuildingInput {
  ref: string
  status: ProjectStatus
  /** When the project entered its status (server time): the elapsed notice counts from it. */
  since: string
}

/** Support asks people to wait 2 minutes before opening a ticket about a project being set up. */
const BUILDING_OVERDUE_AFTER_MS = 120_000

export const buildingMachine = setup({
  types: {
    input: {} as BuildingInput,
    context: {} as { ref: string; status: ProjectStatus; since: string },
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
    pollInterval: 4_000,
    requestTimeout: 2_000,
  },
  guards: {
    isActiveHealthy: (_, params: { status: ProjectStatus }) => params.status === 'ACTIVE_HEALTHY',
  },
}).createMachine({
  id: 'building',
  context: ({ input }) => ({ ref: input.ref, status: input.status, since: input.since }),
  // Lives as long as the screen, across polls.
  invoke: {
    id: 'elapsed',
    src: 'elapsed',
    input: ({ context }) => ({ since: context.since, overdueAfterMs: BUILDING_OVERDUE_AFTER_MS }),
  },
  initial: 'polling',
  states: {
    // The fixed beat (./polling.ts): a request every 4 s from the previous one's start, the first 4 s in.
    polling: {
      ...onBeat('pollInterval', 'settled'),
      states: {
        requesting: {
          invoke: {
            id: 'fetchProjectStatus',
            src: 'fetchProjectStatus',
            input: ({ context }) => ({ ref: context.ref }),
            onDone: [
              {
                guard: { type: 'isActiveHealthy', params: ({ event }) => ({ status: event.output.status }) },
                target: '#building.healthy',
                actions: assign({ status: ({ event }) => event.output.status }),
              },
              {
                target: 'settled',
                actions: assign({ status: ({ event }) => event.output.status }),
              },
            ],
            onError: 'settled',
          },
          after: slot('requestTimeout'),
        },
        /** Answered, failed or abandoned: the next request goes out on the beat. */
        settled: {},
      },
    },
    healthy: {
      type: 'final',
      entry: ['refreshProject', 'refreshProjectList'],
    },
  },
})

type BuildingSnapshot = SnapshotFrom<typeof buildingMachine>

export interface BuildingView {
  title: 'Setting up project' | 'Initiating project set up'
  complete: boolean
}

export function buildingTitle(status: ProjectStatus): BuildingView['title'] {
  return status === 'UNKNOWN' ? 'Initiating project set up' : 'Setting up project'
}

export function selectBuildingView(snapshot: BuildingSnapshot): BuildingView {
  return {
    title: buildingTitle(snapshot.context.status),
    complete: snapshot.status === 'done',
  }
}

/** The building flow as the project status machine's child: its refresh requests come up to that machine. */
export const buildingChildMachine = buildingMachine.provide({ actions: refreshThroughParent() })
