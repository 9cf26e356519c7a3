/**
 * The Table Editor form's model: every state and transition, each state checked through the selector its view reads;
 * what the platform is asked to run is the reviewed definition, with `run: true` only after the confirmation.
 */
import { act } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { NEW_TABLE, selectTableFormView, tableFormMachine, type DefinitionRequest } from '../machines/tableForm.machine'
import type { TableDefinition, TableDefinitionAnswer } from '../src/contracts/tableEditor'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(tableFormMachine)
const NAMED: TableDefinition = { ...NEW_TABLE, name: 'my "odd" table' }
const SQL = 'create table "public"."my ""odd"" table" (…);'

const model = modelOf(tableFormMachine, {
  input: { ref: REF, table: null, definition: NEW_TABLE },
  events: (snapshot) => {
    if (snapshot.matches('editing')) {
      return [
        ...(snapshot.context.definition.name === '' ? [ev({ type: 'definition.changed', definition: NAMED })] : []),
        { type: 'preview.request' },
      ]
    }
    if (snapshot.matches('previewing')) {
      return [
        { type: 'xstate.done.actor.previewTable', output: { sql: SQL, ran: false } },
        { type: 'xstate.error.actor.previewTable', error: new Error("Column 'a': 'tex t' is not a type name") },
      ]
    }
    if (snapshot.matches('reviewing')) return [{ type: 'review.back' }, { type: 'review.confirm' }]
    if (snapshot.matches('running')) {
      return [
        { type: 'xstate.done.actor.runTable', output: { sql: SQL, ran: true } },
        { type: 'xstate.error.actor.runTable', error: new Error('relation "my ""odd"" table" already exists') },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}|${snapshot.context.definition.name}|${snapshot.context.error ?? ''}`),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('table form model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(tableFormMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const preview = deferredActor<TableDefinitionAnswer, DefinitionRequest>('previewTable')
      const run = deferredActor<TableDefinitionAnswer, DefinitionRequest>('runTable')
      const actor = runPath(
        createActor(tableFormMachine.provide({ actors: { previewTable: preview.logic, runTable: run.logic } }), {
          input: { ref: REF, table: null, definition: NEW_TABLE },
        }).start(),
      )
      const view = () => selectTableFormView(actor.getSnapshot())
      await path.test({
        states: {
          editing: (snapshot) => {
            expect(view().step).toBe('editing')
            // A nameless table cannot be previewed.
            expect(view().canPreview).toBe(snapshot.context.definition.name !== '')
            expect(view().sql).toBeNull()
          },
          previewing: (snapshot) => {
            expect(view().step).toBe('previewing')
            expect(preview.runs.at(-1)?.input).toEqual({ ref: REF, table: null, definition: snapshot.context.definition, run: false })
          },
          reviewing: () => {
            expect(view()).toMatchObject({ step: 'reviewing', sql: SQL })
            expect(run.runs.length).toBeLessThanOrEqual(1)
          },
          running: (snapshot) => {
            expect(view().step).toBe('running')
            expect(run.runs.at(-1)?.input).toEqual({ ref: REF, table: null, definition: snapshot.context.definition, run: true })
          },
          done: () => expect(view().step).toBe('done'),
        },
        events: {
          'xstate.done.actor.previewTable': async (step) => preview.resolve(outputOf<TableDefinitionAnswer>(step)),
          'xstate.error.actor.previewTable': async (step) => {
            await preview.reject(errorOf(step))
            expect(view().error).toBe(errorOf(step).message)
          },
          'xstate.done.actor.runTable': async (step) => run.resolve(outputOf<TableDefinitionAnswer>(step)),
          'xstate.error.actor.runTable': async (step) => {
            await run.reject(errorOf(step))
            expect(view()).toMatchObject({ step: 'reviewing', error: errorOf(step).message })
          },
          ...Object.fromEntries(
            ['definition.changed', 'preview.request', 'review.back', 'review.confirm'].map((type) => [
              type,
              async (step: { event: { type: string } }) => act(() => sendEdge(actor, step.event)),
            ]),
          ),
        },
      })
    })
  }
})
