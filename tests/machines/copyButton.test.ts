import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { copyButtonMachine, selectCopyButtonView } from '../../machines/copyButton.machine'
import { scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

/** The clipboard answers every write the same: written (no error), or refused with `refusal`. */
function start(refusal?: Error) {
  const clipboard = scriptedEndpoint<void, { text: string }>([], refusal)
  const actor = createActor(copyButtonMachine.provide({ actors: { writeClipboard: clipboard.actor } })).start()
  return { actor, writes: clipboard.inputs }
}

usePathClock()

describe('copy button machine', () => {
  it("writes the value, shows 'Copied' for exactly 2 s, then 'Copy'", async () => {
    const { actor, writes } = start()
    expect(selectCopyButtonView(actor.getSnapshot())).toEqual({ label: 'Copy', copying: false })
    actor.send({ type: 'clipboard.copy', text: 'the-key' })
    expect(selectCopyButtonView(actor.getSnapshot()).copying).toBe(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual([{ text: 'the-key' }])
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copied')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copied')
    await vi.advanceTimersByTimeAsync(1)
    expect(selectCopyButtonView(actor.getSnapshot()).label).toBe('Copy')
  })

  it('forgets the value once written', async () => {
    const { actor } = start()
    actor.send({ type: 'clipboard.copy', text: 'secret' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.text).toBe('')
  })

  it('a refused write returns to Copy without a Copied label', async () => {
    const { actor } = start(new Error('denied'))
    actor.send({ type: 'clipboard.copy', text: 'x' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('copying again while Copied shows writes again and restarts the 2 s', async () => {
    const { actor, writes } = start()
    actor.send({ type: 'clipboard.copy', text: 'a' })
    await vi.advanceTimersByTimeAsync(1_500)
    actor.send({ type: 'clipboard.copy', text: 'b' })
    await vi.advanceTimersByTimeAsync(1_500)
    expect(writes).toEqual([{ text: 'a' }, { text: 'b' }])
    expect(actor.getSnapshot().value).toBe('copied')
    await vi.advanceTimersByTimeAsync(500)
    expect(actor.getSnapshot().value).toBe('idle')
  })
})
