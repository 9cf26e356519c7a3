/**
 * The Table Editor grid's model, walked on the rendered grid: every state and transition with the I/O settled step by
 * step, each state checked through the selector the view reads and through what the screen shows (rows, busy write,
 * conflict, confirmation, the rows picked, the insert and import panels). The panels' events are the person's clicks.
 * The test DOM lays nothing out: elements are given a size here so the virtualised grid renders its rows.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor } from 'xstate'
import { PICKER_PAGE_SIZE, gridQueryOf, gridSearchOf, selectTableGridView, tableGridMachine, updateOf, type CellEdit, type ReferenceSearch, type GridQuery, type Row, type RowsRequest, type UpdateRequest } from '../machines/tableGrid.machine'
import { tableImportMachine } from '../machines/tableImport.machine'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'
import type { DeletedRows, RowsPage, WrittenRow } from '../src/contracts/tableEditor'
import { TableGrid } from '../src/views/project/tableEditor/TableGridPage'
import { preloadable } from '../src/views/shell/lazy'
import { REF } from '../tests/fixtures'
import { useElementSize } from '../tests/fakePlatform'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(tableGridMachine)
// Loaded before the walk (the web tests' setup preloads every preloadable loader), so the panel renders at once.
const importLoader = preloadable(async () => tableImportMachine)
const QUERY: GridQuery = { sort: [], filters: [], pageSize: 100, page: 0 }
const FILTERED: GridQuery = { ...QUERY, filters: [{ column: 'name', operator: 'ilike', value: 'a%' }] }
const SECOND_PAGE: GridQuery = { ...QUERY, page: 1 }
const TEAMS = { schema: 'public', table: 'teams', column: 'id', label: 'name' }
const PAGE: RowsPage = {
  columns: [
    { name: 'id', type: 'bigint', default_value: null, is_nullable: false, is_identity: true, enums: [] },
    { name: 'name', type: 'text', default_value: null, is_nullable: true, is_identity: false, enums: [] },
    { name: 'team', type: 'bigint', default_value: null, is_nullable: false, is_identity: false, enums: [], references: TEAMS },
  ],
  rows: [{ id: 1, name: 'Ada', team: 7 }, { id: 2, name: 'Bo', team: 8 }],
  offset: 0,
  limit: 100,
  total: 2,
  primary_keys: ['id'],
}
const NO_KEY_PAGE: RowsPage = { ...PAGE, primary_keys: [] }
/** The first of two pages of the referenced table's rows. */
const TEAMS_FOUND: RowsPage = {
  columns: [PAGE.columns[0], PAGE.columns[1]],
  rows: [{ id: 7, name: 'Ada team' }, { id: 8, name: 'Bob' }],
  offset: 0,
  limit: 10,
  total: 12,
  primary_keys: ['id'],
}
const PICKED: CellEdit = { key: { id: 1 }, column: 'team', before: 7, after: 8 }
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
        ...(fresh
          ? [ev({ type: 'row.select', key: { id: 2 }, selected: true }), { type: 'import.toggle' } as const, ev({ type: 'picker.open', key: { id: 1 }, column: 'team', before: 7 })]
          : []),
      ]
    }
    if (snapshot.matches({ rows: { picking: 'searching' } })) {
      return [
        { type: 'xstate.done.actor.searchReference', output: TEAMS_FOUND },
        { type: 'xstate.error.actor.searchReference', error: new Error('Unable to reach the server') },
        { type: 'xstate.after.requestTimeout.tableGrid.rows.picking.searching' },
        ev({ type: 'picker.search', term: 'bo' }),
        { type: 'picker.cancel' },
        ev({ type: 'query.changed', query: FILTERED }),
      ]
    }
    if (snapshot.matches({ rows: { picking: 'found' } })) {
      return [
        ...(snapshot.context.picker?.page === 0 ? [ev({ type: 'picker.page', page: 1 })] : []),
        ev({ type: 'picker.choose', value: 8 }),
        ev({ type: 'picker.search', term: 'bo' }),
        { type: 'picker.cancel' },
      ]
    }
    if (snapshot.matches({ rows: { picking: 'failed' } })) return [{ type: 'picker.retry' }, { type: 'picker.cancel' }]
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

// The virtualised grid renders the rows inside its scroller's size.
useElementSize(448, 1200)

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
      const search = deferredActor<RowsPage, ReferenceSearch>('searchReference')
      const actor = runPath(
        createActor(tableGridMachine.provide({ actors: { getRows: rows.logic, updateRow: update.logic, insertRow: insert.logic, deleteRows: remove.logic, searchReference: search.logic } }), {
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
        const hidden = snapshot.matches({ rows: 'composing' }) || snapshot.matches({ rows: 'confirmingDelete' }) || snapshot.matches({ rows: 'picking' })
        const grid = screen.getByRole('grid', { name: 'Rows of people', hidden })
        const page = snapshot.context.page!
        expect(within(grid).getAllByRole('row', { hidden })).toHaveLength(page.rows.length + 1)
        const picked = snapshot.context.selected.length
        if (page.primary_keys.length > 0) expect(within(grid).getByRole('checkbox', { name: 'Select row 2', hidden })).toHaveProperty('checked', picked > 0)
        expect(screen.getByRole('button', { name: picked > 0 ? `Delete ${picked} selected` : 'Delete selected', hidden })).toBeInTheDocument()
        expect(dialog('Insert a row') !== null).toBe(snapshot.matches({ rows: 'composing' }))
        expect(dialog('Choose a row of teams') !== null).toBe(snapshot.matches({ rows: 'picking' }))
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
            // A typed edit, or the key of the row chosen in the picker: the same update, checked against the value read.
            expect(update.pending.at(-1)?.input).toEqual(updateOf(REF, 'people', snapshot.context.pending?.column === 'team' ? PICKED : EDIT))
          },
          'rows.undoing': (snapshot) => {
            expect(ready().busy).toBe('undoing')
            expect(update.pending.at(-1)?.input).toEqual(
              snapshot.context.pending?.column === 'team'
                ? { ref: REF, table: 'people', key: { id: 1 }, previous: { team: 8 }, values: { team: 7 } }
                : { ref: REF, table: 'people', key: { id: 1 }, previous: { name: 'Ada L.' }, values: { name: 'Ada' } },
            )
          },
          'rows.picking.searching': (snapshot) => {
            shown(snapshot)
            const picker = snapshot.context.picker!
            expect(ready().picker).toMatchObject({ phase: 'searching', column: 'team', term: picker.term })
            expect(search.pending.at(-1)?.input).toEqual({ ref: REF, reference: TEAMS, term: picker.term, offset: picker.page * PICKER_PAGE_SIZE, limit: PICKER_PAGE_SIZE })
            expect(within(dialog('Choose a row of teams')!).getByRole('searchbox', { name: 'Search teams by id or name' })).toHaveValue(picker.term)
            expect(screen.getByText('Searching teams…')).toBeInTheDocument()
          },
          'rows.picking.found': (snapshot) => {
            shown(snapshot)
            const picker = within(dialog('Choose a row of teams')!)
            expect(picker.getAllByRole('button', { name: /^\d+ / }).map((b) => b.textContent)).toEqual(['7Ada team', '8Bob'])
            expect(picker.getByRole('status')).toHaveTextContent('Rows 1–2 of 12')
            expect(picker.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', snapshot.context.picker!.page === 0)
            // The key is not nullable: the picker offers no NULL.
            expect(picker.queryByRole('button', { name: 'Set to NULL' })).toBeNull()
          },
          'rows.picking.failed': (snapshot) => {
            shown(snapshot)
            expect(within(dialog('Choose a row of teams')!).getByRole('alert')).toHaveTextContent(snapshot.context.error!)
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
          'xstate.done.actor.searchReference': async (step) => search.resolve(outputOf<RowsPage>(step)),
          'xstate.error.actor.searchReference': async (step) => search.reject(errorOf(step)),
          // A request unanswered: the clock moves by the project database time-out, and the abandoned run is dropped.
          ...Object.fromEntries(
            (
              [
                ['rows.loading', rows],
                ['rows.saving', update],
                ['rows.undoing', update],
                ['rows.inserting', insert],
                ['rows.deleting', remove],
                ['rows.picking.searching', search],
              ] as const
            ).map(([state, request]) => [
              `xstate.after.requestTimeout.tableGrid.${state}`,
              async () => {
                await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
                expect(request.runs.at(-1)?.signal.aborted).toBe(true)
              },
            ]),
          ),
          ...Object.fromEntries(
            ['query.changed', 'cell.save', 'rows.reload', 'error.dismiss'].map((type) => [type, async (step: { event: { type: string } }) => act(() => sendEdge(actor, step.event))]),
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
          // A foreign key cell opens the picker where another cell opens its typed editor.
          'picker.open': async () => fireEvent.doubleClick(screen.getByRole('gridcell', { name: 'team, row 1: 7' })),
          'picker.search': async () => fireEvent.change(within(dialog('Choose a row of teams')!).getByRole('searchbox'), { target: { value: 'bo' } }),
          'picker.page': async () => fireEvent.click(within(dialog('Choose a row of teams')!).getByRole('button', { name: 'Next' })),
          'picker.choose': async () => fireEvent.click(within(dialog('Choose a row of teams')!).getByRole('button', { name: '8 Bob' })),
          'picker.retry': async () => fireEvent.click(within(dialog('Choose a row of teams')!).getByRole('button', { name: 'Try again' })),
          'picker.cancel': async () => fireEvent.click(within(dialog('Choose a row of teams')!).getByRole('button', { name: 'Cancel' })),
        },
      })
    })
  }
})
