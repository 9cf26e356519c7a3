/**
 * Connecting: the screen of a project whose API server is OFFLINE. When the project has a REST URL it tests
 * connectivity on a fixed beat whose slot is the request's time-out (./polling.ts): a test every 4 s exactly, counted
 * from the previous test's start (the first 4 s in), each given 2 s (then abandoned, its signal aborted, so tests
 * never overlap nor drift): the health endpoint for
 * kps-v3.8.6 and later, the REST schema endpoint for older gateways (kps-v0.0.1 assumed when unknown). Failed,
 * malformed and timed-out answers keep testing. On success it stops for good, tells the parent the project is
 * ONLINE and asks for a refresh. An elapsed child (id 'elapsed') counts from the project's status change.
 */
import { fromPromise, sendParent, setup, type SnapshotFrom } from 'xstate'
import type { Project } from '../src/contracts/projects'
import { elapsedMachine } from './elapsed.machine'
import { onBeat, slot } from './polling'
import { href } from '../src/href'

interface ConnectingInput {
  project: Project
}

export type ConnectivityEndpoint = 'live' | 'rest'

/** Spec: "wait 2 minutes before opening a support ticket". */
const CONNECTING_OVERDUE_AFTER_MS = 120_000
const DEFAULT_KPS_VERSION = 'kps-v0.0.1'
const HEALTH_ENDPOINT_FROM = [3, 8, 6]

function versionParts(kpsVersion: string): number[] {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(kpsVersion)
  return match ? match.slice(1, 4).map(Number) : [0, 0, 1]
}

/** Health endpoint from kps-v3.8.6, the REST schema before. */
export function connectivityEndpoint(kpsVersion: string | null): ConnectivityEndpoint {
  const parts = versionParts(kpsVersion ?? DEFAULT_KPS_VERSION)
  for (let i = 0; i < 3; i++) {
    if (parts[i] !== HEALTH_ENDPOINT_FROM[i]) return parts[i] > HEALTH_ENDPOINT_FROM[i] ? 'live' : 'rest'
  }
  return 'live'
}

export const connectingMachine = setup({
  types: {
    input: {} as ConnectingInput,
    context: {} as { project: Project },
    children: {} as { elapsed: 'elapsed'; testConnectivity: 'testConnectivity' },
  },
  actors: {
    testConnectivity: fromPromise<unknown, { ref: string; endpoint: ConnectivityEndpoint }>(async () => {
      throw new Error('testConnectivity not provided')
    }),
    elapsed: elapsedMachine,
  },
  actions: {
    /** Provided by the parent: the project with postgrestStatus ONLINE. */
    markOnline: (_, _params: { project: Project }) => {},
    refreshProject: () => {},
  },
  delays: {
    pollInterval: 4_000,
    requestTimeout: 2_000,
  },
  guards: {
    hasRestUrl: ({ context }) => context.project.restUrl !== '',
  },
}).createMachine({
  id: 'connecting',
  context: ({ input }) => ({ project: input.project }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'hasRestUrl', target: 'testing' }, { target: 'noRestUrl' }],
    },
    /** Nothing to test against: the screen stays until the project changes. */
    noRestUrl: {
      invoke: {
        id: 'elapsed',
        src: 'elapsed',
        input: ({ context }) => ({ since: context.project.status_changed_at, overdueAfterMs: CONNECTING_OVERDUE_AFTER_MS }),
      },
    },
    testing: {
      invoke: {
        id: 'elapsed',
        src: 'elapsed',
        input: ({ context }) => ({ since: context.project.status_changed_at, overdueAfterMs: CONNECTING_OVERDUE_AFTER_MS }),
      },
      initial: 'polling',
      states: {
        // The fixed beat (./polling.ts): a test every 4 s from the previous one's start, the first 4 s in.
        polling: {
          ...onBeat('pollInterval', 'settled'),
          states: {
            requesting: {
              invoke: {
                id: 'testConnectivity',
                src: 'testConnectivity',
                input: ({ context }) => ({ ref: context.project.ref, endpoint: connectivityEndpoint(context.project.kpsVersion) }),
                onDone: '#connecting.connected',
                onError: 'settled',
              },
              after: slot('requestTimeout'),
            },
            /** Failed or abandoned: the next test goes out on the beat. */
            settled: {},
          },
        },
      },
    },
    connected: {
      type: 'final',
      entry: [
        { type: 'markOnline', params: ({ context }) => ({ project: { ...context.project, postgrestStatus: 'ONLINE' as const } }) },
        'refreshProject',
      ],
    },
  },
})

interface ConnectingView {
  title: 'Connecting to project'
  testing: boolean
  endpoint: ConnectivityEndpoint
  connected: boolean
  supportHref: string
}

export function selectConnectingView(snapshot: SnapshotFrom<typeof connectingMachine>): ConnectingView {
  const { project } = snapshot.context
  return {
    title: 'Connecting to project',
    testing: snapshot.matches('testing'),
    endpoint: connectivityEndpoint(project.kpsVersion),
    connected: snapshot.status === 'done',
    supportHref: href.support({
      category: 'Database_unresponsive',
      ref: project.ref,
      subject: `Unable to connect to project ${project.name}`,
      message: `The API server of my project ${project.ref} has not come back online.`,
    }),
  }
}

/** The connecting flow as the project status machine's child: success updates the parent's project and refreshes it. */
export const connectingChildMachine = connectingMachine.provide({
  actions: {
    markOnline: sendParent((_, params: { project: Project }) => ({ type: 'project.updated', project: params.project })),
    refreshProject: sendParent({ type: 'project.refresh' }),
  },
})
