import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { toastMachine, type Toast } from '../machines/toast.machine'
import { ToastRegion } from '../src/views/shell/ToastRegion'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf } from './support'

const SHOW: EventObject[] = [
  { type: 'toast.show', tone: 'success', message: 'Restoring project' } as EventObject,
  { type: 'toast.show', tone: 'error', message: 'Failed to restore project: Project is RESTORING' } as EventObject,
]

const model = modelOf(toastMachine, {
  events: (snapshot: AnyMachineSnapshot): EventObject[] =>
    snapshot.matches('visible') ? [...SHOW, { type: 'toast.dismiss' }, { type: 'xstate.after.displayTime.toast.visible' }] : SHOW,
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
            const toast = (state.context as { toast: Toast }).toast
            expect(region()).toHaveTextContent(toast.message)
            expect(screen.getByRole('button', { name: 'Dismiss notification' })).toBeEnabled()
          },
        },
        events: {
          'toast.show': async (step) => {
            await act(async () => actor.send(step.event as never))
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
