import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { copyButtonMachine } from '../machines/copyButton.machine'
import { CopyButton } from '../src/views/shell/CopyButton'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

const model = modelOf(copyButtonMachine, {
  events: (snapshot) => {
    if (snapshot.matches('idle')) return [{ type: 'clipboard.copy', text: 'the-key' }]
    if (snapshot.matches('copying')) {
      return [{ type: 'xstate.done.actor.writeClipboard' }, { type: 'xstate.error.actor.writeClipboard', error: new Error('denied') }]
    }
    if (snapshot.matches('copied')) {
      return [{ type: 'xstate.after.copiedDuration.copyButton.copied' }, { type: 'clipboard.copy', text: 'the-key' }]
    }
    return []
  },
  // The previous state is part of the key, so 'copy again while Copied' is a path of its own.
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify((previous)?.value ?? null)),
})
const paths = model.getShortestPaths()

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('copy button model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(copyButtonMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      // The clipboard is the provided actor: each write waits until the step settles it.
      const writes: Array<{ text: string; resolve: () => void; reject: (e: Error) => void }> = []
      const actor = createActor(
        copyButtonMachine.provide({
          actors: {
            writeClipboard: fromPromise<void, { text: string }>(
              ({ input }) => new Promise<void>((resolve, reject) => writes.push({ text: input.text, resolve, reject })),
            ),
          },
        }),
      ).start()
      render(<CopyButton copier={actor} enabled onCopy={() => actor.send({ type: 'clipboard.copy', text: 'the-key' })} />)

      await path.test({
        states: {
          idle: () => {
            expect(screen.getByRole('button', { name: 'Copy' })).toBeEnabled()
          },
          copying: () => {
            expect(screen.getByRole('button', { name: 'Copy' })).toBeDisabled()
            expect(writes.at(-1)?.text).toBe('the-key')
          },
          copied: () => {
            expect(screen.getByRole('button', { name: 'Copied' })).toBeEnabled()
          },
        },
        events: {
          'clipboard.copy': async () => {
            fireEvent.click(screen.getByRole('button'))
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.done.actor.writeClipboard': async () => {
            writes.at(-1)!.resolve()
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.error.actor.writeClipboard': async () => {
            writes.at(-1)!.reject(new Error('denied'))
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.after.copiedDuration.copyButton.copied': async () => {
            await act(() => vi.advanceTimersByTimeAsync(1_999))
            expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument()
            await act(() => vi.advanceTimersByTimeAsync(1))
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
