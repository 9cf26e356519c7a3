import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { toastMachine } from '../machines/toast.machine'
import { ToastRegion } from '../src/views/shell/ToastRegion'
import { type ModelEvent, describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

/** The model's events, typed by the machine. */
const ev = eventFor(toastMachine)

const SHOW: Array<ModelEvent<typeof toastMachine>> = [
  { type: 'toast.show', tone: 'success', message: 'Restoring project' },
  { type: 'toast.show', tone: 'error', message: 'Failed to restore project: Project is RESTORING' },
]

const model = modelOf(toastMachine, {
  events: (snapshot) =>
    snapshot.matches('visible') ? [...SHOW, ev({ type: 'toast.dismiss' }), ev({ type: 'xstate.after.displayTime.toast.visible' })] : SHOW,
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('toast model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(toastMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const actor = createActor(toastMachine).start()
      render(<ToastRegion actor={actor} />)
      const region = () => screen.getByRole('status', { name: 'Notifications' })
      await path.test({
        states: {
          hidden: () => {
            expect(region()).toBeEmptyDOMElement()
          },
          visible: (state) => {
            const toast = state.context.toast!
            expect(region()).toHaveTextContent(toast.message)
            expect(screen.getByRole('button', { name: 'Dismiss notification' })).toBeEnabled()
          },
        },
        events: {
          'toast.show': async (step) => {
            await act(async () => actor.send(step.event))
          },
          'toast.dismiss': async () => {
            await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' })))
          },
          'xstate.after.displayTime.toast.visible': async () => {
            await act(() => vi.advanceTimersByTimeAsync(6_000))
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
