import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { edgeFunctionsMachine, selectEdgeFunctionsView } from '../../machines/edgeFunctions.machine'
import type { FunctionResponse } from '../../src/contracts/functions'
import { FUNCTIONS } from '../fixtures.storage'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'

function start() {
  const list = deferredActor<FunctionResponse[], { ref: string }>('listFunctions')
  const actor = createActor(edgeFunctionsMachine.provide({ actors: { listFunctions: list.logic } }), { input: { ref: REF } }).start()
  return { actor, loads: list.runs, view: () => selectEdgeFunctionsView(actor.getSnapshot()) }
}

usePathClock()

describe('edge functions machine', () => {
  it("loads the project's functions", async () => {
    const { loads, view } = start()
    expect(view()).toEqual({ phase: 'loading' })
    expect(loads[0].input).toEqual({ ref: REF })
    loads[0].resolve(FUNCTIONS)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', functions: FUNCTIONS })
  })

  it('an empty list is loaded, not failed', async () => {
    const { loads, view } = start()
    loads[0].resolve([])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', functions: [] })
  })

  it('a failed load shows its message and Retry loads again', async () => {
    const { actor, loads, view } = start()
    loads[0].reject(new Error('Project is paused'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'failed', error: 'Project is paused' })
    // No retry of its own: the person decides.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(loads).toHaveLength(1)
    actor.send({ type: 'functions.retry' })
    expect(view()).toEqual({ phase: 'loading' })
    loads[1].resolve(FUNCTIONS)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', functions: FUNCTIONS })
  })

  it('a load unanswered for 10 s is abandoned and reported', async () => {
    const { loads, view } = start()
    await vi.advanceTimersByTimeAsync(9_999)
    expect(view()).toEqual({ phase: 'loading' })
    await vi.advanceTimersByTimeAsync(1)
    expect(loads[0].signal.aborted).toBe(true)
    expect(view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })
})
