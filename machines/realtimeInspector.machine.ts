/**
 * The Realtime inspector: join one channel of the project (its name, private or not, as the anon or the service_role
 * key), see its broadcast, presence and database messages live as they arrive, newest first, and send a broadcast.
 * Invariants: at most MAX_MESSAGES are kept (the oldest dropped); while paused, arriving messages wait and count,
 * and show on resume; a join unanswered after joinTimeout fails and says so; leaving ends the channel (the invoked
 * `joinChannel` actor stops with the state that invoked it). The filter and the selected message are data, not modes.
 */
import { assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate'

export const MAX_MESSAGES = 100

export type InspectorRole = 'anon' | 'service_role'

export interface JoinRequest {
  ref: string
  channel: string
  private: boolean
  role: InspectorRole
}

export interface InspectorMessage {
  id: number
  kind: 'broadcast' | 'presence' | 'postgres_changes' | 'system'
  /** The event: a broadcast's name, presence's sync/join/leave, a change's INSERT/UPDATE/DELETE. */
  event: string
  at: string
  payload: unknown
}

/** What the channel actor tells the machine. */
export type ChannelEvent =
  | { type: 'channel.joined' }
  | { type: 'channel.failed'; error: string }
  | { type: 'message.received'; message: Omit<InspectorMessage, 'id'> }

/** What the machine tells the channel actor. */
export type ChannelCommand = { type: 'broadcast.send'; event: string; payload: unknown }

type InspectorEvent =
  | { type: 'channel.join'; channel: string; private: boolean; role: InspectorRole }
  | { type: 'channel.leave' }
  | { type: 'channel.reset' }
  | { type: 'messages.pause' }
  | { type: 'messages.resume' }
  | { type: 'messages.clear' }
  | { type: 'messages.filter'; text: string }
  | { type: 'message.select'; id: number | null }
  | { type: 'broadcast.send'; event: string; payload: unknown }
  | ChannelEvent

interface Context {
  ref: string
  join: JoinRequest | null
  messages: InspectorMessage[]
  held: InspectorMessage[]
  nextId: number
  filter: string
  selected: number | null
  error: string | null
}

const keep = (messages: InspectorMessage[]) => messages.slice(0, MAX_MESSAGES)

export const realtimeInspectorMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as InspectorEvent,
    children: {} as { joinChannel: 'joinChannel' },
  },
  actors: {
    joinChannel: fromCallback<ChannelCommand, JoinRequest, ChannelEvent>(() => {
      throw new Error('joinChannel not provided')
    }),
  },
  actions: {
    storeJoin: assign(({ context }, params: { channel: string; private: boolean; role: InspectorRole }) => ({
      join: { ref: context.ref, channel: params.channel, private: params.private, role: params.role },
      messages: [],
      held: [],
      selected: null,
      error: null,
    })),
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    showMessage: assign(({ context }, params: { message: Omit<InspectorMessage, 'id'> }) => ({
      messages: keep([{ ...params.message, id: context.nextId }, ...context.messages]),
      nextId: context.nextId + 1,
    })),
    holdMessage: assign(({ context }, params: { message: Omit<InspectorMessage, 'id'> }) => ({
      held: keep([{ ...params.message, id: context.nextId }, ...context.held]),
      nextId: context.nextId + 1,
    })),
    releaseHeld: assign(({ context }) => ({ messages: keep([...context.held, ...context.messages]), held: [] })),
  },
  guards: {
    hasChannelName: (_, params: { channel: string }) => params.channel.trim() !== '',
  },
  delays: {
    joinTimeout: 10_000,
  },
}).createMachine({
  id: 'realtimeInspector',
  context: ({ input }) => ({ ref: input.ref, join: null, messages: [], held: [], nextId: 1, filter: '', selected: null, error: null }),
  initial: 'idle',
  on: {
    'messages.filter': { actions: assign(({ event }) => ({ filter: event.text })) },
    'message.select': { actions: assign(({ event }) => ({ selected: event.id })) },
    'messages.clear': { actions: assign({ messages: [], held: [], selected: null }) },
  },
  states: {
    idle: {
      on: {
        'channel.join': {
          guard: { type: 'hasChannelName', params: ({ event }) => ({ channel: event.channel }) },
          target: 'channel',
          actions: { type: 'storeJoin', params: ({ event }) => ({ channel: event.channel.trim(), private: event.private, role: event.role }) },
        },
      },
    },
    channel: {
      invoke: { id: 'joinChannel', src: 'joinChannel', input: ({ context }) => context.join! },
      on: {
        'channel.failed': { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        'channel.leave': 'idle',
      },
      initial: 'joining',
      states: {
        joining: {
          on: { 'channel.joined': 'live' },
          after: { joinTimeout: { target: '#realtimeInspector.failed', actions: { type: 'storeError', params: { error: 'The channel did not answer the join in time' } } } },
        },
        live: {
          on: {
            'message.received': { actions: { type: 'showMessage', params: ({ event }) => ({ message: event.message }) } },
            'messages.pause': 'paused',
            'broadcast.send': { actions: sendTo('joinChannel', ({ event }) => ({ type: 'broadcast.send' as const, event: event.event, payload: event.payload })) },
          },
        },
        paused: {
          on: {
            'message.received': { actions: { type: 'holdMessage', params: ({ event }) => ({ message: event.message }) } },
            'messages.resume': { target: 'live', actions: 'releaseHeld' },
            'broadcast.send': { actions: sendTo('joinChannel', ({ event }) => ({ type: 'broadcast.send' as const, event: event.event, payload: event.payload })) },
          },
        },
      },
    },
    failed: {
      on: { 'channel.reset': 'idle' },
    },
  },
})

export type RealtimeInspectorView =
  | { phase: 'idle' }
  | { phase: 'joining'; join: JoinRequest }
  | { phase: 'live' | 'paused'; join: JoinRequest; messages: InspectorMessage[]; held: number; filter: string; selected: InspectorMessage | null }
  | { phase: 'failed'; join: JoinRequest | null; error: string }

const shown = (messages: InspectorMessage[], filter: string) => {
  const f = filter.trim().toLowerCase()
  if (!f) return messages
  return messages.filter((m) => `${m.kind} ${m.event} ${JSON.stringify(m.payload)}`.toLowerCase().includes(f))
}

export function selectRealtimeInspectorView(snapshot: SnapshotFrom<typeof realtimeInspectorMachine>): RealtimeInspectorView {
  const { join, messages, held, filter, selected, error } = snapshot.context
  if (snapshot.matches('idle')) return { phase: 'idle' }
  if (snapshot.matches('failed')) return { phase: 'failed', join, error: error ?? 'The channel failed' }
  if (snapshot.matches({ channel: 'joining' })) return { phase: 'joining', join: join! }
  return {
    phase: snapshot.matches({ channel: 'paused' }) ? 'paused' : 'live',
    join: join!,
    messages: shown(messages, filter),
    held: held.length,
    filter,
    selected: messages.find((m) => m.id === selected) ?? null,
  }
}
