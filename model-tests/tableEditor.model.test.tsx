import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'
import { ROWS_PER_PAGE, tableEditorHref, tableEditorMachine, type RowsRequest, type TableSelection } from '../machines/tableEditor.machine'
import type { DatabaseTable, TableRows } from '../src/contracts/database'
import { TableEditor } from '../src/views/project/database/TableEditorPage'
import { REF } from '../tests/fixtures'
import { TABLES, ordersPage } from '../tests/fixtures.database'
import { coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(tableEditorMachine)

const REQUEST_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS
/** orders has 250 rows (3 pages), customers 2 (1 page). */
const rowsFor = ({ table, page }: TableSelection): TableRows =>
  table === 'orders' ? ordersPage(page * ROWS_PER_PAGE) : { ...ordersPage(0, ROWS_PER_PAGE, 2), columns: [{ name: 'id', type: 'bigint' }] }
const TOTALS: Record<string, number> = { orders: 250, customers: 2 }

const selectionOf = (snapshot: SnapshotFrom<typeof tableEditorMachine>) => snapshot.context
const changed = (selection: TableSelection) => (ev({ type: 'selection.changed', ...selection }))

const model = modelOf(tableEditorMachine, {
  input: { ref: REF, table: null, page: 0 },
  events: (snapshot) => {
    const selection = selectionOf(snapshot)
    if (snapshot.matches('loadingTables')) {
      return [
        { type: 'xstate.done.actor.listTables', output: TABLES },
        { type: 'xstate.error.actor.listTables', error: new Error('Internal server error') },
        { type: 'xstate.after.requestTimeout.tableEditor.loadingTables' },
        // The URL changes while the list loads (the person follows a link to a table).
        ...(selection.table === null ? [changed({ table: 'orders', page: 0 })] : []),
      ]
    }
    if (snapshot.matches('tablesFailed')) return [{ type: 'tables.retry' }]
    if (snapshot.matches({ ready: 'choosing' })) return [changed({ table: 'orders', page: 0 }), changed({ table: 'ghosts', page: 0 })]
    if (snapshot.matches({ ready: 'missing' })) return [changed({ table: 'customers', page: 0 })]
    if (snapshot.matches({ ready: 'loadingRows' })) {
      return [
        { type: 'xstate.done.actor.getTableRows', output: rowsFor(selection) },
        { type: 'xstate.error.actor.getTableRows', error: new Error('Unable to reach the server') },
        { type: 'xstate.after.requestTimeout.tableEditor.ready.loadingRows' },
        ...(selection.table === 'orders' ? [changed({ table: 'customers', page: 0 })] : []),
      ]
    }
    if (snapshot.matches({ ready: 'showingRows' })) {
      const pages = Math.ceil(TOTALS[selection.table ?? ''] / ROWS_PER_PAGE)
      return [
        ...(selection.page + 1 < pages ? [changed({ table: selection.table, page: selection.page + 1 })] : []),
        ...(selection.page > 0 ? [changed({ table: selection.table, page: selection.page - 1 })] : []),
      ]
    }
    if (snapshot.matches({ ready: 'rowsFailed' })) return [{ type: 'rows.retry' }]
    return []
  },
  serializeState: (snapshot, event, previous) => {
    const { table, page } = selectionOf(snapshot)
    return keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}|${table}|${page}`)
  },
})
const paths = coveringWalks(model)

const runPath = usePathClock()

describe('table editor model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(tableEditorMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<DatabaseTable[], { ref: string }>('listTables')
      const rows = deferredActor<TableRows, RowsRequest>('getTableRows')
      const actor = createActor(tableEditorMachine.provide({ actors: { listTables: list.logic, getTableRows: rows.logic } }), {
        input: { ref: REF, table: null, page: 0 },
      }).start()
      runPath(actor)
      const location = memoryLocation({ path: `/project/${REF}/editor`, record: true })
      render(
        <Router hook={location.hook} searchHook={location.searchHook}>
          <TableEditor actor={actor} projectRef={REF} />
        </Router>,
      )
      const region = () => screen.getByRole('region', { name: /^Rows/ })
      const linkTo = (href: string) => screen.queryAllByRole('link').find((link) => link.getAttribute('href') === href)
      const urlShows = (snapshot: AnyMachineSnapshot) => expect(location.history?.at(-1)).toBe(tableEditorHref(REF, selectionOf(snapshot)))

      await path.test({
        states: {
          loadingTables: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading tables…')
            expect(list.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          tablesFailed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load tables')
            expect(alert).toHaveTextContent(snapshot.context.error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          ready: (snapshot) => {
            urlShows(snapshot)
            const nav = within(screen.getByRole('navigation', { name: 'Tables' }))
            expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['customers', 'orders'])
            const current = nav.getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page')
            expect(current.map((link) => link.textContent)).toEqual(TABLES.some((t) => t.name === selectionOf(snapshot).table) ? [selectionOf(snapshot).table] : [])
          },
          'ready.choosing': () => {
            expect(region()).toHaveTextContent('Choose a table to see its rows.')
          },
          'ready.missing': (snapshot) => {
            expect(within(region()).getByRole('alert')).toHaveTextContent(`Table ${selectionOf(snapshot).table} was not found in schema public.`)
            expect(rows.pending).toHaveLength(0)
          },
          'ready.loadingRows': (snapshot) => {
            const { table, page } = selectionOf(snapshot)
            expect(within(region()).getByRole('heading', { level: 2, name: table! })).toBeInTheDocument()
            expect(within(region()).getByRole('status')).toHaveTextContent('Loading rows…')
            expect(rows.pending.at(-1)?.input).toEqual({ ref: REF, table, offset: page * ROWS_PER_PAGE, limit: ROWS_PER_PAGE })
          },
          'ready.showingRows': (snapshot) => {
            const selection = selectionOf(snapshot)
            const answer = rowsFor(selection)
            const grid = within(region()).getByRole('table', { name: `Rows of ${selection.table}` })
            expect(within(grid).getAllByRole('row')).toHaveLength(answer.rows.length + 1)
            expect(within(grid).getByRole('columnheader', { name: 'id bigint' })).toBeInTheDocument()
            expect(within(region()).getByRole('status')).toHaveTextContent(
              `Rows ${answer.offset + 1}–${answer.offset + answer.rows.length} of ${answer.total}`,
            )
            const pages = Math.ceil(answer.total / ROWS_PER_PAGE)
            const next = selection.page + 1 < pages
            const previous = selection.page > 0
            if (next) expect(within(region()).getByRole('link', { name: 'Next page' })).toHaveAttribute('href', tableEditorHref(REF, { ...selection, page: selection.page + 1 }))
            else expect(within(region()).getByRole('button', { name: 'Next page' })).toBeDisabled()
            if (previous) expect(within(region()).getByRole('link', { name: 'Previous page' })).toBeInTheDocument()
            else expect(within(region()).getByRole('button', { name: 'Previous page' })).toBeDisabled()
          },
          'ready.rowsFailed': (snapshot) => {
            const alert = within(region()).getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load rows')
            expect(alert).toHaveTextContent(snapshot.context.error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
        },
        events: {
          'xstate.done.actor.listTables': async (step) => list.resolve(outputOf<DatabaseTable[]>(step)),
          'xstate.error.actor.listTables': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.tableEditor.loadingTables': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'tables.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'selection.changed': async (step) => {
            const { table, page } = step.event
            const href = tableEditorHref(REF, { table, page })
            // A link on screen when there is one (a table of the list, a page), else the URL typed by hand.
            const link = linkTo(href)
            if (link) fireEvent.click(link)
            else await act(async () => location.navigate(href))
          },
          // The answer goes to the request out now: one abandoned by a new selection was aborted, never answered.
          'xstate.done.actor.getTableRows': async (step) => {
            expect(rows.pending).toHaveLength(1)
            await rows.resolve(outputOf<TableRows>(step))
          },
          'xstate.error.actor.getTableRows': async (step) => {
            expect(rows.pending).toHaveLength(1)
            await rows.reject(errorOf(step))
          },
          'xstate.after.requestTimeout.tableEditor.ready.loadingRows': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'rows.retry': async () => {
            fireEvent.click(within(region()).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
