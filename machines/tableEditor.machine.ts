/**
 * Table Editor: the tables of schema public in a list and the chosen table's rows, a page of ROWS_PER_PAGE at a
 * time. The selection (table and page) lives in the URL: the page tells the machine with `selection.changed`, and
 * the machine loads what it names. Invariants: a selection equal to the current one loads nothing again; a table
 * the list does not hold is reported, never requested; a request unanswered after requestTimeout is abandoned
 * (its signal aborted) and reported with a retry; a failed rows load keeps the table list.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DatabaseTable, TableRows } from '../src/contracts/database'
import { href } from '../src/href'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

export const ROWS_PER_PAGE = 100

/** What the URL names: a table (or none) and a 0-based page. */
export interface TableSelection {
  table: string | null
  page: number
}

export interface RowsRequest {
  ref: string
  table: string
  offset: number
  limit: number
}

interface Context extends TableSelection {
  ref: string
  tables: DatabaseTable[]
  rows: TableRows | null
  error: string | null
}

type TableEditorEvent = ({ type: 'selection.changed' } & TableSelection) | { type: 'tables.retry' } | { type: 'rows.retry' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const tableEditorMachine = setup({
  types: {
    input: {} as { ref: string } & TableSelection,
    context: {} as Context,
    events: {} as TableEditorEvent,
    children: {} as { listTables: 'listTables'; getTableRows: 'getTableRows' },
  },
  actors: {
    listTables: fromPromise<DatabaseTable[], { ref: string }>(async () => {
      throw new Error('listTables not provided')
    }),
    getTableRows: fromPromise<TableRows, RowsRequest>(async () => {
      throw new Error('getTableRows not provided')
    }),
  },
  actions: {
    storeSelection: assign((_, params: TableSelection) => ({ table: params.table, page: params.page, rows: null, error: null })),
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    changesSelection: ({ context }, params: TableSelection) => params.table !== context.table || params.page !== context.page,
    noTableChosen: ({ context }) => context.table === null,
    tableListed: ({ context }) => context.tables.some((table) => table.name === context.table),
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'tableEditor',
  context: ({ input }) => ({ ref: input.ref, table: input.table, page: input.page, tables: [], rows: null, error: null }),
  initial: 'loadingTables',
  on: {
    // Before the list is there, the selection is only remembered.
    'selection.changed': {
      guard: { type: 'changesSelection', params: ({ event }) => ({ table: event.table, page: event.page }) },
      actions: { type: 'storeSelection', params: ({ event }) => ({ table: event.table, page: event.page }) },
    },
  },
  states: {
    loadingTables: {
      invoke: {
        id: 'listTables',
        src: 'listTables',
        input: ({ context }) => ({ ref: context.ref }),
        // Straight to the check of the selection against the list.
        onDone: { target: 'ready.selecting', actions: assign({ tables: ({ event }) => event.output, error: null }) },
        onError: { target: 'tablesFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load tables') }) } },
      },
      after: {
        requestTimeout: { target: 'tablesFailed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    tablesFailed: {
      on: { 'tables.retry': 'loadingTables' },
    },
    ready: {
      initial: 'selecting',
      on: {
        'selection.changed': {
          guard: { type: 'changesSelection', params: ({ event }) => ({ table: event.table, page: event.page }) },
          target: '.selecting',
          actions: { type: 'storeSelection', params: ({ event }) => ({ table: event.table, page: event.page }) },
        },
      },
      states: {
        selecting: {
          always: [{ guard: 'noTableChosen', target: 'choosing' }, { guard: 'tableListed', target: 'loadingRows' }, { target: 'missing' }],
        },
        /** No table in the URL: the list invites a choice. */
        choosing: {},
        /** The URL names a table schema public does not hold. */
        missing: {},
        loadingRows: {
          invoke: {
            id: 'getTableRows',
            src: 'getTableRows',
            input: ({ context }) => ({ ref: context.ref, table: context.table ?? '', offset: context.page * ROWS_PER_PAGE, limit: ROWS_PER_PAGE }),
            onDone: { target: 'showingRows', actions: assign({ rows: ({ event }) => event.output, error: null }) },
            onError: { target: 'rowsFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load rows') }) } },
          },
          after: {
            requestTimeout: { target: 'rowsFailed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
          },
        },
        showingRows: {},
        rowsFailed: {
          on: { 'rows.retry': 'loadingRows' },
        },
      },
    },
  },
})

type TableEditorSnapshot = SnapshotFrom<typeof tableEditorMachine>

/** The selection a URL's search names: `?table=orders&page=2` (pages count from 1 in the URL). */
export function selectionOf(search: string): TableSelection {
  const params = new URLSearchParams(search)
  const table = params.get('table')
  const page = Number(params.get('page') ?? '1')
  return { table: table === null || table === '' ? null : table, page: Number.isInteger(page) && page >= 1 ? page - 1 : 0 }
}

/** The URL of a selection in the Table Editor of a project. */
export function tableEditorHref(ref: string, selection: TableSelection) {
  return href.tableEditor(ref, selection.table, selection.page)
}

interface RowsPage {
  table: DatabaseTable
  rows: TableRows
  /** 1-based numbers of the first and last row shown (0 and 0 when the page is empty). */
  first: number
  last: number
  pageCount: number
  previous: TableSelection | null
  next: TableSelection | null
}

type TableEditorView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      tables: DatabaseTable[]
      selected: string | null
      content:
        | { kind: 'choose' }
        | { kind: 'missing'; table: string }
        | { kind: 'loading'; table: DatabaseTable }
        | { kind: 'failed'; table: DatabaseTable; error: string }
        | ({ kind: 'rows' } & RowsPage)
    }

export function selectTableEditorView(snapshot: TableEditorSnapshot): TableEditorView {
  const { tables, table: selected, page, rows, error } = snapshot.context
  if (snapshot.matches('loadingTables')) return { phase: 'loading' }
  if (snapshot.matches('tablesFailed')) return { phase: 'failed', error: error ?? 'Failed to load tables' }
  const table = tables.find((candidate) => candidate.name === selected)
  const ready = (content: Extract<TableEditorView, { phase: 'ready' }>['content']): TableEditorView => ({ phase: 'ready', tables, selected, content })
  if (!table || selected === null) return selected === null ? ready({ kind: 'choose' }) : ready({ kind: 'missing', table: selected })
  if (snapshot.matches({ ready: 'rowsFailed' })) return ready({ kind: 'failed', table, error: error ?? 'Failed to load rows' })
  if (!snapshot.matches({ ready: 'showingRows' }) || rows === null) return ready({ kind: 'loading', table })
  const pageCount = Math.max(1, Math.ceil(rows.total / ROWS_PER_PAGE))
  return ready({
    kind: 'rows',
    table,
    rows,
    first: rows.rows.length === 0 ? 0 : rows.offset + 1,
    last: rows.offset + rows.rows.length,
    pageCount,
    previous: page > 0 ? { table: selected, page: Math.min(page - 1, pageCount - 1) } : null,
    next: page + 1 < pageCount ? { table: selected, page: page + 1 } : null,
  })
}
