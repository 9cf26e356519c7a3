import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, type SnapshotFrom } from 'xstate'
import {
  MAX_MESSAGES,
  realtimeInspectorMachine,
  type ChannelCommand,
  type ChannelEvent,
  type JoinRequest,
} from '../machines/realtimeInspector.machine'
import { RealtimeInspector } from '../src/views/project/realtime/RealtimeInspectorPage'
import { REF } from '../tests/fixtures'
import { describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { usePathClock } from './fakes'

const JOIN_TIMEOUT = 10_000
const contextOf = (snapshot: SnapshotFrom<typeof realtimeInspectorMachine>) => snapshot.context
const ev = eventFor(realtimeInspectorMachine)
const CHANGE = { kind: 'postgres_changes' as const, event: 'INSERT', at: '2026-11-26T08:00:00.000Z', payload: { table: 'notes', new: { id: 1 } } }

/** A channel actor the test speaks for: what it was asked to join and sent, and a way to answer the machine. */
function fakeChannel() {
  const state = { sendBack: undefined as ((event: ChannelEvent) => void) | undefined, inputs: [] as JoinRequest[], sent: [] as ChannelCommand[], stopped: 0 }
  const logic = fromCallback<ChannelCommand, JoinRequest, ChannelEvent>(({ input, sendBack, receive }) => {
    state.sendBack = sendBack
    state.inputs.push(input)
    receive((command) => state.sent.push(command))
    return () => {
      state.stopped++
    }
  })
  return { state, logic }
}

const model = modelOf(realtimeInspectorMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('idle')) return [ev({ type: 'channel.join', channel: 'room-1', private: false, role: 'anon' })]
    if (snapshot.matches({ channel: 'joining' })) {
      return [
        ev({ type: 'channel.joined' }),
        ev({ type: 'channel.failed', error: 'Unauthorized: You do not have permissions to read from this Channel topic: room-1' }),
        ev({ type: 'xstate.after.joinTimeout.realtimeInspector.channel.joining' }),
        ev({ type: 'channel.leave' }),
      ]
    }
    if (snapshot.matches('channel')) {
      const { messages } = contextOf(snapshot)
      return [
        ev({ type: 'message.received', message: CHANGE }),
        ev(snapshot.matches({ channel: 'live' }) ? { type: 'messages.pause' } : { type: 'messages.resume' }),
        ev({ type: 'broadcast.send', event: 'message', payload: '{"text":"hello"}' }),
        ev({ type: 'channel.leave' }),
        ev({ type: 'channel.failed', error: 'connection lost' }),
        ev({ type: 'messages.filter', text: 'insert' }),
        ev({ type: 'messages.clear' }),
        ...(messages.length > 0 ? [ev({ type: 'message.select', id: messages[0].id })] : []),
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'channel.reset' })]
    return []
  },
  serializeState: (snapshot, event) => {
    const { messages, held, filter, selected } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, `${messages.length > 0}|${held.length > 0}|${filter}|${selected !== null}`)
  },
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('realtime inspector model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(realtimeInspectorMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it(`keeps at most ${MAX_MESSAGES} messages, newest first, and holds those that arrive while paused`, () => {
    const channel = fakeChannel()
    const actor = createActor(realtimeInspectorMachine.provide({ actors: { joinChannel: channel.logic } }), { input: { ref: REF } }).start()
    actor.send({ type: 'channel.join', channel: 'room-1', private: false, role: 'anon' })
    channel.state.sendBack!({ type: 'channel.joined' })
    for (let i = 0; i < MAX_MESSAGES + 5; i++) channel.state.sendBack!({ type: 'message.received', message: { ...CHANGE, event: `E${i}` } })
    const { messages } = actor.getSnapshot().context
    expect(messages).toHaveLength(MAX_MESSAGES)
    expect(messages[0].event).toBe(`E${MAX_MESSAGES + 4}`)
    actor.send({ type: 'messages.pause' })
    channel.state.sendBack!({ type: 'message.received', message: { ...CHANGE, event: 'LATE' } })
    expect(actor.getSnapshot().context.messages[0].event).toBe(`E${MAX_MESSAGES + 4}`)
    actor.send({ type: 'messages.resume' })
    expect(actor.getSnapshot().context.messages[0].event).toBe('LATE')
    actor.send({ type: 'channel.leave' })
    expect(channel.state.stopped).toBe(1)
    actor.stop()
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const channel = fakeChannel()
      const actor = runPath(createActor(realtimeInspectorMachine.provide({ actors: { joinChannel: channel.logic } }), { input: { ref: REF } }).start())
      render(<RealtimeInspector actor={actor} />)

      await path.test({
        states: {
          idle: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Realtime inspector' })).toBeInTheDocument()
            expect(within(screen.getByRole('form', { name: 'Join a channel' })).getByRole('button', { name: 'Join channel' })).toBeEnabled()
            expect(screen.queryByRole('list', { name: 'Messages' })).toBeNull()
          },
          'channel.joining': () => {
            expect(screen.getByRole('status')).toHaveTextContent('Joining room-1…')
            expect(channel.state.inputs.at(-1)).toEqual({ ref: REF, channel: 'room-1', private: false, role: 'anon' })
          },
          'channel.live': () => {
            expect(screen.getByRole('status')).toHaveTextContent('Listening on room-1 as anon')
            expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled()
            assertMessages(actor.getSnapshot())
          },
          'channel.paused': () => {
            expect(screen.getByRole('status')).toHaveTextContent('Paused on room-1')
            if (contextOf(actor.getSnapshot()).held.length > 0) expect(screen.getByRole('status')).toHaveTextContent(/new messages? waiting/)
            expect(screen.getByRole('button', { name: 'Resume' })).toBeEnabled()
            assertMessages(actor.getSnapshot())
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('The channel could not be joined')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
          },
        },
        events: {
          'channel.join': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Join channel' }))
          },
          'channel.joined': async () => act(() => channel.state.sendBack!({ type: 'channel.joined' })),
          'channel.failed': async (step) => act(() => channel.state.sendBack!(step.event as ChannelEvent)),
          'message.received': async (step) => act(() => channel.state.sendBack!(step.event as ChannelEvent)),
          'xstate.after.joinTimeout.realtimeInspector.channel.joining': async () => {
            await act(() => vi.advanceTimersByTimeAsync(JOIN_TIMEOUT))
          },
          'channel.leave': async () => {
            const before = channel.state.stopped
            fireEvent.click(screen.getByRole('button', { name: 'Leave channel' }))
            expect(channel.state.stopped).toBe(before + 1)
          },
          'channel.reset': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'messages.pause': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Pause' }))
          },
          'messages.resume': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Resume' }))
          },
          'messages.clear': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Clear' }))
          },
          'messages.filter': async () => {
            fireEvent.change(screen.getByRole('textbox', { name: 'Filter messages' }), { target: { value: 'insert' } })
          },
          'message.select': async () => {
            fireEvent.click(within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('button')[0])
            expect(screen.getByLabelText('Message JSON')).toHaveTextContent('"table": "notes"')
          },
          'broadcast.send': async () => {
            const before = channel.state.sent.length
            fireEvent.click(screen.getByRole('button', { name: 'Send broadcast' }))
            expect(channel.state.sent.slice(before)).toEqual([{ type: 'broadcast.send', event: 'message', payload: '{"text":"hello"}' }])
          },
        },
      })
    })
  }
})

function assertMessages(snapshot: SnapshotFrom<typeof realtimeInspectorMachine>) {
  const { messages, filter } = contextOf(snapshot)
  const shown = messages.filter((m) => !filter || `${m.kind} ${m.event} ${JSON.stringify(m.payload)}`.toLowerCase().includes(filter))
  if (shown.length === 0) {
    expect(screen.getByText('No messages yet.')).toBeInTheDocument()
    return
  }
  const items = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem')
  expect(items).toHaveLength(shown.length)
  expect(items[0]).toHaveTextContent(shown[0].event)
}
