/**
 * The Table Editor grid's model: every state and transition walked with the I/O settled step by step, each state
 * checked through the selector the grid's view reads (what it shows: rows, busy write, conflict, confirmation).
 */
import { act } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { gridQueryOf, gridSearchOf, selectTableGridView, tableGridMachine, updateOf, type CellEdit, type GridQuery, type Row, type RowsRequest, type UpdateRequest } from '../machines/tableGrid.machine'
import type { DeletedRows, RowsPage, WrittenRow } from '../src/contracts/tableEditor'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(tableGridMachine)
const QUERY: GridQuery = { sort: [], filters: [], pageSize: 100, page: 0 }
const FILTERED: GridQuery = { ...QUERY, filters: [{ column: 'name', operator: 'ilike', value: 'a%' }] }
const PAGE: RowsPage = {
  columns: [
    { name: 'id', type: 'bigint', default_value: null, is_nullable: false, is_identity: true, enums: [] },
    { name: 'name', type: 'text', default_value: null, is_nullable: true, is_identity: false, enums: [] },
  ],
  rows: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Bo' }],
  offset: 0,
  limit: 100,
  total: 2,
  primary_keys: ['id'],
}
const NO_KEY_PAGE: RowsPage = { ...PAGE, primary_keys: [] }
const EDIT: CellEdit = { key: { id: 1 }, column: 'name', before: 'Ada', after: 'Ada L.' }
const SAVED: WrittenRow = { row: { id: 1, name: 'Ada L.' }, sql: 'update …' }
const REVERTED: WrittenRow = { row: { id: 1, name: 'Ada' }, sql: 'update …' }
const conflictError = () => Object.assign(new Error('The row was changed after it was read'), { status: 409, body: { current: { id: 1, name: 'Other tab' } } })
const serverError = () => Object.assign(new Error('Internal server error'), { status: 500 })

const model = modelOf(tableGridMachine, {
  input: { ref: REF, table: 'people', query: QUERY },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.getRows', output: PAGE },
        ...(snapshot.context.page === null ? [{ type: 'xstate.done.actor.getRows', output: NO_KEY_PAGE } as const] : []),
        { type: 'xstate.error.actor.getRows', error: new Error('Unable to reach the server') },
        { type: 'xstate.after.requestTimeout.tableGrid.loading' },
        ev({ type: 'query.changed', query: FILTERED }),
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'rows.retry' }, ev({ type: 'query.changed', query: QUERY })]
    if (snapshot.matches('idle')) {
      return [
        ev({ type: 'query.changed', query: FILTERED }),
        ev({ type: 'cell.save', edit: EDIT }),
        ev({ type: 'row.insert', values: { name: 'Cy' } }),
        ev({ type: 'rows.delete', keys: [{ id: 2 }] }),
        ev({ type: 'edit.undo' }),
      ]
    }
    if (snapshot.matches('saving') || snapshot.matches('undoing')) {
      const state = snapshot.matches('saving') ? 'saving' : 'undoing'
      return [
        { type: 'xstate.done.actor.updateRow', output: state === 'saving' ? SAVED : REVERTED },
        { type: 'xstate.error.actor.updateRow', error: conflictError() },
        { type: 'xstate.error.actor.updateRow', error: serverError() },
        { type: `xstate.after.requestTimeout.tableGrid.${state}` },
      ]
    }
    if (snapshot.matches('conflict')) return [{ type: 'conflict.reload' }, { type: 'error.dismiss' }]
    if (snapshot.matches('writeFailed')) return [{ type: 'error.dismiss' }]
    if (snapshot.matches('inserting')) {
      return [
        { type: 'xstate.done.actor.insertRow', output: { row: { id: 3, name: 'Cy' }, sql: 'insert …' } },
        { type: 'xstate.error.actor.insertRow', error: serverError() },
        { type: 'xstate.after.requestTimeout.tableGrid.inserting' },
      ]
    }
    if (snapshot.matches('confirmingDelete')) return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }]
    if (snapshot.matches('deleting')) {
      return [
        { type: 'xstate.done.actor.deleteRows', output: { deleted: 1, sql: 'delete …' } },
        { type: 'xstate.error.actor.deleteRows', error: serverError() },
        { type: 'xstate.after.requestTimeout.tableGrid.deleting' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      `${JSON.stringify(previous?.value ?? null)}|${snapshot.context.page?.primary_keys.length ?? 'none'}|${snapshot.context.lastEdit ? 'undo' : ''}`,
    ),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('table grid model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(tableGridMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('keeps sort, filters, page size and page in the URL and reads them back', () => {
    const query: GridQuery = { sort: [{ column: 'a b', ascending: false }], filters: [{ column: 'x', operator: 'in', value: [1, 2] }], pageSize: 500, page: 3 }
    expect(gridQueryOf(gridSearchOf(query))).toEqual(query)
    expect(gridSearchOf(QUERY)).toBe('')
    expect(gridQueryOf('?size=7&page=-1&filters=nope')).toEqual(QUERY)
  })

  it('sends an edit with the value the cell held when read, and its undo the other way round', () => {
    expect(updateOf(REF, 't', EDIT)).toEqual({ ref: REF, table: 't', key: { id: 1 }, previous: { name: 'Ada' }, values: { name: 'Ada L.' } })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const rows = deferredActor<RowsPage, RowsRequest>('getRows')
      const update = deferredActor<WrittenRow, UpdateRequest>('updateRow')
      const insert = deferredActor<WrittenRow, { ref: string; table: string; values: Row }>('insertRow')
      const remove = deferredActor<DeletedRows, { ref: string; table: string; keys: Row[] }>('deleteRows')
      const actor = runPath(
        createActor(tableGridMachine.provide({ actors: { getRows: rows.logic, updateRow: update.logic, insertRow: insert.logic, deleteRows: remove.logic } }), {
          input: { ref: REF, table: 'people', query: QUERY },
        }).start(),
      )
      const view = () => selectTableGridView(actor.getSnapshot())
      const ready = () => {
        const v = view()
        if (v.phase !== 'ready') throw new Error(`expected the grid, got ${v.phase}`)
        return v
      }
      await path.test({
        states: {
          loading: (snapshot) => {
            // The first load shows a loading line; a reload keeps the rows read before, marked busy.
            if (snapshot.context.page === null) expect(view()).toEqual({ phase: 'loading' })
            else expect(ready().busy).toBe('loading')
            expect(rows.runs.at(-1)?.input).toEqual({ ref: REF, table: "people", query: snapshot.context.query })
          },
          failed: (snapshot) => expect(view()).toEqual({ phase: 'failed', error: snapshot.context.error }),
          idle: (snapshot) => {
            const v = ready()
            expect(v.busy).toBeNull()
            expect(v.editable).toBe(snapshot.context.page!.primary_keys.length > 0)
            expect(v.canUndo).toBe(snapshot.context.lastEdit !== null)
            expect(v.conflict).toBeNull()
          },
          saving: () => {
            expect(ready().busy).toBe('saving')
            expect(update.pending.at(-1)?.input).toEqual(updateOf(REF, 'people', EDIT))
          },
          undoing: () => {
            expect(ready().busy).toBe('undoing')
            expect(update.pending.at(-1)?.input).toEqual({ ref: REF, table: 'people', key: { id: 1 }, previous: { name: 'Ada L.' }, values: { name: 'Ada' } })
          },
          conflict: () => expect(ready().conflict).toEqual({ message: 'The row was changed after it was read', current: { id: 1, name: 'Other tab' } }),
          writeFailed: (snapshot) => expect(ready().error).toBe(snapshot.context.error),
          inserting: () => {
            expect(ready().busy).toBe('inserting')
            expect(insert.pending.at(-1)?.input).toEqual({ ref: REF, table: 'people', values: { name: 'Cy' } })
          },
          confirmingDelete: () => expect(ready().confirmDelete).toBe(1),
          deleting: () => {
            expect(ready().busy).toBe('deleting')
            expect(remove.pending.at(-1)?.input).toEqual({ ref: REF, table: 'people', keys: [{ id: 2 }] })
          },
        },
        events: {
          'xstate.done.actor.getRows': async (step) => rows.resolve(outputOf<RowsPage>(step)),
          'xstate.error.actor.getRows': async (step) => rows.reject(errorOf(step)),
          'xstate.done.actor.updateRow': async (step) => {
            await update.resolve(outputOf<WrittenRow>(step))
            expect(ready().page.rows.find((r) => r.id === 1)).toEqual(outputOf<WrittenRow>(step).row)
          },
          'xstate.error.actor.updateRow': async (step) => update.reject(errorOf(step)),
          'xstate.done.actor.insertRow': async (step) => insert.resolve(outputOf<WrittenRow>(step)),
          'xstate.error.actor.insertRow': async (step) => insert.reject(errorOf(step)),
          'xstate.done.actor.deleteRows': async (step) => remove.resolve(outputOf<DeletedRows>(step)),
          'xstate.error.actor.deleteRows': async (step) => remove.reject(errorOf(step)),
          ...Object.fromEntries(
            [
              'xstate.after.requestTimeout.tableGrid.loading', 'xstate.after.requestTimeout.tableGrid.saving',
              'xstate.after.requestTimeout.tableGrid.undoing', 'xstate.after.requestTimeout.tableGrid.inserting',
              'xstate.after.requestTimeout.tableGrid.deleting', 'query.changed', 'rows.retry', 'cell.save', 'row.insert',
              'rows.delete', 'delete.confirm', 'delete.cancel', 'edit.undo', 'conflict.reload', 'error.dismiss',
            ].map((type) => [type, async (step: { event: { type: string } }) => act(() => sendEdge(actor, step.event))]),
          ),
        },
      })
    })
  }
})
