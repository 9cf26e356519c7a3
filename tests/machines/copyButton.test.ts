import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { copyButtonMachine, selectCopyButtonView } from '../../machines/copyButton.machine'

function start(write: (text: string) => Promise<void>) {
  const writes: string[] = []
  const actor = createActor(
    copyButtonMachine.provide({
      actors: {
        writeClipboard: fromPromise<void, { text: string }>(({ input }) => {
          writes.push(input.text)
          return write(input.text)
        }),
      },
    }),
  ).start()
  return { actor, writes }
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('copy button machine', () => {
  it("writes the value, shows 'Copied' for exactly 2 s, then 'Copy'", async () => {
    const { actor, writes } = start(() => Promise.resolve())
    expect(selectCopyButtonView(actor.getSnapshot())).toEqual({ label: 'Copy', copying: false })
    actor.send({ type: 'clipboard.copy', text: 'the-key' })
    expect(selectCopyButtonView(actor.getSnapshot()).copying).toBe(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual(['the-key'])
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copied')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copied')
    await vi.advanceTimersByTimeAsync(1)
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copy')
  })

  it('forgets the value once written', async () => {
    const { actor } = start(() => Promise.resolve())
    actor.send({ type: 'clipboard.copy', text: 'secret' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.text).toBe('')
  })

  it('a refused write returns to Copy without a Copied label', async () => {
    const { actor } = start(() => Promise.reject(new Error('denied')))
    actor.send({ type: 'clipboard.copy', text: 'x' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('copying again while Copied shows writes again and restarts the 2 s', async () => {
    const { actor, writes } = start(() => Promise.resolve())
    actor.send({ type: 'clipboard.copy', text: 'a' })
    await vi.advanceTimersByTimeAsync(1_500)
    actor.send({ type: 'clipboard.copy', text: 'b' })
    await vi.advanceTimersByTimeAsync(1_500)
    expect(writes).toEqual(['a', 'b'])
    expect(actor.getSnapshot().value).toBe('copied')
    await vi.advanceTimersByTimeAsync(500)
    expect(actor.getSnapshot().value).toBe('idle')
  })
})
