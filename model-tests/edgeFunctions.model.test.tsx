import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { edgeFunctionsMachine } from '../machines/edgeFunctions.machine'
import type { FunctionResponse } from '../src/contracts/functions'
import { EdgeFunctions } from '../src/views/project/functions/EdgeFunctionsPage'
import { REF } from '../tests/fixtures'
import { FUNCTIONS } from '../tests/fixtures.storage'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const REQUEST_TIMEOUT = 10_000
const contextOf = (snapshot: SnapshotFrom<typeof edgeFunctionsMachine>) => snapshot.context

const model = modelOf(edgeFunctionsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.listFunctions', output: FUNCTIONS },
        { type: 'xstate.done.actor.listFunctions', output: [] },
        { type: 'xstate.error.actor.listFunctions', error: new Error('Project is paused') },
        { type: 'xstate.after.requestTimeout.edgeFunctions.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'functions.retry' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event, String(contextOf(snapshot).functions.length)),
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('edge functions model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(edgeFunctionsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<FunctionResponse[], { ref: string }>('listFunctions')
      const actor = runPath(createActor(edgeFunctionsMachine.provide({ actors: { listFunctions: list.logic } }), { input: { ref: REF } }).start())
      render(<EdgeFunctions actor={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Edge Functions' })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Loading functions…')
            expect(screen.queryByRole('table')).toBeNull()
            expect(list.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load functions')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            const { functions } = contextOf(snapshot)
            expect(screen.queryByRole('alert')).toBeNull()
            if (functions.length === 0) {
              expect(screen.getByText(/No edge functions yet/)).toBeInTheDocument()
              expect(screen.queryByRole('table')).toBeNull()
              return
            }
            const rows = within(screen.getByRole('table', { name: 'Functions' })).getAllByRole('row')
            expect(rows).toHaveLength(functions.length + 1)
            functions.forEach((fn, index) => expect(within(rows[index + 1]).getByRole('rowheader')).toHaveTextContent(fn.name))
          },
        },
        events: {
          'xstate.done.actor.listFunctions': async (step) => list.resolve(outputOf<FunctionResponse[]>(step)),
          'xstate.error.actor.listFunctions': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.edgeFunctions.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'functions.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
