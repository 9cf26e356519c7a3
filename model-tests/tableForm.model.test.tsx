/**
 * The Table Editor form's model, walked on the rendered form: every state and transition, each state checked through
 * what the screen shows. The walk changes an existing table (its definition read first, with what a foreign key may
 * reference): a column dropped, a foreign key picked into another schema; what the platform is asked to run is the
 * reviewed definition, with `run: true` only after the confirmation.
 */
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor } from 'xstate'
import { referenceChoices, selectTableFormView, tableFormMachine, NEW_TABLE, type DefinitionRequest, type FormData } from '../machines/tableForm.machine'
import type { TableDefinition, TableDefinitionAnswer, TableReferences } from '../src/contracts/tableEditor'
import { TableForm } from '../src/views/project/tableEditor/TableFormPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(tableFormMachine)
const TABLE = 'kids'
const CURRENT: TableDefinition = {
  name: TABLE,
  comment: '',
  rls_enabled: true,
  columns: [
    { original_name: 'id', name: 'id', type: 'integer', primary_key: true, nullable: false },
    { original_name: 'parent', name: 'parent', type: 'text', default: "'x'::text", nullable: false },
    { original_name: 'note', name: 'note', type: 'text' },
  ],
  foreign_keys: [],
}
const REFERENCES: TableReferences['tables'] = [
  { schema: 'public', name: 'kids', columns: [{ name: 'id', type: 'integer', unique: true }] },
  { schema: "ref 'schema", name: 'pärents', columns: [{ name: 'code', type: 'text', unique: true }, { name: 'label', type: 'text', unique: false }] },
]
/** What the person makes of it in the form: `note` dropped, `parent` a key into the other schema. */
const CHANGED: TableDefinition = {
  ...CURRENT,
  columns: CURRENT.columns.slice(0, 2),
  foreign_keys: [{ columns: ['parent'], referenced_schema: "ref 'schema", referenced_table: 'pärents', referenced_columns: ['code'] }],
}
const SQL = 'alter table "public"."kids" drop column "note";'
const INPUT = { ref: REF, table: TABLE, definition: { ...NEW_TABLE, name: TABLE, columns: [] } }

const model = modelOf(tableFormMachine, {
  input: INPUT,
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadForm', output: { definition: CURRENT, references: REFERENCES } satisfies FormData },
        { type: 'xstate.error.actor.loadForm', error: new Error('Unable to reach the server') },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'form.retry' }]
    if (snapshot.matches('editing')) {
      return [
        ...(snapshot.context.definition.foreign_keys?.length === 0 ? [ev({ type: 'definition.changed', definition: CHANGED })] : []),
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
        { type: 'xstate.error.actor.runTable', error: new Error('column "parent" is referenced') },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}|${snapshot.context.definition.columns.length}|${snapshot.context.error ?? ''}`),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('table form model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(tableFormMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('offers the picker the schemas, the tables of the chosen one, and only the columns a key may point at', () => {
    expect(referenceChoices(REFERENCES, "ref 'schema", 'pärents')).toEqual({ schemas: ['public', "ref 'schema"], tables: ['pärents'], columns: ['code'] })
    expect(referenceChoices(REFERENCES, 'public', '')).toEqual({ schemas: ['public', "ref 'schema"], tables: ['kids'], columns: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<FormData, { ref: string; table: string | null }>('loadForm')
      const preview = deferredActor<TableDefinitionAnswer, DefinitionRequest>('previewTable')
      const run = deferredActor<TableDefinitionAnswer, DefinitionRequest>('runTable')
      const actor = runPath(
        createActor(tableFormMachine.provide({ actors: { loadForm: load.logic, previewTable: preview.logic, runTable: run.logic } }), { input: INPUT }).start(),
      )
      const location = memoryLocation({ path: `/project/${REF}/editor/table/${TABLE}/edit`, record: true })
      render(
        <Router hook={location.hook} searchHook={location.searchHook}>
          <TableForm actor={actor} />
        </Router>,
      )
      const form = () => screen.getByRole('form', { name: `Table ${TABLE}` })
      const review = () => screen.queryByRole('region', { name: 'SQL to run' })
      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: `Edit table ${TABLE}` })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Loading the form…')
            expect(load.runs.at(-1)?.input).toEqual({ ref: REF, table: TABLE })
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Unable to reach the server')
            expect(screen.queryByRole('form')).toBeNull()
          },
          editing: (snapshot) => {
            const columns = within(form()).getByRole('table', { name: 'Columns' })
            // The table as the catalog has it, then as the person changed it.
            expect(within(columns).getAllByRole('row')).toHaveLength(snapshot.context.definition.columns.length + 1)
            expect(within(form()).getByRole('button', { name: 'Review SQL' })).toBeEnabled()
            expect(review()).toBeNull()
            if (snapshot.context.error) expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error)
          },
          previewing: (snapshot) => {
            expect(within(form()).getByRole('button', { name: 'Preparing the SQL…' })).toBeDisabled()
            expect(preview.runs.at(-1)?.input).toEqual({ ref: REF, table: TABLE, definition: snapshot.context.definition, run: false })
          },
          reviewing: (snapshot) => {
            expect(review()).toHaveTextContent(SQL)
            expect(within(review()!).getByRole('button', { name: 'Run' })).toBeEnabled()
            if (snapshot.context.error) expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error)
            expect(run.runs.length).toBeLessThanOrEqual(1)
          },
          running: (snapshot) => {
            expect(within(review()!).getByRole('button', { name: 'Running…' })).toBeDisabled()
            expect(run.runs.at(-1)?.input).toEqual({ ref: REF, table: TABLE, definition: snapshot.context.definition, run: true })
          },
          // Done: the table's grid opens.
          done: () => expect(location.history?.at(-1)).toBe(`/project/${REF}/editor/table/${TABLE}`),
        },
        events: {
          'xstate.done.actor.loadForm': async (step) => load.resolve(outputOf<FormData>(step)),
          'xstate.error.actor.loadForm': async (step) => load.reject(errorOf(step)),
          'form.retry': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
          },
          // The person's changes, made in the form: the last column removed, a foreign key picked.
          'definition.changed': async () => {
            fireEvent.click(within(form()).getByRole('button', { name: 'Remove column 3' }))
            fireEvent.click(within(form()).getByRole('button', { name: 'Add foreign key' }))
            fireEvent.change(within(form()).getAllByRole('combobox', { name: 'Column' })[0], { target: { value: 'parent' } })
            const column = within(form()).getByRole('combobox', { name: 'Foreign key 1 referenced column' })
            expect(column).toBeDisabled()
            fireEvent.change(within(form()).getByRole('combobox', { name: 'Foreign key 1 referenced schema' }), { target: { value: "ref 'schema" } })
            fireEvent.change(within(form()).getByRole('combobox', { name: 'Foreign key 1 referenced table' }), { target: { value: 'pärents' } })
            // Only a primary-key or unique column can be a key's target.
            expect(within(column).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a column', 'code'])
            fireEvent.change(column, { target: { value: 'code' } })
            expect(selectTableFormView(actor.getSnapshot()).definition).toEqual(CHANGED)
          },
          'preview.request': async () => {
            fireEvent.click(within(form()).getByRole('button', { name: 'Review SQL' }))
          },
          'review.back': async () => {
            fireEvent.click(within(review()!).getByRole('button', { name: 'Back to the form' }))
          },
          'review.confirm': async () => {
            fireEvent.click(within(review()!).getByRole('button', { name: 'Run' }))
          },
          'xstate.done.actor.previewTable': async (step) => preview.resolve(outputOf<TableDefinitionAnswer>(step)),
          'xstate.error.actor.previewTable': async (step) => preview.reject(errorOf(step)),
          'xstate.done.actor.runTable': async (step) => run.resolve(outputOf<TableDefinitionAnswer>(step)),
          'xstate.error.actor.runTable': async (step) => run.reject(errorOf(step)),
        },
      })
    })
  }
})
