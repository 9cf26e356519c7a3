/**
 * The Table Editor grid's model, walked on the rendered grid: every state and transition with the I/O settled step by
 * step, each state checked through the selector the view reads and through what the screen shows (rows, busy write,
 * conflict, confirmation, the rows picked, the insert and import panels). The panels' events are the person's clicks.
 * The test DOM lays nothing out: elements are given a size here so the virtualised grid renders its rows.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor } from 'xstate'
import { gridQueryOf, gridSearchOf, selectTableGridView, tableGridMachine, updateOf, type CellEdit, type GridQuery, type Row, type RowsRequest, type UpdateRequest } from '../machines/tableGrid.machine'
import { tableImportMachine } from '../machines/tableImport.machine'
import type { DeletedRows, RowsPage, WrittenRow } from '../src/contracts/tableEditor'
import { TableGrid } from '../src/views/project/tableEditor/TableGridPage'
import { preloadable } from '../src/views/shell/lazy'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(tableGridMachine)
// Loaded before the walk (the web tests' setup preloads every preloadable loader), so the panel renders at once.
const importLoader = preloadable(async () => tableImportMachine)
const QUERY: GridQuery = { sort: [], filters: [], pageSize: 100, page: 0 }
const FILTERED: GridQuery = { ...QUERY, filters: [{ column: 'name', operator: 'ilike', value: 'a%' }] }
const SECOND_PAGE: GridQuery = { ...QUERY, page: 1 }
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
    const rows = (state: (typeof snapshot)['value']['rows']) => snapshot.matches({ rows: state })
    // The import panel open: only what it does to the rows (read them again after an import) and closing it, so the
    // walk does not repeat every write under an open panel.
    if (snapshot.matches({ importer: 'open' })) {
      if (rows('idle')) return [{ type: 'rows.reload' }, { type: 'import.toggle' }]
      if (rows('loading')) return [{ type: 'xstate.done.actor.getRows', output: PAGE }]
      return []
    }
    if (rows('loading')) {
      return [
        { type: 'xstate.done.actor.getRows', output: PAGE },
        ...(snapshot.context.page === null ? [{ type: 'xstate.done.actor.getRows', output: NO_KEY_PAGE } as const] : []),
        { type: 'xstate.error.actor.getRows', error: new Error('Unable to reach the server') },
        { type: 'xstate.after.requestTimeout.tableGrid.rows.loading' },
        ev({ type: 'query.changed', query: FILTERED }),
      ]
    }
    if (rows('failed')) return [{ type: 'rows.retry' }, ev({ type: 'query.changed', query: SECOND_PAGE })]
    if (rows('idle')) {
      // Rows picked: deleting them is what follows (the other events are walked with nothing picked).
      if (snapshot.context.selected.length > 0) return [{ type: 'rows.delete' }]
      const fresh = snapshot.context.lastEdit === null
      return [
        ev({ type: 'query.changed', query: FILTERED }),
        ev({ type: 'cell.save', edit: EDIT }),
        { type: 'insert.open' },
        ev({ type: 'edit.undo' }),
        ...(fresh ? [ev({ type: 'row.select', key: { id: 2 }, selected: true }), { type: 'import.toggle' } as const] : []),
      ]
    }
    if (rows('composing')) return [ev({ type: 'row.insert', values: { name: 'Cy' } }), { type: 'insert.cancel' }, ev({ type: 'query.changed', query: FILTERED })]
    if (rows('saving') || rows('undoing')) {
      const state = rows('saving') ? 'saving' : 'undoing'
      return [
        { type: 'xstate.done.actor.updateRow', output: state === 'saving' ? SAVED : REVERTED },
        { type: 'xstate.error.actor.updateRow', error: conflictError() },
        { type: 'xstate.error.actor.updateRow', error: serverError() },
        { type: `xstate.after.requestTimeout.tableGrid.rows.${state}` },
      ]
    }
    if (rows('conflict')) return [{ type: 'conflict.reload' }, { type: 'error.dismiss' }]
    if (rows('writeFailed')) return [{ type: 'error.dismiss' }]
    if (rows('inserting')) {
      return [
        { type: 'xstate.done.actor.insertRow', output: { row: { id: 3, name: 'Cy' }, sql: 'insert …' } },
        { type: 'xstate.error.actor.insertRow', error: serverError() },
        { type: 'xstate.after.requestTimeout.tableGrid.rows.inserting' },
      ]
    }
    if (rows('confirmingDelete')) return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }]
    if (rows('deleting')) {
      return [
        { type: 'xstate.done.actor.deleteRows', output: { deleted: 1, sql: 'delete …' } },
        { type: 'xstate.error.actor.deleteRows', error: serverError() },
        { type: 'xstate.after.requestTimeout.tableGrid.rows.deleting' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      `${JSON.stringify(previous?.value ?? null)}|${snapshot.context.page?.primary_keys.length ?? 'none'}|${snapshot.context.lastEdit ? 'undo' : ''}|${snapshot.context.selected.length}`,
    ),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

// The virtualised grid renders the rows inside its scroller's size (its client size); the test DOM gives every element
// none, so elements are given one for the walk and the prototype is restored after it.
const sized = ['clientHeight', 'clientWidth'] as const
const before = sized.map((name) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, name))
beforeAll(() => {
  for (const name of sized) Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => (name === 'clientHeight' ? 448 : 1200) })
})
afterAll(() => {
  sized.forEach((name, i) => {
    const descriptor = before[i]
    if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor)
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name]
  })
})

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
      const location = memoryLocation({ path: `/project/${REF}/editor/table/people`, record: true })
      render(
        <Router hook={location.hook} searchHook={location.searchHook}>
          <TableGrid actor={actor} importMachine={importLoader} />
        </Router>,
      )
      const view = () => selectTableGridView(actor.getSnapshot())
      const button = (name: string | RegExp) => screen.getByRole('button', { name })
      const dialog = (name: string) => screen.queryByRole('dialog', { name })
      /** What every state with rows on screen shows: the rows, the picked ones, and the panels open or closed. */
      const shown = (snapshot: ReturnType<typeof actor.getSnapshot>) => {
        // Behind an open dialog the page is hidden from assistive technology (the dialog's doing): still on screen.
        const hidden = snapshot.matches({ rows: 'composing' }) || snapshot.matches({ rows: 'confirmingDelete' })
        const grid = screen.getByRole('grid', { name: 'Rows of people', hidden })
        const page = snapshot.context.page!
        expect(within(grid).getAllByRole('row', { hidden })).toHaveLength(page.rows.length + 1)
        const picked = snapshot.context.selected.length
        if (page.primary_keys.length > 0) expect(within(grid).getByRole('checkbox', { name: 'Select row 2', hidden })).toHaveProperty('checked', picked > 0)
        expect(screen.getByRole('button', { name: picked > 0 ? `Delete ${picked} selected` : 'Delete selected', hidden })).toBeInTheDocument()
        expect(dialog('Insert a row') !== null).toBe(snapshot.matches({ rows: 'composing' }))
        const importing = snapshot.matches({ importer: 'open' })
        expect(screen.getByRole('button', { name: 'Import CSV', hidden })).toHaveAttribute('aria-expanded', String(importing))
        expect(screen.queryByRole('region', { name: 'Import CSV', hidden }) !== null).toBe(importing)
      }
      // Rendered under StrictMode, the view sent the URL's query twice on mount: the same query, so one read.
      expect(rows.runs).toHaveLength(1)
      const ready = () => {
        const v = view()
        if (v.phase !== 'ready') throw new Error(`expected the grid, got ${v.phase}`)
        return v
      }
      await path.test({
        states: {
          'rows.loading': (snapshot) => {
            // The first load shows a loading line; a reload keeps the rows read before, marked busy.
            if (snapshot.context.page === null) {
              expect(view()).toEqual({ phase: 'loading' })
              expect(screen.getByText('Loading rows…')).toBeInTheDocument()
            } else {
              expect(ready().busy).toBe('loading')
              expect(screen.getByRole('status')).toHaveTextContent('· loading…')
              shown(snapshot)
            }
            expect(rows.runs.at(-1)?.input).toEqual({ ref: REF, table: "people", query: snapshot.context.query })
          },
          'rows.failed': (snapshot) => {
            expect(view()).toEqual({ phase: 'failed', error: snapshot.context.error })
            expect(screen.getByText(snapshot.context.error!)).toBeInTheDocument()
            expect(screen.queryByRole('grid')).toBeNull()
          },
          'rows.idle': (snapshot) => {
            const v = ready()
            expect(v.busy).toBeNull()
            expect(v.editable).toBe(snapshot.context.page!.primary_keys.length > 0)
            expect(v.canUndo).toBe(snapshot.context.lastEdit !== null)
            expect(v.conflict).toBeNull()
            shown(snapshot)
            expect(button('Insert row')).toHaveProperty('disabled', !v.editable)
            expect(button('Undo last edit')).toHaveProperty('disabled', !v.canUndo)
          },
          'rows.composing': async (snapshot) => {
            expect(ready().insertOpen).toBe(true)
            shown(snapshot)
            const form = within(dialog('Insert a row')!).getByRole('form', { name: 'New row' })
            expect(within(form).getByPlaceholderText('Default: generated')).toHaveAttribute('name', 'id')
            // The side panel opens on the first value to write, past the generated key.
            await act(() => vi.advanceTimersByTimeAsync(50))
            expect(within(form).getByPlaceholderText('NULL')).toHaveFocus()
          },
          'rows.saving': (snapshot) => {
            shown(snapshot)
            expect(ready().busy).toBe('saving')
            expect(update.pending.at(-1)?.input).toEqual(updateOf(REF, 'people', EDIT))
          },
          'rows.undoing': () => {
            expect(ready().busy).toBe('undoing')
            expect(update.pending.at(-1)?.input).toEqual({ ref: REF, table: 'people', key: { id: 1 }, previous: { name: 'Ada L.' }, values: { name: 'Ada' } })
          },
          'rows.conflict': (snapshot) => {
            expect(ready().conflict).toEqual({ message: 'The row was changed after it was read', current: { id: 1, name: 'Other tab' } })
            shown(snapshot)
            expect(button('Reload rows')).toBeInTheDocument()
          },
          'rows.writeFailed': (snapshot) => {
            expect(ready().error).toBe(snapshot.context.error)
            shown(snapshot)
            expect(screen.getByText(snapshot.context.error!)).toBeInTheDocument()
          },
          'rows.inserting': (snapshot) => {
            shown(snapshot)
            expect(ready().busy).toBe('inserting')
            expect(insert.pending.at(-1)?.input).toEqual({ ref: REF, table: 'people', values: { name: 'Cy' } })
          },
          'rows.confirmingDelete': (snapshot) => {
            expect(ready().confirmDelete).toBe(1)
            shown(snapshot)
            expect(dialog('Delete rows')).toHaveTextContent('Delete 1 row of people? This cannot be undone.')
          },
          'rows.deleting': (snapshot) => {
            shown(snapshot)
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
              'xstate.after.requestTimeout.tableGrid.rows.loading', 'xstate.after.requestTimeout.tableGrid.rows.saving',
              'xstate.after.requestTimeout.tableGrid.rows.undoing', 'xstate.after.requestTimeout.tableGrid.rows.inserting',
              'xstate.after.requestTimeout.tableGrid.rows.deleting', 'query.changed', 'cell.save', 'rows.reload', 'error.dismiss',
            ].map((type) => [type, async (step: { event: { type: string } }) => act(() => sendEdge(actor, step.event))]),
          ),
          // What the person does on screen.
          'rows.retry': async () => fireEvent.click(button('Try again')),
          'insert.open': async () => fireEvent.click(button('Insert row')),
          'insert.cancel': async () => fireEvent.click(within(dialog('Insert a row')!).getByRole('button', { name: 'Cancel' })),
          'row.insert': async () => {
            const form = within(dialog('Insert a row')!).getByRole('form', { name: 'New row' })
            fireEvent.change(within(form).getByPlaceholderText('NULL'), { target: { value: 'Cy' } })
            fireEvent.click(within(form).getByRole('button', { name: 'Save row' }))
          },
          'row.select': async () => fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' })),
          'rows.delete': async () => fireEvent.click(button('Delete 1 selected')),
          'delete.confirm': async () => fireEvent.click(within(dialog('Delete rows')!).getByRole('button', { name: 'Delete' })),
          'delete.cancel': async () => fireEvent.click(within(dialog('Delete rows')!).getByRole('button', { name: 'Cancel' })),
          'edit.undo': async () => fireEvent.click(button('Undo last edit')),
          'conflict.reload': async () => fireEvent.click(button('Reload rows')),
          'import.toggle': async () => fireEvent.click(button('Import CSV')),
        },
      })
    })
  }
})
