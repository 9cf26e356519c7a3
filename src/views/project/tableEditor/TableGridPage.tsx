/**
 * /project/{ref}/editor/table/{table}: a table's rows in an editable grid. Rows and columns are virtualised
 * (@tanstack/react-virtual) and columns resizable and hideable (@tanstack/react-table); sort, filters, page size and
 * page live in the URL (a reload or a shared link opens the same view). A cell opens a typed editor; the machine
 * saves it. Loaded with its page only.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { getCoreRowModel, useReactTable, type ColumnDef, type ColumnSizingState, type VisibilityState } from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { Link, useLocation, useRoute, useSearch } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { gridQueryOf, gridSearchOf, rowKeyOf, selectTableGridView, type GridQuery, type PickerView, type Row, type TableGridView, type tableGridMachine } from '../../../../machines/tableGrid.machine'
import { selectTableImportView, type tableImportMachine } from '../../../../machines/tableImport.machine'
import { FILTER_OPERATORS, PAGE_SIZES, type FilterOperator, type GridColumn, type RowFilter } from '../../../contracts/tableEditor'
import { config } from '../../../config'
import { pathOf } from '../../../contracts/endpoint'
import { exportCsv } from '../../../contracts/endpoints/tableEditor'
import { href } from '../../../href'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { useDocumentTitle } from '../../shell/useDocumentTitle'
import { Button, ErrorPanel, InlineError, Loading, PageHeading, cx, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import { CellEditor, cellPreview, cellText, editorKindOf, parseCell } from './cells'

export type TableGridActorRef = ActorRefFrom<typeof tableGridMachine>
type ImportActorRef = ActorRefFrom<typeof tableImportMachine>
type Ready = Extract<TableGridView, { phase: 'ready' }>

const ROW_HEIGHT = 36

export function TableGridPage() {
  const logic = useAppLogic()
  const [, params] = useRoute<{ ref: string; table: string }>('/project/:ref/editor/table/:table')
  const table = params?.table ? decodeURIComponent(params.table) : ''
  const search = useSearch()
  useDocumentTitle(table === '' ? null : `${table} | Table Editor`)
  return (
    <ProjectMachinePage
      key={table}
      machine={logic.tableGrid}
      heading={{ title: table, description: 'Rows of the table' }}
      loadingLabel="Loading rows…"
      input={(ref) => ({ ref, table, query: gridQueryOf(search) })}
      render={(actor) => <TableGrid actor={actor} importMachine={logic.tableImport} />}
    />
  )
}

export function tableGridHref(ref: string, table: string, query?: GridQuery) {
  return `${href.project(ref, `editor/table/${encodeURIComponent(table)}`)}${query ? gridSearchOf(query) : ''}`
}

export function TableGrid({ actor, importMachine }: { actor: TableGridActorRef; importMachine: ReturnType<typeof useAppLogic>['tableImport'] }) {
  const search = useSearch()
  const [, navigate] = useLocation()
  useEffect(() => {
    actor.send({ type: 'query.changed', query: gridQueryOf(search) })
  }, [actor, search])
  const view = useSelector(actor, selectTableGridView)
  const ref = useSelector(actor, (s) => s.context.ref)
  const table = useSelector(actor, (s) => s.context.table)
  const go = (query: GridQuery) => navigate(tableGridHref(ref, table, query))
  return (
    <div className={PAGE_CLASS}>
      <p className="mb-2 text-sm">
        <Link href={href.tableEditor(ref, null)} className="text-emerald-800 underline dark:text-emerald-400">
          All tables
        </Link>{' '}
        ·{' '}
        <Link href={href.project(ref, `editor/table/${encodeURIComponent(table)}/edit`)} className="text-emerald-800 underline dark:text-emerald-400">
          Edit table
        </Link>
      </p>
      <PageHeading title={table} description="Rows of the table: edit a cell in place, insert, delete, import and export." />
      {view.phase === 'loading' ? <Loading label="Loading rows…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load rows" message={view.error} onRetry={() => actor.send({ type: 'rows.retry' })} /> : null}
      {view.phase === 'ready' ? <ReadyGrid actor={actor} view={view} go={go} ref_={ref} table={table} importMachine={importMachine} /> : null}
    </div>
  )
}

function ReadyGrid({
  actor, view, go, ref_, table, importMachine,
}: { actor: TableGridActorRef; view: Ready; go: (q: GridQuery) => void; ref_: string; table: string; importMachine: ReturnType<typeof useAppLogic>['tableImport'] }) {
  const { page, query } = view
  const keyOf = (row: Row) => rowKeyOf(page.primary_keys, row)
  const keyValues = (row: Row) => Object.fromEntries(page.primary_keys.map((k) => [k, row[k]]))
  const selected = view.selected.map(keyOf)
  const busy = view.busy !== null
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <FilterForm columns={page.columns} query={query} go={go} />
        <Button disabled={!view.editable || busy} onClick={() => actor.send({ type: 'insert.open' })}>
          Insert row
        </Button>
        <Button
          disabled={!view.editable || busy || selected.length === 0}
          onClick={() => actor.send({ type: 'rows.delete' })}
        >
          Delete {selected.length > 0 ? `${selected.length} selected` : 'selected'}
        </Button>
        <Button disabled={!view.canUndo} onClick={() => actor.send({ type: 'edit.undo' })}>
          Undo last edit
        </Button>
        <Button onClick={() => actor.send({ type: 'import.toggle' })} aria-expanded={view.importOpen}>
          Import CSV
        </Button>
        <a className="inline-flex items-center rounded-md border border-neutral-300 px-3 py-1.5 text-sm font-medium dark:border-neutral-700" href={`${config.platformUrl}${pathOf(exportCsv, { ref: ref_, table })}`} download>
          Export CSV
        </a>
      </div>
      {!view.editable ? (
        <p role="note" className="text-sm text-amber-800 dark:text-amber-300">
          This table has no primary key (or is a view): its rows can be read here but not edited.
        </p>
      ) : null}
      {view.importOpen ? <ImportPanel machine={importMachine} projectRef={ref_} table={table} onImported={() => actor.send({ type: 'rows.reload' })} /> : null}
      {view.error ? (
        <div role="alert" className="flex items-center gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
          <span>{view.error}</span>
          <Button onClick={() => actor.send({ type: 'error.dismiss' })}>Dismiss</Button>
        </div>
      ) : null}
      {view.conflict ? (
        <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
          <p>{view.conflict.message}</p>
          {view.conflict.current ? (
            <pre className="overflow-x-auto text-xs">{JSON.stringify(Object.fromEntries(Object.entries(view.conflict.current).map(([name, value]) => [name, typeof value === 'string' ? cellPreview(value) : value])), null, 2)}</pre>
          ) : null}
          <div className="flex gap-2">
            <Button onClick={() => actor.send({ type: 'conflict.reload' })}>Reload rows</Button>
            <Button onClick={() => actor.send({ type: 'error.dismiss' })}>Keep my view</Button>
          </div>
        </div>
      ) : null}
      <Grid
        columns={page.columns}
        rows={page.rows}
        query={query}
        go={go}
        editable={view.editable && !busy}
        selected={selected}
        onSelect={(row, picked) => actor.send({ type: 'row.select', key: keyValues(row), selected: picked })}
        keyOf={keyOf}
        label={`Rows of ${table}`}
        onSave={(row, column, value) => actor.send({ type: 'cell.save', edit: { key: keyValues(row), column, before: row[column], after: value } })}
        onPick={(row, column) => actor.send({ type: 'picker.open', key: keyValues(row), column, before: row[column] })}
      />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span role="status">
          {page.rows.length === 0 ? 'No rows' : `Rows ${page.offset + 1}–${page.offset + page.rows.length}`} of {page.total.toLocaleString('en-US')}
          {view.busy ? ` · ${view.busy}…` : ''}
        </span>
        <Button disabled={query.page === 0} onClick={() => go({ ...query, page: query.page - 1 })}>
          Previous page
        </Button>
        <Button disabled={query.page + 1 >= view.pageCount} onClick={() => go({ ...query, page: query.page + 1 })}>
          Next page
        </Button>
        <label className="flex items-center gap-2">
          Rows per page
          <select className={inputClass} value={query.pageSize} onChange={(e) => go({ ...query, pageSize: Number(e.target.value), page: 0 })}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Modal open={view.confirmDelete !== null} onClose={() => actor.send({ type: 'delete.cancel' })} title="Delete rows">
        <p className="text-sm">
          Delete {view.confirmDelete} row{view.confirmDelete === 1 ? '' : 's'} of {table}? This cannot be undone.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => actor.send({ type: 'delete.cancel' })}>Cancel</Button>
          <Button variant="danger" onClick={() => actor.send({ type: 'delete.confirm' })}>
            Delete
          </Button>
        </div>
      </Modal>
      {view.picker ? <ReferencePicker actor={actor} picker={view.picker} /> : null}
      {view.insertOpen ? (
        <InsertPanel columns={page.columns} onClose={() => actor.send({ type: 'insert.cancel' })} onInsert={(values) => actor.send({ type: 'row.insert', values })} />
      ) : null}
    </div>
  )
}

function FilterForm({ columns, query, go }: { columns: GridColumn[]; query: GridQuery; go: (q: GridQuery) => void }) {
  const id = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const operator = String(data.get('operator')) as FilterOperator
    const raw = String(data.get('value') ?? '')
    const filter: RowFilter = { column: String(data.get('column')), operator, value: operator === 'in' ? raw.split(',').map((v) => v.trim()) : raw }
    go({ ...query, filters: [...query.filters, filter], page: 0 })
  }
  return (
    <div className="flex flex-wrap items-end gap-2">
      <form onSubmit={submit} aria-label="Filter rows" className="flex flex-wrap items-end gap-2">
        <label className="text-xs" htmlFor={`${id}-c`}>
          Column
          <select id={`${id}-c`} name="column" className={inputClass}>
            {columns.map((c) => (
              <option key={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <label className="text-xs" htmlFor={`${id}-o`}>
          Operator
          <select id={`${id}-o`} name="operator" className={inputClass}>
            {FILTER_OPERATORS.map((op) => (
              <option key={op}>{op}</option>
            ))}
          </select>
        </label>
        <label className="text-xs" htmlFor={`${id}-v`}>
          Value
          <input id={`${id}-v`} name="value" className={inputClass} />
        </label>
        <Button type="submit">Add filter</Button>
      </form>
      {query.filters.map((f, i) => (
        <Button key={i} aria-label={`Remove filter ${f.column} ${f.operator} ${String(f.value)}`} onClick={() => go({ ...query, filters: query.filters.filter((_, j) => j !== i), page: 0 })}>
          {f.column} {f.operator} {String(f.value)} ✕
        </Button>
      ))}
    </div>
  )
}

interface GridProps {
  columns: GridColumn[]
  rows: Row[]
  query: GridQuery
  go: (q: GridQuery) => void
  editable: boolean
  selected: string[]
  onSelect: (row: Row, selected: boolean) => void
  keyOf: (row: Row) => string
  label: string
  onSave: (row: Row, column: string, value: unknown) => void
  /** A foreign key cell opens the picker of the table it references instead of a typed editor. */
  onPick: (row: Row, column: string) => void
}

function Grid({ columns, rows, query, go, editable, selected, onSelect, keyOf, label, onSave, onPick }: GridProps) {
  const [sizing, setSizing] = useState<ColumnSizingState>({})
  const [visibility, setVisibility] = useState<VisibilityState>({})
  const [editing, setEditing] = useState<{ row: number; column: string } | null>(null)
  const defs = useMemo<ColumnDef<Row>[]>(() => columns.map((c) => ({ id: c.name, accessorFn: (row) => row[c.name], size: 180, minSize: 60 })), [columns])
  const table = useReactTable({
    data: rows,
    columns: defs,
    state: { columnSizing: sizing, columnVisibility: visibility },
    onColumnSizingChange: setSizing,
    onColumnVisibilityChange: setVisibility,
    columnResizeMode: 'onChange',
    getCoreRowModel: getCoreRowModel(),
  })
  const visible = table.getVisibleLeafColumns()
  const headerOf = (id: string) => table.getFlatHeaders().find((h) => h.column.id === id)
  const scroller = useRef<HTMLDivElement>(null)
  const rowVirtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 })
  const colVirtual = useVirtualizer({ horizontal: true, count: visible.length, getScrollElement: () => scroller.current, estimateSize: (i) => visible[i].getSize(), overscan: 3 })
  useEffect(() => colVirtual.measure(), [sizing, visibility, colVirtual])
  const sortOf = (name: string) => query.sort.find((s) => s.column === name)
  const toggleSort = (name: string) => {
    const now = sortOf(name)
    const sort = now === undefined ? [{ column: name, ascending: true }] : now.ascending ? [{ column: name, ascending: false }] : []
    go({ ...query, sort, page: 0 })
  }
  const totalWidth = colVirtual.getTotalSize() + 40
  const columnOf = (name: string) => columns.find((c) => c.name === name)!
  return (
    <div className="space-y-2">
      <details className="text-sm">
        <summary className="cursor-pointer">Columns shown</summary>
        <fieldset className="mt-2 flex flex-wrap gap-3">
          <legend className="sr-only">Columns shown</legend>
          {table.getAllLeafColumns().map((column) => (
            <label key={column.id} className="flex items-center gap-1">
              <input type="checkbox" checked={column.getIsVisible()} onChange={column.getToggleVisibilityHandler()} />
              {column.id}
            </label>
          ))}
        </fieldset>
      </details>
      <div ref={scroller} className="h-[28rem] overflow-auto rounded-md border border-neutral-200 dark:border-neutral-800" data-testid="grid-scroller">
        <div role="grid" aria-label={label} aria-rowcount={rows.length + 1} aria-colcount={visible.length + 1} style={{ width: totalWidth, position: 'relative' }}>
          <div role="row" aria-rowindex={1} className="sticky top-0 z-10 flex bg-neutral-100 dark:bg-neutral-900" style={{ height: ROW_HEIGHT, width: totalWidth }}>
            <div role="columnheader" className="w-10 shrink-0" aria-label="Select" />
            <div style={{ width: colVirtual.getVirtualItems()[0]?.start ?? 0 }} className="shrink-0" />
            {colVirtual.getVirtualItems().map((vc) => {
              const column = visible[vc.index]
              const meta = columnOf(column.id)
              const sort = sortOf(column.id)
              return (
                <div
                  key={column.id}
                  role="columnheader"
                  aria-sort={sort ? (sort.ascending ? 'ascending' : 'descending') : 'none'}
                  className="relative flex shrink-0 items-center border-r border-neutral-200 px-2 text-left text-xs font-semibold dark:border-neutral-800"
                  style={{ width: column.getSize() }}
                >
                  <button type="button" className="truncate text-left" onClick={() => toggleSort(column.id)} title={`Sort by ${column.id}`}>
                    <span className="font-mono">{column.id}</span> <span className="font-normal text-neutral-600 dark:text-neutral-400">{meta.type}</span>
                    {sort ? (sort.ascending ? ' ↑' : ' ↓') : ''}
                  </button>
                  <div
                    aria-hidden
                    onMouseDown={headerOf(column.id)?.getResizeHandler()}
                    onTouchStart={headerOf(column.id)?.getResizeHandler()}
                    className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize hover:bg-emerald-600"
                  />
                </div>
              )
            })}
          </div>
          <div style={{ height: rowVirtual.getTotalSize(), position: 'relative' }}>
            {rowVirtual.getVirtualItems().map((vr) => {
              const row = rows[vr.index]
              const key = keyOf(row)
              return (
                <div
                  key={vr.key}
                  role="row"
                  aria-rowindex={vr.index + 2}
                  className="absolute left-0 flex border-b border-neutral-100 dark:border-neutral-800"
                  style={{ transform: `translateY(${vr.start}px)`, height: ROW_HEIGHT, width: totalWidth }}
                >
                  <div role="gridcell" className="flex w-10 shrink-0 items-center justify-center">
                    <input
                      type="checkbox"
                      aria-label={`Select row ${vr.index + 1}`}
                      disabled={!editable}
                      checked={selected.includes(key)}
                      onChange={(e) => onSelect(row, e.target.checked)}
                    />
                  </div>
                  <div style={{ width: colVirtual.getVirtualItems()[0]?.start ?? 0 }} className="shrink-0" />
                  {colVirtual.getVirtualItems().map((vc) => {
                    const column = visible[vc.index]
                    const meta = columnOf(column.id)
                    const isEditing = editing?.row === vr.index && editing.column === column.id
                    const open = () => {
                      if (!editable) return
                      if (meta.references?.schema === 'public') onPick(row, column.id)
                      else setEditing({ row: vr.index, column: column.id })
                    }
                    return (
                      <div
                        key={column.id}
                        role="gridcell"
                        tabIndex={0}
                        aria-label={`${column.id}, row ${vr.index + 1}: ${cellPreview(row[column.id])}`}
                        className="flex shrink-0 items-center overflow-hidden border-r border-neutral-100 px-2 font-mono text-xs dark:border-neutral-800"
                        style={{ width: column.getSize() }}
                        onDoubleClick={open}
                        onKeyDown={(e: KeyboardEvent) => {
                          if (e.key === 'Enter' && !isEditing) open()
                        }}
                      >
                        {isEditing ? (
                          <CellEditor
                            column={meta}
                            value={row[column.id]}
                            onCancel={() => setEditing(null)}
                            onSave={(value) => {
                              setEditing(null)
                              onSave(row, column.id, value)
                            }}
                          />
                        ) : (
                          <span className={cx('truncate', row[column.id] === null && 'text-neutral-500 italic')}>{cellPreview(row[column.id])}</span>
                        )}
                      </div>
                    )
                  })}
                </div>
              )
            })}
          </div>
        </div>
      </div>
    </div>
  )
}

/** A foreign key cell's picker: the referenced table searched by its key or its first text column, a page at a time. */
function ReferencePicker({ actor, picker }: { actor: TableGridActorRef; picker: PickerView }) {
  const { reference } = picker
  const close = () => actor.send({ type: 'picker.cancel' })
  return (
    <Modal open onClose={close} title={`Choose a row of ${reference.table}`} size="lg">
      <div className="space-y-3 text-sm">
        <p>
          <span className="font-mono">{picker.column}</span> references <span className="font-mono">{reference.table}.{reference.column}</span>: the row chosen sets it.
        </p>
        <label className="block">
          Search {reference.table} by {reference.label === null ? reference.column : `${reference.column} or ${reference.label}`}
          <input type="search" className={inputClass} value={picker.term} autoFocus onChange={(e) => actor.send({ type: 'picker.search', term: e.target.value })} />
        </label>
        {picker.phase === 'searching' ? <Loading label={`Searching ${reference.table}…`} /> : null}
        {picker.phase === 'failed' ? (
          <div role="alert" className="flex items-center gap-3 text-red-800 dark:text-red-300">
            <span>{picker.error}</span>
            <Button onClick={() => actor.send({ type: 'picker.retry' })}>Try again</Button>
          </div>
        ) : null}
        {picker.phase === 'found' ? (
          <>
            {picker.options.length === 0 ? (
              <p>No rows of {reference.table} match.</p>
            ) : (
              <ul aria-label={`Rows of ${reference.table}`} className="divide-y divide-neutral-200 rounded-md border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
                {picker.options.map((option) => (
                  <li key={cellText(option.value)}>
                    <button type="button" className="flex w-full gap-3 px-3 py-2 text-left hover:bg-neutral-100 dark:hover:bg-neutral-800" onClick={() => actor.send({ type: 'picker.choose', value: option.value })}>
                      <span className="font-mono">{cellText(option.value)}</span>
                      {option.label !== null ? <span className="truncate text-neutral-700 dark:text-neutral-300">{option.label}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <span role="status">{picker.total === 0 ? 'No rows' : `Rows ${picker.from}–${picker.from + picker.options.length - 1} of ${picker.total.toLocaleString('en-US')}`}</span>
              <Button disabled={picker.page === 0} onClick={() => actor.send({ type: 'picker.page', page: picker.page - 1 })}>
                Previous
              </Button>
              <Button disabled={picker.page + 1 >= picker.pageCount} onClick={() => actor.send({ type: 'picker.page', page: picker.page + 1 })}>
                Next
              </Button>
            </div>
          </>
        ) : null}
        <div className="flex justify-end gap-2">
          {picker.nullable ? (
            <Button disabled={picker.phase !== 'found'} onClick={() => actor.send({ type: 'picker.choose', value: null })}>
              Set to NULL
            </Button>
          ) : null}
          <Button onClick={close}>Cancel</Button>
        </div>
      </div>
    </Modal>
  )
}

/**
 * The side panel of a new row, at the window's right edge as the platform has it: every column with its default shown;
 * a column left untouched takes its default.
 */
function InsertPanel({ columns, onClose, onInsert }: { columns: GridColumn[]; onClose: () => void; onInsert: (values: Row) => void }) {
  const [error, setError] = useState<string | null>(null)
  // The panel opens on the first value a person writes: a generated key or a column with a default is left to the database.
  const first = (columns.find((c) => !c.is_identity && c.default_value === null) ?? columns.find((c) => !c.is_identity) ?? columns[0])?.name
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const values: Row = {}
    try {
      for (const column of columns) {
        const raw = data.get(column.name)
        if (raw === null || raw === '') continue
        values[column.name] = parseCell(column, String(raw))
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
      return
    }
    onInsert(values)
  }
  return (
    <Modal open onClose={onClose} title="Insert a row" size="lg" placement="side">
      <form onSubmit={submit} className="space-y-3" aria-label="New row">
        {columns.map((column) => (
          <label key={column.name} className="block text-sm">
            <span className="font-mono">{column.name}</span> <span className="text-neutral-600 dark:text-neutral-400">{column.type}</span>
            {editorKindOf(column) === 'json' ? (
              <textarea name={column.name} className={inputClass} placeholder={placeholderOf(column)} autoFocus={column.name === first} />
            ) : (
              <input
                name={column.name}
                className={inputClass}
                placeholder={placeholderOf(column)}
                list={column.enums.length > 0 ? `enum-${column.name}` : undefined}
                autoFocus={column.name === first}
              />
            )}
            {column.enums.length > 0 ? (
              <datalist id={`enum-${column.name}`}>
                {column.enums.map((label) => (
                  <option key={label} value={label} />
                ))}
              </datalist>
            ) : null}
          </label>
        ))}
        {error ? <InlineError>{error}</InlineError> : null}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary">
            Save row
          </Button>
        </div>
      </form>
    </Modal>
  )
}

const placeholderOf = (column: GridColumn) =>
  column.is_identity ? 'Default: generated' : column.default_value !== null ? `Default: ${column.default_value}` : column.is_nullable ? 'NULL' : 'Required'

function ImportPanel({ machine, projectRef, table, onImported }: { machine: ReturnType<typeof useAppLogic>['tableImport']; projectRef: string; table: string; onImported: () => void }) {
  const actor: ImportActorRef = useActorRef(useLoaded(machine), { input: { ref: projectRef, table } })
  const view = useSelector(actor, selectTableImportView)
  const reported = useRef(false)
  useEffect(() => {
    if (view.phase === 'imported' && !reported.current) {
      reported.current = true
      onImported()
    }
    if (view.phase !== 'imported') reported.current = false
  }, [view.phase, onImported])
  return (
    <section aria-label="Import CSV" className="space-y-2 rounded-md border border-neutral-200 p-3 text-sm dark:border-neutral-800">
      <label className="block">
        CSV file (a header row naming the columns; UTF-8, or UTF-16 with its byte order mark)
        <input
          type="file"
          accept=".csv,text/csv"
          className="mt-1 block"
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) actor.send({ type: 'file.chosen', file, name: file.name })
          }}
        />
      </label>
      {view.phase === 'uploading' ? (
        <div className="space-y-1">
          <progress max={100} value={view.percent} aria-label={`Importing ${view.fileName}`} className="w-full" />
          <Button onClick={() => actor.send({ type: 'upload.cancel' })}>Cancel import</Button>
        </div>
      ) : null}
      {view.phase === 'imported' ? (
        <p role="status">
          Imported {view.inserted} row{view.inserted === 1 ? '' : 's'} from {view.fileName}.
        </p>
      ) : null}
      {view.phase === 'refused' ? (
        <div role="alert" className="text-red-800 dark:text-red-300">
          <p>{view.error}</p>
          {view.badRows.length > 0 ? (
            <ul className="list-disc pl-5">
              {view.badRows.map((bad) => (
                <li key={bad.line}>
                  Line {bad.line}: {bad.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
