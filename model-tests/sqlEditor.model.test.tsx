import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { sqlEditorMachine } from '../machines/sqlEditor.machine'
import type { QueryResult } from '../src/contracts/database'
import { SqlEditor } from '../src/views/project/database/SqlEditorPage'
import { REF } from '../tests/fixtures'
import { SELECT_RESULT } from '../tests/fixtures.database'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(sqlEditorMachine)

const SAVED = 'select 1 as n,\n  doc from t'
const TYPED = 'select 2;\nselec 3;'
/** What the live actor throws for a 400 QueryError: the Postgres fields on the Error. */
const SYNTAX_ERROR = Object.assign(new Error('syntax error at or near "selec"'), { code: '42601', position: 11, hint: 'Check the spelling' })
const QUERY_TIMEOUT = 20_000

const queryOf = (snapshot: AnyMachineSnapshot) => snapshot.context.query
const failureOf = (snapshot: AnyMachineSnapshot) => snapshot.context.failure

const model = modelOf(sqlEditorMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadSavedQuery', output: SAVED },
        { type: 'xstate.error.actor.loadSavedQuery', error: new Error('SecurityError: storage refused') },
      ]
    }
    const change = queryOf(snapshot) === TYPED ? [] : [ev({ type: 'query.change', query: TYPED })]
    const run = queryOf(snapshot).trim() === '' ? [] : [ev({ type: 'query.run' })]
    if (snapshot.matches({ editing: 'running' })) {
      return [
        { type: 'xstate.done.actor.runQuery', output: SELECT_RESULT },
        { type: 'xstate.error.actor.runQuery', error: SYNTAX_ERROR },
        { type: 'xstate.after.queryTimeout.sqlEditor.editing.running' },
      ]
    }
    return [...change, ...run]
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      // Which failure is on screen is part of the state: a time-out and a Postgres error read differently.
      `${JSON.stringify(previous?.value ?? null)}|${queryOf(snapshot)}|${failureOf(snapshot)?.code ?? ''}`,
    ),
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

describe('SQL editor model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(sqlEditorMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<string | null, { ref: string }>('loadSavedQuery')
      const run = deferredActor<QueryResult, { ref: string; query: string }>('runQuery')
      const persisted: Array<{ ref: string; query: string }> = []
      const actor = createActor(
        sqlEditorMachine.provide({
          actors: { loadSavedQuery: load.logic, runQuery: run.logic },
          actions: { persistQuery: (_, params) => persisted.push(params) },
        }),
        { input: { ref: REF } },
      ).start()
      runPath(actor)
      render(<SqlEditor actor={actor} canWrite />)
      const editor = () => screen.getByRole('textbox', { name: 'SQL query' })
      const results = () => within(screen.getByRole('region', { name: 'Results' }))
      const runButton = () => screen.getByRole('button', { name: /^(Run|Running…)$/ })
      /** Whatever happens, the editor shows the text the person typed (or that was remembered). */
      const textKept = (snapshot: AnyMachineSnapshot) => expect(editor()).toHaveValue(queryOf(snapshot))

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading query…')
            expect(load.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          'editing.idle': (snapshot) => {
            textKept(snapshot)
            expect(results().getByText('Run a query to see its results here.')).toBeInTheDocument()
            if (queryOf(snapshot).trim() === '') expect(runButton()).toBeDisabled()
            else expect(runButton()).toBeEnabled()
          },
          'editing.running': (snapshot) => {
            textKept(snapshot)
            expect(runButton()).toHaveTextContent('Running…')
            expect(runButton()).toBeDisabled()
            expect(results().getByRole('status')).toHaveTextContent('Running query…')
            expect(run.pending.at(-1)?.input).toEqual({ ref: REF, query: queryOf(snapshot) })
          },
          'editing.succeeded': (snapshot) => {
            textKept(snapshot)
            expect(runButton()).toBeEnabled()
            const grid = results().getByRole('table', { name: 'Query results' })
            expect(within(grid).getAllByRole('row')).toHaveLength(SELECT_RESULT.rows.length + 1)
            expect(results().getByRole('status')).toHaveTextContent('2 rows')
            expect(results().queryByRole('alert')).toBeNull()
          },
          'editing.failed': (snapshot) => {
            textKept(snapshot)
            expect(runButton()).toBeEnabled()
            const alert = results().getByRole('alert')
            if (failureOf(snapshot)?.code === 'client_timeout') {
              expect(alert).toHaveTextContent('did not answer within 20 s')
              expect(alert).not.toHaveTextContent('Line')
            } else {
              expect(alert).toHaveTextContent('ERROR: 42601: syntax error at or near "selec"')
              // Position 11 of the text that ran.
              const ran = snapshot.context.ran
              const line = ran.slice(0, 10).split('\n').length
              expect(alert).toHaveTextContent(`Line ${line}, column ${ran.slice(0, 10).split('\n').at(-1)!.length + 1}`)
              expect(alert).toHaveTextContent('Hint: Check the spelling')
            }
            expect(results().queryByRole('table')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.loadSavedQuery': async (step) => load.resolve(outputOf<string>(step)),
          'xstate.error.actor.loadSavedQuery': async (step) => load.reject(errorOf(step)),
          'query.change': async (step) => {
            const { query } = step.event
            fireEvent.change(editor(), { target: { value: query } })
            expect(persisted.at(-1)).toEqual({ ref: REF, query })
          },
          'query.run': async () => {
            // The keyboard after a failure, the button otherwise: both run the query.
            if (screen.queryByRole('alert')) fireEvent.keyDown(editor(), { key: 'Enter', ctrlKey: true })
            else fireEvent.click(runButton())
          },
          'xstate.done.actor.runQuery': async (step) => run.resolve(outputOf<QueryResult>(step)),
          'xstate.error.actor.runQuery': async (step) => run.reject(errorOf(step)),
          'xstate.after.queryTimeout.sqlEditor.editing.running': async () => {
            await act(() => vi.advanceTimersByTimeAsync(QUERY_TIMEOUT))
          },
        },
      })
    })
  }
})
