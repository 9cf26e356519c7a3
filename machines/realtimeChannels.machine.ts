/**
 * Realtime › Channels: the project's channels open now and the clients joined to each (their role, presence key and
 * when they joined), with the number of open connections; polled every pollInterval, since channels come and go
 * with the project's clients. The polling rule is ./polling.ts's (a beat, a slot per request, never two at once).
 * Invariants: the last list read stays shown while a later poll fails or times out (with what went wrong); a list
 * is replaced only by a newer answer.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { RealtimeChannels } from '../src/contracts/realtime'
import { onBeat } from './polling'

interface Context {
  ref: string
  channels: RealtimeChannels | null
  error: string | null
}

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)
export const CHANNELS_TIMED_OUT = 'The request timed out'

export const realtimeChannelsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    children: {} as { fetchRealtimeChannels: 'fetchRealtimeChannels' },
  },
  actors: {
    fetchRealtimeChannels: fromPromise<RealtimeChannels, { ref: string }>(async () => {
      throw new Error('fetchRealtimeChannels not provided')
    }),
  },
  delays: {
    pollInterval: 5_000,
    requestTimeout: 4_000,
  },
}).createMachine({
  id: 'realtimeChannels',
  context: ({ input }) => ({ ref: input.ref, channels: null, error: null }),
  initial: 'polling',
  states: {
    polling: {
      ...onBeat('pollInterval'),
      states: {
        requesting: {
          invoke: {
            id: 'fetchRealtimeChannels',
            src: 'fetchRealtimeChannels',
            input: ({ context }) => ({ ref: context.ref }),
            onDone: { target: 'settled', actions: assign(({ event }) => ({ channels: event.output, error: null })) },
            onError: { target: 'settled', actions: assign(({ event }) => ({ error: messageOf(event.error, 'Failed to load the channels') })) },
          },
          // The rule's slot, written out because the time-out is also recorded.
          after: {
            requestTimeout: { target: 'settled', actions: assign({ error: CHANNELS_TIMED_OUT }) },
          },
        },
        settled: {},
      },
    },
  },
})

export type RealtimeChannelsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'ready'; channels: RealtimeChannels; error: string | null; refreshing: boolean }

export function selectRealtimeChannelsView(snapshot: SnapshotFrom<typeof realtimeChannelsMachine>): RealtimeChannelsView {
  const { channels, error } = snapshot.context
  if (channels === null) return error === null ? { phase: 'loading' } : { phase: 'failed', error }
  return { phase: 'ready', channels, error, refreshing: snapshot.matches({ polling: 'requesting' }) }
}
