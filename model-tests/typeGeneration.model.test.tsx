import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { toastMachine } from '../machines/toast.machine'
import { typeGenerationMachine } from '../machines/typeGeneration.machine'
import type { TypescriptResponse } from '../src/contracts/database'
import { ToastRegion } from '../src/views/shell/ToastRegion'
import { GenerateTypes } from '../src/views/project/GenerateTypesButton'
import { REF } from '../tests/fixtures'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const GENERATE_TIMEOUT = 30_000
const TYPES = 'export type Database = { public: { Tables: {} } }\n'

// The graph is walked without the toast region (the machine only sends to it); paths run with a real one.
const graphToasts = createActor(toastMachine)
const model = modelOf(typeGenerationMachine, {
  input: { ref: REF, toasts: graphToasts },
  events: (snapshot) => {
    if (snapshot.matches('idle')) return [{ type: 'types.generate' }]
    return [
      { type: 'xstate.done.actor.generateTypes', output: { types: TYPES } },
      { type: 'xstate.error.actor.generateTypes', error: new Error('Project is paused') },
      { type: 'xstate.after.generateTimeout.typeGeneration.generating' },
      // A second click while generating: not a transition, the button is disabled (asserted in the state).
    ]
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('type generation model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(typeGenerationMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const generate = deferredActor<TypescriptResponse, { ref: string }>('generateTypes')
      const downloads: Array<{ fileName: string; content: string }> = []
      const toasts = createActor(toastMachine).start()
      const actor = runPath(
        createActor(typeGenerationMachine.provide({ actors: { generateTypes: generate.logic }, actions: { downloadFile: (_, params) => downloads.push(params) } }), {
          input: { ref: REF, toasts },
        }).start(),
      )
      render(
        <>
          <GenerateTypes actor={actor} />
          <ToastRegion actor={toasts} />
        </>,
      )
      const region = () => screen.getByRole('status', { name: 'Notifications' })
      /** What the last edge should have left: the toast's text and the downloads so far. */
      let expected: { toast: string | null; downloads: number } = { toast: null, downloads: 0 }

      await path.test({
        states: {
          idle: () => {
            expect(screen.getByRole('button', { name: 'Generate types' })).toBeEnabled()
            if (expected.toast === null) expect(region()).toBeEmptyDOMElement()
            else expect(within(region()).getByText(expected.toast)).toBeInTheDocument()
            expect(downloads).toHaveLength(expected.downloads)
            for (const download of downloads) expect(download).toEqual({ fileName: 'supabase.ts', content: TYPES })
          },
          generating: () => {
            const button = screen.getByRole('button', { name: 'Generating types…' })
            expect(button).toBeDisabled()
            expect(generate.pending).toHaveLength(1)
            expect(generate.pending[0].input).toEqual({ ref: REF })
            // A second click does nothing: still one request.
            fireEvent.click(button)
            expect(generate.pending).toHaveLength(1)
          },
        },
        events: {
          'types.generate': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Generate types' }))
          },
          'xstate.done.actor.generateTypes': async () => {
            expected = { toast: 'Successfully generated types! File is being downloaded', downloads: expected.downloads + 1 }
            await generate.resolve({ types: TYPES })
          },
          'xstate.error.actor.generateTypes': async () => {
            expected = { ...expected, toast: 'Failed to generate types: Project is paused' }
            await generate.reject(new Error('Project is paused'))
          },
          'xstate.after.generateTimeout.typeGeneration.generating': async () => {
            expected = { ...expected, toast: 'Failed to generate types: The request timed out' }
            await act(() => vi.advanceTimersByTimeAsync(GENERATE_TIMEOUT))
          },
        },
      })
      toasts.stop()
    })
  }
})
