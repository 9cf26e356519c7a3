import { act, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { CHANNELS_TIMED_OUT, realtimeChannelsMachine } from '../machines/realtimeChannels.machine'
import type { RealtimeChannels as Channels } from '../src/contracts/realtime'
import { RealtimeChannels } from '../src/views/project/realtime/RealtimeChannelsPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const POLL_INTERVAL = 5_000
const REQUEST_TIMEOUT = 4_000

const LIST: Channels = {
  connections: 2,
  channels: [
    {
      topic: 'room-1',
      private: false,
      clients: [
        { id: 'sock-a', role: 'anon', presence_key: 'alice', joined_at: '2026-11-26T08:00:00.000Z' },
        { id: 'sock-b', role: 'authenticated', presence_key: null, joined_at: '2026-11-26T08:00:05.000Z' },
      ],
    },
  ],
}
const EMPTY: Channels = { connections: 0, channels: [] }

const contextOf = (snapshot: SnapshotFrom<typeof realtimeChannelsMachine>) => snapshot.context

const model = modelOf(realtimeChannelsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const { channels } = contextOf(snapshot)
    if (snapshot.matches({ polling: 'requesting' })) {
      return [
        { type: 'xstate.done.actor.fetchRealtimeChannels', output: channels === null ? LIST : EMPTY },
        { type: 'xstate.error.actor.fetchRealtimeChannels', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.realtimeChannels.polling.requesting' },
      ]
    }
    return [{ type: 'xstate.after.pollInterval.realtimeChannels.polling' }]
  },
  serializeState: (snapshot, event) => {
    const { channels, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ channels: channels?.connections ?? null, error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('realtime channels model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(realtimeChannelsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<Channels, { ref: string }>('fetchRealtimeChannels')
      const actor = runPath(createActor(realtimeChannelsMachine.provide({ actors: { fetchRealtimeChannels: fetch.logic } }), { input: { ref: REF } }).start())
      render(<RealtimeChannels actor={actor} />)
      let started = 0
      const check = (snapshot: SnapshotFrom<typeof realtimeChannelsMachine>) => {
        const { channels, error } = contextOf(snapshot)
        if (channels === null && error === null) {
          expect(screen.getByRole('status')).toHaveTextContent('Loading channels…')
        } else if (channels === null) {
          const alert = screen.getByRole('alert')
          expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load the channels')
          expect(alert).toHaveTextContent(error!)
        } else {
          const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
          expect(screen.getByText(`${plural(channels.connections, 'open connection')}, ${plural(channels.channels.length, 'channel')}`)).toBeInTheDocument()
          if (channels.channels.length === 0) expect(screen.getByText(/No channels are open/)).toBeInTheDocument()
          else {
            const table = screen.getByRole('table', { name: 'Clients of room-1' })
            expect(within(table).getAllByRole('row').slice(1).map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
              ['sock-a', 'anon', 'alice', '2026-11-26 08:00:00 UTC'],
              ['sock-b', 'authenticated', '—', '2026-11-26 08:00:05 UTC'],
            ])
          }
          // The last list stays while a later poll fails; what went wrong shows beside it.
          if (error) expect(screen.getByRole('alert')).toHaveTextContent(`The list could not be refreshed: ${error}`)
          else expect(screen.queryByRole('alert')).toBeNull()
        }
      }

      await path.test({
        states: {
          'polling.requesting': (snapshot) => {
            started++
            // One request at a time, each one for this project.
            expect(fetch.pending.map((run) => run.input)).toEqual([{ ref: REF }])
            check(snapshot)
          },
          'polling.settled': (snapshot) => {
            expect(fetch.pending).toHaveLength(0)
            check(snapshot)
          },
        },
        events: {
          'xstate.done.actor.fetchRealtimeChannels': async (step) => fetch.resolve(outputOf<Channels>(step)),
          'xstate.error.actor.fetchRealtimeChannels': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.realtimeChannels.polling.requesting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            expect(contextOf(actor.getSnapshot()).error).toBe(CHANNELS_TIMED_OUT)
          },
          'xstate.after.pollInterval.realtimeChannels.polling': async () => {
            // The beat counts from the start of the previous request, whatever its answer took.
            await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL - (vi.getMockedSystemTime()?.valueOf() ?? 0) % POLL_INTERVAL))
          },
        },
      })
      expect(started).toBeGreaterThan(0)
    })
  }
})
