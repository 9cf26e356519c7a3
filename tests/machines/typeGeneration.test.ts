import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { selectToast, toastMachine } from '../../machines/toast.machine'
import { selectTypeGenerationView, typeGenerationMachine } from '../../machines/typeGeneration.machine'
import type { TypescriptResponse } from '../../src/contracts/database'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'
const TYPES = 'export type Json = string | number | boolean | null\nexport type Database = {}\n'

function start() {
  const generate = deferredActor<TypescriptResponse, { ref: string }>('generateTypes')
  const downloads: Array<{ fileName: string; content: string }> = []
  const toasts = createActor(toastMachine).start()
  const actor = createActor(
    typeGenerationMachine.provide({
      actors: {
        generateTypes: generate.logic,
      },
      actions: { downloadFile: (_, params) => downloads.push(params) },
    }),
    { input: { ref: REF, toasts } },
  ).start()
  return { actor, runs: generate.runs, downloads, toast: () => selectToast(toasts.getSnapshot()), view: () => selectTypeGenerationView(actor.getSnapshot()) }
}

usePathClock()

describe('type generation machine', () => {
  it("downloads the project's types as supabase.ts and says so", async () => {
    const { actor, runs, downloads, toast, view } = start()
    expect(view()).toEqual({ generating: false, canGenerate: true })
    actor.send({ type: 'types.generate' })
    expect(view()).toEqual({ generating: true, canGenerate: false })
    expect(runs[0].input).toEqual({ ref: REF })
    runs[0].resolve({ types: TYPES })
    await vi.advanceTimersByTimeAsync(0)
    expect(downloads).toEqual([{ fileName: 'supabase.ts', content: TYPES }])
    expect(toast()).toMatchObject({ tone: 'success', message: 'Successfully generated types! File is being downloaded' })
    expect(view()).toEqual({ generating: false, canGenerate: true })
  })

  it('a click while generating does nothing: one request, one download, one toast', async () => {
    const { actor, runs, downloads, toast } = start()
    actor.send({ type: 'types.generate' })
    actor.send({ type: 'types.generate' })
    actor.send({ type: 'types.generate' })
    expect(runs).toHaveLength(1)
    runs[0].resolve({ types: TYPES })
    await vi.advanceTimersByTimeAsync(0)
    expect(downloads).toHaveLength(1)
    expect(toast()?.id).toBe(1)
    // Once done, a click generates again.
    actor.send({ type: 'types.generate' })
    expect(runs).toHaveLength(2)
  })

  it("a failure says 'Failed to generate types: {message}' and downloads nothing", async () => {
    const { actor, runs, downloads, toast, view } = start()
    actor.send({ type: 'types.generate' })
    runs[0].reject(new Error('Project is paused'))
    await vi.advanceTimersByTimeAsync(0)
    expect(toast()).toMatchObject({ tone: 'error', message: 'Failed to generate types: Project is paused' })
    expect(downloads).toEqual([])
    expect(view()).toEqual({ generating: false, canGenerate: true })
  })

  it('a request unanswered for 30 s is abandoned and reported as timed out', async () => {
    const { actor, runs, downloads, toast, view } = start()
    actor.send({ type: 'types.generate' })
    await vi.advanceTimersByTimeAsync(29_999)
    expect(view().generating).toBe(true)
    expect(toast()).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(runs[0].signal.aborted).toBe(true)
    expect(toast()).toMatchObject({ tone: 'error', message: 'Failed to generate types: The request timed out' })
    // A late answer of the abandoned request downloads nothing.
    runs[0].resolve({ types: TYPES })
    await vi.advanceTimersByTimeAsync(0)
    expect(downloads).toEqual([])
    expect(view()).toEqual({ generating: false, canGenerate: true })
  })
})
