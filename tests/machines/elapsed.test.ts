import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { elapsedMachine, formatElapsed, selectElapsed } from '../../machines/elapsed.machine'
import { usePathClock } from '../../model-tests/fakes'

usePathClock({ now: Date.parse('2026-11-21T12:00:00Z') })

describe('elapsed machine', () => {
  it('counts from the server timestamp, so a reload keeps the count', () => {
    const actor = createActor(elapsedMachine, { input: { since: '2026-11-21T11:58:55Z', overdueAfterMs: 600_000 } }).start()
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '1 min 05 s', overdue: false })
  })

  it('ticks every second and turns overdue at the threshold, then stays overdue', async () => {
    const actor = createActor(elapsedMachine, { input: { since: '2026-11-21T12:00:00Z', overdueAfterMs: 3_000 } }).start()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '2 s', overdue: false })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '3 s', overdue: true })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '8 s', overdue: true })
  })

  it('starts overdue when the transition began long ago', () => {
    const actor = createActor(elapsedMachine, { input: { since: '2026-11-21T09:00:00Z', overdueAfterMs: 120_000 } }).start()
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '3 h 00 min', overdue: true })
  })

  it('never shows a negative time when the browser clock is behind the server', () => {
    const actor = createActor(elapsedMachine, { input: { since: '2026-11-21T12:00:30Z', overdueAfterMs: 120_000 } }).start()
    expect(selectElapsed(actor.getSnapshot()).elapsedText).toBe('0 s')
  })

  it('counts from now when the timestamp is unreadable', () => {
    const actor = createActor(elapsedMachine, { input: { since: 'not a date', overdueAfterMs: 120_000 } }).start()
    expect(selectElapsed(actor.getSnapshot())).toEqual({ elapsedText: '0 s', overdue: false })
  })

  it('leaves no timer behind when stopped', () => {
    const actor = createActor(elapsedMachine, { input: { since: '2026-11-21T12:00:00Z', overdueAfterMs: 3_000 } }).start()
    actor.stop()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('formats seconds, minutes and hours', () => {
    expect(formatElapsed(0)).toBe('0 s')
    expect(formatElapsed(59_999)).toBe('59 s')
    expect(formatElapsed(60_000)).toBe('1 min 00 s')
    expect(formatElapsed(3_599_000)).toBe('59 min 59 s')
    expect(formatElapsed(3_600_000 + 7 * 60_000)).toBe('1 h 07 min')
  })
})
