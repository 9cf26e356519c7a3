import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { selectTableEditorView, selectionOf, tableEditorHref, tableEditorMachine, type RowsRequest, type TableSelection } from '../../machines/tableEditor.machine'
import type { DatabaseTable, TableRows } from '../../src/contracts/database'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'
const table = (name: string): DatabaseTable => ({
  name,
  schema: 'public',
  kind: 'table',
  comment: null,
  rls_enabled: false,
  estimated_rows: 250,
  columns: [{ name: 'id', data_type: 'bigint', is_nullable: false, default_value: null, is_identity: true, is_primary_key: true, comment: null, enums: [] }],
  primary_keys: ['id'],
  relationships: [],
})
const TABLES = [table('orders'), table('customers')]
const rowsOf = (request: RowsRequest, total = 250): TableRows => ({
  columns: [{ name: 'id', type: 'bigint' }],
  rows: Array.from({ length: Math.max(0, Math.min(request.limit, total - request.offset)) }, (_, i) => ({ id: request.offset + i + 1 })),
  offset: request.offset,
  limit: request.limit,
  total,
})

function start(selection: TableSelection) {
  const list = deferredActor<DatabaseTable[], { ref: string }>('listTables')
  const rows = deferredActor<TableRows, RowsRequest>('getTableRows')
  const actor = createActor(tableEditorMachine.provide({ actors: { listTables: list.logic, getTableRows: rows.logic } }), {
    input: { ref: REF, ...selection },
  }).start()
  return { actor, lists: list.runs, loads: rows.runs, view: () => selectTableEditorView(actor.getSnapshot()) }
}

usePathClock()

describe('table editor machine', () => {
  it('lists the tables and, with no table in the URL, invites a choice without loading rows', async () => {
    const { lists, loads, view } = start({ table: null, page: 0 })
    expect(view()).toEqual({ phase: 'loading' })
    expect(lists[0].input).toEqual({ ref: REF })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'ready', tables: TABLES, selected: null, content: { kind: 'choose' } })
    expect(loads).toHaveLength(0)
  })

  it('loads the page the URL names, 100 rows from page × 100, and offers the pages around it', async () => {
    const { lists, loads, view } = start({ table: 'orders', page: 1 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'loading', table: { name: 'orders' } } })
    expect(loads[0].input).toEqual({ ref: REF, table: 'orders', offset: 100, limit: 100 })
    loads[0].resolve(rowsOf(loads[0].input))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({
      content: { kind: 'rows', first: 101, last: 200, pageCount: 3, previous: { table: 'orders', page: 0 }, next: { table: 'orders', page: 2 } },
    })
  })

  it('the last page has no next, the first no previous; an empty table has one page and no rows', async () => {
    const { actor, lists, loads, view } = start({ table: 'orders', page: 2 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    loads[0].resolve(rowsOf(loads[0].input))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'rows', first: 201, last: 250, previous: { page: 1 }, next: null } })
    actor.send({ type: 'selection.changed', table: 'customers', page: 0 })
    loads[1].resolve(rowsOf(loads[1].input, 0))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'rows', first: 0, last: 0, pageCount: 1, previous: null, next: null } })
  })

  it('a selection equal to the current one loads nothing again; another one loads its rows', async () => {
    const { actor, lists, loads } = start({ table: 'orders', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    loads[0].resolve(rowsOf(loads[0].input))
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'selection.changed', table: 'orders', page: 0 })
    expect(loads).toHaveLength(1)
    actor.send({ type: 'selection.changed', table: 'orders', page: 1 })
    expect(loads.map((load) => load.input.offset)).toEqual([0, 100])
  })

  it('a new selection while rows load abandons that request', async () => {
    const { actor, lists, loads, view } = start({ table: 'orders', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'selection.changed', table: 'customers', page: 0 })
    expect(loads[0].signal.aborted).toBe(true)
    expect(loads[1].input.table).toBe('customers')
    expect(view()).toMatchObject({ selected: 'customers', content: { kind: 'loading' } })
  })

  it('a selection made while the list loads is the one loaded', async () => {
    const { actor, lists, loads } = start({ table: null, page: 0 })
    actor.send({ type: 'selection.changed', table: 'customers', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    expect(loads.map((load) => load.input.table)).toEqual(['customers'])
  })

  it('a table the list does not hold is reported and never requested', async () => {
    const { lists, loads, view } = start({ table: 'ghosts', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'missing', table: 'ghosts' } })
    expect(loads).toHaveLength(0)
  })

  it('rows the platform answers after 25 s (a slot wait, then a query up to its time-out) are shown, not abandoned', async () => {
    const { lists, loads, view } = start({ table: 'orders', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(25_000)
    expect(loads[0].signal.aborted).toBe(false)
    loads[0].resolve(rowsOf(loads[0].input))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'rows' } })
  })

  it('rows unanswered for the project database time-out are abandoned and reported; a retry loads them; the table list stays', async () => {
    const { actor, lists, loads, view } = start({ table: 'orders', page: 0 })
    lists[0].resolve(TABLES)
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(loads[0].signal.aborted).toBe(true)
    expect(view()).toMatchObject({ tables: TABLES, content: { kind: 'failed', error: 'The request timed out' } })
    actor.send({ type: 'rows.retry' })
    loads[1].resolve(rowsOf(loads[1].input))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ content: { kind: 'rows' } })
  })

  it('a failed list shows the message and retries; so does a list unanswered for the project database time-out', async () => {
    const { actor, lists, view } = start({ table: null, page: 0 })
    lists[0].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'failed', error: 'Internal server error' })
    actor.send({ type: 'tables.retry' })
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(lists[1].signal.aborted).toBe(true)
    expect(view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })
})

describe('the selection in the URL', () => {
  it('reads table and 1-based page, ignoring what is not a page', () => {
    expect(selectionOf('')).toEqual({ table: null, page: 0 })
    expect(selectionOf('table=orders')).toEqual({ table: 'orders', page: 0 })
    expect(selectionOf('table=orders&page=3')).toEqual({ table: 'orders', page: 2 })
    expect(selectionOf('?table=order%20items&page=0')).toEqual({ table: 'order items', page: 0 })
    expect(selectionOf('table=&page=x')).toEqual({ table: null, page: 0 })
  })

  it('writes what it reads', () => {
    for (const selection of [{ table: null, page: 0 }, { table: 'orders', page: 0 }, { table: 'order items', page: 4 }]) {
      const href = tableEditorHref(REF, selection)
      expect(href.startsWith(`/project/${REF}/editor`)).toBe(true)
      expect(selectionOf(href.split('?')[1] ?? '')).toEqual(selection)
    }
  })
})
