import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { selectToast, toastMachine } from '../../machines/toast.machine'
import { usePathClock } from '../../model-tests/fakes'

usePathClock()

describe('toast machine', () => {
  it('shows a toast for 6 s', async () => {
    const actor = createActor(toastMachine).start()
    actor.send({ type: 'toast.show', tone: 'success', message: 'Restoring project' })
    expect(selectToast(actor.getSnapshot())).toEqual({ id: 1, tone: 'success', message: 'Restoring project' })
    await vi.advanceTimersByTimeAsync(5_999)
    expect(selectToast(actor.getSnapshot())).not.toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(selectToast(actor.getSnapshot())).toBeNull()
  })

  it('a new toast replaces the one on screen and gets its own 6 s; dismiss hides it at once', async () => {
    const actor = createActor(toastMachine).start()
    actor.send({ type: 'toast.show', tone: 'success', message: 'first' })
    await vi.advanceTimersByTimeAsync(4_000)
    actor.send({ type: 'toast.show', tone: 'error', message: 'second' })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(selectToast(actor.getSnapshot())).toEqual({ id: 2, tone: 'error', message: 'second' })
    actor.send({ type: 'toast.dismiss' })
    expect(selectToast(actor.getSnapshot())).toBeNull()
  })
})
