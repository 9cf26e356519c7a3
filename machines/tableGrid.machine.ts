/**
 * Table Editor grid: a table's rows as the URL's query names them (sort, filters, page size, page), edited in place.
 * A cell edit, an inserted row, deleted rows (after confirmation) and the undo of the last edit are each one write;
 * one write at a time, and the grid waits for it. Invariants: an edit sends the value the cell held when it was read,
 * so a row another tab changed meanwhile is refused by the platform and shown as a conflict, never overwritten; only
 * the last saved edit can be undone, and undoing it is itself checked the same way; a request unanswered after
 * requestTimeout is abandoned and reported.
 * The panels around the rows are the machine's too: the rows picked for deletion (their primary keys, forgotten when
 * the query changes or they are deleted), the insert panel (`composing`, a state of the rows: while it is open nothing
 * else is written), the foreign key picker (`picking`: a cell of a column that references another table of the
 * schema opens a search of that table, by its key or its first text column, a page at a time; the row chosen is the
 * cell's edit, saved as any other) and the CSV import panel (a region of its own, open while the rows reload under it).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { ColumnReference, RowFilter, RowSort, RowsPage, WrittenRow, DeletedRows } from '../src/contracts/tableEditor'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

export type Row = Record<string, unknown>

/** What the URL holds of a grid: its sort, filters, page size and 0-based page. */
export interface GridQuery {
  sort: RowSort[]
  filters: RowFilter[]
  pageSize: number
  page: number
}

export interface RowsRequest {
  ref: string
  table: string
  query: GridQuery
}

export interface CellEdit {
  key: Row
  column: string
  /** What the cell held when the grid read it. */
  before: unknown
  after: unknown
}

export interface UpdateRequest {
  ref: string
  table: string
  key: Row
  previous: Row
  values: Row
}

/** One page of the referenced table's rows whose key or label contains the term. */
export interface ReferenceSearch {
  ref: string
  reference: ColumnReference
  term: string
  offset: number
  limit: number
}

/** The picker of a foreign key cell: the cell it edits, what it searches and the page found. */
export interface Picker {
  key: Row
  column: string
  before: unknown
  nullable: boolean
  reference: ColumnReference
  term: string
  page: number
  found: RowsPage | null
}

/** Rows of the referenced table a picker shows at once. */
export const PICKER_PAGE_SIZE = 10

/** The schema the grid reads rows of: a key elsewhere is edited as its plain value. */
const PICKABLE_SCHEMA = 'public'

interface Context {
  ref: string
  table: string
  query: GridQuery
  page: RowsPage | null
  /** The last saved edit, which undo reverses. */
  lastEdit: CellEdit | null
  /** The write under way or refused. */
  pending: CellEdit | null
  deleting: Row[]
  error: string | null
  /** What the row holds now, after a conflict. */
  current: Row | null
  /** The primary keys of the rows picked for deletion. */
  selected: Row[]
  picker: Picker | null
}

type GridEvent =
  | { type: 'query.changed'; query: GridQuery }
  | { type: 'rows.retry' }
  | { type: 'cell.save'; edit: CellEdit }
  | { type: 'row.insert'; values: Row }
  | { type: 'row.select'; key: Row; selected: boolean }
  | { type: 'insert.open' }
  | { type: 'insert.cancel' }
  | { type: 'rows.delete' }
  | { type: 'rows.reload' }
  | { type: 'import.toggle' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'edit.undo' }
  | { type: 'conflict.reload' }
  | { type: 'error.dismiss' }
  | { type: 'picker.open'; key: Row; column: string; before: unknown }
  | { type: 'picker.search'; term: string }
  | { type: 'picker.page'; page: number }
  | { type: 'picker.retry' }
  | { type: 'picker.choose'; value: unknown }
  | { type: 'picker.cancel' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)
const statusOf = (error: unknown) => (error as { status?: number | null } | null)?.status ?? null
const currentOf = (error: unknown): Row | null => {
  const body = (error as { body?: { current?: unknown } } | null)?.body
  return body && typeof body.current === 'object' && body.current !== null ? (body.current as Row) : null
}

const sameKey = (row: Row, key: Row) => Object.entries(key).every(([name, value]) => row[name] === value)
/** Two queries name the same rows: the URL read again on mount (or re-rendered) is not a reason to read them again. */
const sameQuery = (a: GridQuery, b: GridQuery) =>
  a.pageSize === b.pageSize && a.page === b.page && JSON.stringify(a.sort) === JSON.stringify(b.sort) && JSON.stringify(a.filters) === JSON.stringify(b.filters)

export const updateOf = (ref: string, table: string, edit: CellEdit): UpdateRequest => ({
  ref,
  table,
  key: edit.key,
  previous: { [edit.column]: edit.before },
  values: { [edit.column]: edit.after },
})

const errorParams = (fallback: string) => ({ event }: { event: { error: unknown } }) => ({ error: messageOf(event.error, fallback) })

/**
 * A write, the one shape every write of the grid has: its actor invoked (one at a time), its answer taking `done`, a
 * failure (or a `conflicts` guard's refusal first, when given) and a time-out resting in `writeFailed` with the
 * message `failure`; `failed` runs before the message is stored.
 */
function write<TSrc extends 'updateRow' | 'insertRow' | 'deleteRows', TInput, TDone, TConflict extends object = never, TFailed extends object = never>(names: {
  src: TSrc
  input: TInput
  done: TDone
  failure: string
  conflict?: TConflict
  failed?: TFailed
}) {
  const store = { type: 'storeError' as const, params: errorParams(names.failure) }
  const failed = { target: 'writeFailed' as const, actions: names.failed ? [names.failed, store] : [store] }
  return {
    invoke: {
      id: names.src,
      src: names.src,
      input: names.input,
      onDone: names.done,
      onError: names.conflict ? [names.conflict, failed] : [failed],
    },
    after: { requestTimeout: { target: 'writeFailed' as const, actions: { type: 'storeError' as const, params: { error: 'The request timed out' } } } },
  }
}

/**
 * A cell's edit or its undo: the same update by primary key, checked against what the cell held. A saved edit becomes
 * the one undo reverses; a saved undo leaves nothing to undo, and so does an undo refused by a conflict.
 */
const editWrite = ({ undo }: { undo: boolean }) =>
  write({
    src: 'updateRow',
    input: ({ context }: { context: Context }) => updateOf(context.ref, context.table, context.pending!),
    done: {
      target: 'idle' as const,
      actions: [
        { type: 'storeRow' as const, params: ({ context, event }: { context: Context; event: { output: WrittenRow } }) => ({ row: event.output.row, key: context.pending!.key }) },
        { type: 'settleEdit' as const, params: { undo } },
      ],
    },
    failure: undo ? 'The undo was not saved' : 'The change was not saved',
    conflict: {
      guard: { type: 'isConflict' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
      target: 'conflict' as const,
      actions: { type: 'storeConflict' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, undo }) },
    },
  })

export const tableGridMachine = setup({
  types: {
    input: {} as { ref: string; table: string; query: GridQuery },
    context: {} as Context,
    events: {} as GridEvent,
    children: {} as { getRows: 'getRows'; updateRow: 'updateRow'; insertRow: 'insertRow'; deleteRows: 'deleteRows'; searchReference: 'searchReference' },
  },
  actors: {
    getRows: fromPromise<RowsPage, RowsRequest>(async () => {
      throw new Error('getRows not provided')
    }),
    updateRow: fromPromise<WrittenRow, UpdateRequest>(async () => {
      throw new Error('updateRow not provided')
    }),
    insertRow: fromPromise<WrittenRow, { ref: string; table: string; values: Row }>(async () => {
      throw new Error('insertRow not provided')
    }),
    deleteRows: fromPromise<DeletedRows, { ref: string; table: string; keys: Row[] }>(async () => {
      throw new Error('deleteRows not provided')
    }),
    searchReference: fromPromise<RowsPage, ReferenceSearch>(async () => {
      throw new Error('searchReference not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    /** The saved row replaces the one the grid shows. */
    storeRow: assign(({ context }, params: { row: Row; key: Row }) => ({
      page: context.page ? { ...context.page, rows: context.page.rows.map((r) => (sameKey(r, params.key) ? params.row : r)) } : null,
      error: null,
    })),
    /** A saved edit is the one undo reverses; a saved undo leaves nothing to undo. */
    settleEdit: assign(({ context }, params: { undo: boolean }) => ({ lastEdit: params.undo ? null : context.pending, pending: null })),
    /** The row as it is now, shown beside the refusal; a refused undo leaves nothing to undo. */
    storeConflict: assign(({ context }, params: { error: unknown; undo: boolean }) => ({
      error: messageOf(params.error, 'The row was changed meanwhile'),
      current: currentOf(params.error),
      lastEdit: params.undo ? null : context.lastEdit,
    })),
    forgetEdit: assign({ lastEdit: null }),
    forgetDeleting: assign({ deleting: [] }),
    forgetSelection: assign({ selected: [] }),
    /** A new query reads other rows: nothing stays picked, and the last edit is no longer on screen to undo. */
    storeQuery: assign(({ event }) => (event.type === 'query.changed' ? { query: event.query, selected: [], lastEdit: null } : {})),
    select: assign(({ context, event }) => {
      if (event.type !== 'row.select') return {}
      const others = context.selected.filter((key) => !sameKey(key, event.key))
      return { selected: event.selected ? [...others, event.key] : others }
    }),
  },
  guards: {
    isConflict: (_, params: { error: unknown }) => statusOf(params.error) === 409,
    canUndo: ({ context }) => context.lastEdit !== null,
    hasKeys: ({ context }) => (context.page?.primary_keys.length ?? 0) > 0,
    hasSelection: ({ context }) => (context.page?.primary_keys.length ?? 0) > 0 && context.selected.length > 0,
    newQuery: ({ context, event }) => event.type === 'query.changed' && !sameQuery(context.query, event.query),
    /** The cell's column references one column of a table whose rows the grid can read. */
    pickable: ({ context, event }) => {
      if (event.type !== 'picker.open' || (context.page?.primary_keys.length ?? 0) === 0) return false
      const reference = context.page?.columns.find((c) => c.name === event.column)?.references
      return reference !== null && reference !== undefined && reference.schema === PICKABLE_SCHEMA
    },
    canBeNull: ({ context, event }) => event.type === 'picker.choose' && (event.value !== null || context.picker?.nullable === true),
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'tableGrid',
  context: ({ input }) => ({
    ref: input.ref,
    table: input.table,
    query: input.query,
    page: null,
    lastEdit: null,
    pending: null,
    deleting: [],
    error: null,
    current: null,
    selected: [],
    picker: null,
  }),
  type: 'parallel',
  states: {
    rows: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'getRows',
            src: 'getRows',
            input: ({ context }) => ({ ref: context.ref, table: context.table, query: context.query }),
            onDone: { target: 'idle', actions: assign({ page: ({ event }) => event.output, error: null }) },
            onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load rows') }) } },
          },
          after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } } },
          on: { 'query.changed': { guard: 'newQuery', target: 'loading', reenter: true, actions: 'storeQuery' } },
        },
        failed: {
          on: {
            'rows.retry': 'loading',
            'query.changed': { guard: 'newQuery', target: 'loading', actions: 'storeQuery' },
          },
        },
        idle: {
          on: {
            'query.changed': { guard: 'newQuery', target: 'loading', actions: 'storeQuery' },
            // The same rows read again (after an import added some): what is picked stays picked.
            'rows.reload': { target: 'loading', actions: 'forgetEdit' },
            'cell.save': { guard: 'hasKeys', target: 'saving', actions: assign({ pending: ({ event }) => event.edit, error: null }) },
            'row.select': { guard: 'hasKeys', actions: 'select' },
            'insert.open': { guard: 'hasKeys', target: 'composing' },
            'picker.open': {
              guard: 'pickable',
              target: 'picking',
              actions: assign({
                picker: ({ context, event }) => {
                  const column = context.page!.columns.find((c) => c.name === event.column)!
                  return { key: event.key, column: event.column, before: event.before, nullable: column.is_nullable, reference: column.references!, term: '', page: 0, found: null }
                },
              }),
            },
            'rows.delete': { guard: 'hasSelection', target: 'confirmingDelete', actions: assign({ deleting: ({ context }) => context.selected }) },
            'edit.undo': {
              guard: 'canUndo',
              target: 'undoing',
              // Undo is the last edit the other way round: from what it wrote back to what it replaced.
              actions: assign({ pending: ({ context }) => (context.lastEdit ? { ...context.lastEdit, before: context.lastEdit.after, after: context.lastEdit.before } : null) }),
            },
          },
        },
        /** The insert panel is open: every column with its default shown, until the row is saved or the panel closed. */
        composing: {
          on: {
            'row.insert': 'inserting',
            'insert.cancel': 'idle',
            'query.changed': { guard: 'newQuery', target: 'loading', actions: 'storeQuery' },
          },
        },
        /** The foreign key picker is open: the referenced table searched a page at a time; nothing is written until a row is chosen. */
        picking: {
          initial: 'searching',
          on: {
            'picker.search': { target: '.searching', reenter: true, actions: assign({ picker: ({ context, event }) => ({ ...context.picker!, term: event.term, page: 0 }) }) },
            'picker.cancel': { target: 'idle', actions: assign({ picker: null }) },
            'query.changed': { guard: 'newQuery', target: 'loading', actions: ['storeQuery', assign({ picker: null })] },
          },
          states: {
            searching: {
              invoke: {
                id: 'searchReference',
                src: 'searchReference',
                input: ({ context }) => {
                  const picker = context.picker!
                  return { ref: context.ref, reference: picker.reference, term: picker.term, offset: picker.page * PICKER_PAGE_SIZE, limit: PICKER_PAGE_SIZE }
                },
                onDone: { target: 'found', actions: assign({ picker: ({ context, event }) => ({ ...context.picker!, found: event.output }), error: null }) },
                onError: { target: 'failed', actions: { type: 'storeError', params: errorParams('The referenced rows could not be read') } },
              },
              after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } } },
            },
            found: {
              on: {
                'picker.page': { target: 'searching', actions: assign({ picker: ({ context, event }) => ({ ...context.picker!, page: event.page }) }) },
                // The chosen row's key is the cell's new value: the same edit as typing it, checked the same way.
                'picker.choose': {
                  guard: 'canBeNull',
                  target: '#tableGrid.rows.saving',
                  actions: assign({
                    pending: ({ context, event }) => ({ key: context.picker!.key, column: context.picker!.column, before: context.picker!.before, after: event.value }),
                    picker: null,
                    error: null,
                  }),
                },
              },
            },
            failed: { on: { 'picker.retry': 'searching' } },
          },
        },
        saving: editWrite({ undo: false }),
        undoing: editWrite({ undo: true }),
        /** The row changed since it was read: nothing was written; the person reloads or goes back to the grid. */
        conflict: {
          on: {
            'conflict.reload': { target: 'loading', actions: assign({ pending: null, current: null, error: null }) },
            'error.dismiss': { target: 'idle', actions: assign({ pending: null, current: null, error: null }) },
          },
        },
        writeFailed: {
          on: { 'error.dismiss': { target: 'idle', actions: assign({ pending: null, error: null }) } },
        },
        inserting: write({
          src: 'insertRow',
          input: ({ context, event }: { context: Context; event: GridEvent }) => ({ ref: context.ref, table: context.table, values: event.type === 'row.insert' ? event.values : {} }),
          // The new row's place in the sort is the database's to say: the page is read again.
          done: { target: 'loading' as const, actions: { type: 'forgetEdit' as const } },
          failure: 'The row was not inserted',
        }),
        confirmingDelete: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: assign({ deleting: [] }) },
          },
        },
        deleting: write({
          src: 'deleteRows',
          input: ({ context }: { context: Context }) => ({ ref: context.ref, table: context.table, keys: context.deleting }),
          // Deleted rows are no longer there to pick; a refused delete keeps them picked, to try again.
          done: { target: 'loading' as const, actions: [{ type: 'forgetDeleting' as const }, { type: 'forgetSelection' as const }, { type: 'forgetEdit' as const }] },
          failure: 'The rows were not deleted',
          failed: { type: 'forgetDeleting' as const },
        }),
      },
    },
    /** The CSV import panel, beside the rows: it stays open (and its upload goes on) while the rows reload. */
    importer: {
      initial: 'closed',
      states: {
        closed: { on: { 'import.toggle': 'open' } },
        open: { on: { 'import.toggle': 'closed' } },
      },
    },
  },
})

type TableGridSnapshot = SnapshotFrom<typeof tableGridMachine>

/** The query a URL's search names: `?sort=[…]&filters=[…]&size=500&page=2` (pages count from 1 in the URL). */
export function gridQueryOf(search: string): GridQuery {
  const params = new URLSearchParams(search)
  const list = <T>(name: string): T[] => {
    try {
      const value = JSON.parse(params.get(name) ?? '[]') as unknown
      return Array.isArray(value) ? (value as T[]) : []
    } catch {
      return []
    }
  }
  const size = Number(params.get('size') ?? '100')
  const page = Number(params.get('page') ?? '1')
  return {
    sort: list<RowSort>('sort'),
    filters: list<RowFilter>('filters'),
    pageSize: [100, 500, 1000].includes(size) ? size : 100,
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
  }
}

/** The search of a query, the inverse of gridQueryOf (defaults left out). */
export function gridSearchOf(query: GridQuery): string {
  const params = new URLSearchParams()
  if (query.sort.length > 0) params.set('sort', JSON.stringify(query.sort))
  if (query.filters.length > 0) params.set('filters', JSON.stringify(query.filters))
  if (query.pageSize !== 100) params.set('size', String(query.pageSize))
  if (query.page > 0) params.set('page', String(query.page + 1))
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

export type TableGridView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      page: RowsPage
      query: GridQuery
      editable: boolean
      busy: 'loading' | 'saving' | 'undoing' | 'inserting' | 'deleting' | null
      confirmDelete: number | null
      conflict: { message: string; current: Row | null } | null
      error: string | null
      canUndo: boolean
      pageCount: number
      /** The picked rows' primary keys. */
      selected: Row[]
      insertOpen: boolean
      importOpen: boolean
      picker: PickerView | null
    }

export interface PickerView {
  column: string
  reference: ColumnReference
  term: string
  phase: 'searching' | 'found' | 'failed'
  error: string | null
  /** The rows found: each one's key (the value the cell takes) and its label, when the table has a text column. */
  options: { value: unknown; label: string | null }[]
  /** Where the page is among the rows found (its first row's 1-based position and the count), once read. */
  from: number
  total: number
  page: number
  pageCount: number
  nullable: boolean
}

function pickerViewOf(snapshot: TableGridSnapshot): PickerView | null {
  const picker = snapshot.context.picker
  if (picker === null || !snapshot.matches({ rows: 'picking' })) return null
  const phase = snapshot.matches({ rows: { picking: 'failed' } }) ? 'failed' : snapshot.matches({ rows: { picking: 'found' } }) ? 'found' : 'searching'
  const found = picker.found
  const { column, label } = picker.reference
  return {
    column: picker.column,
    reference: picker.reference,
    term: picker.term,
    phase,
    error: phase === 'failed' ? snapshot.context.error : null,
    options: (found?.rows ?? []).map((row) => ({ value: row[column], label: label === null || row[label] === null || row[label] === undefined ? null : String(row[label]) })),
    from: found ? found.offset + 1 : 0,
    total: found?.total ?? 0,
    page: picker.page,
    pageCount: Math.max(1, Math.ceil((found?.total ?? 0) / PICKER_PAGE_SIZE)),
    nullable: picker.nullable,
  }
}

/** A row's key as the grid tells picked rows apart: its primary key's values, in the key's column order. */
export const rowKeyOf = (primaryKeys: string[], row: Row) => JSON.stringify(primaryKeys.map((k) => row[k]))

export function selectTableGridView(snapshot: TableGridSnapshot): TableGridView {
  const { page, error, query, deleting, current, lastEdit, selected } = snapshot.context
  const rows = (state: TableGridSnapshot['value']['rows']) => snapshot.matches({ rows: state })
  if (rows('failed')) return { phase: 'failed', error: error ?? 'Failed to load rows' }
  // A reload keeps the rows read before on screen (and what is open around them) until the new ones arrive.
  if (page === null) return { phase: 'loading' }
  const busy = (['loading', 'saving', 'undoing', 'inserting', 'deleting'] as const).find((state) => rows(state)) ?? null
  return {
    phase: 'ready',
    page,
    query,
    editable: page.primary_keys.length > 0,
    busy,
    confirmDelete: rows('confirmingDelete') ? deleting.length : null,
    conflict: rows('conflict') ? { message: error ?? 'The row was changed meanwhile', current } : null,
    error: rows('writeFailed') ? error : null,
    canUndo: lastEdit !== null && rows('idle'),
    pageCount: Math.max(1, Math.ceil(page.total / query.pageSize)),
    selected,
    insertOpen: rows('composing'),
    importOpen: snapshot.matches({ importer: 'open' }),
    picker: pickerViewOf(snapshot),
  }
}
