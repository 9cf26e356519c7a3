import { useSelector } from '@xstate/react'
import { memo, useId, useMemo, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { Link, useRoute } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import {
  URL_EXPIRIES,
  sameRowActions,
  selectExplorerView,
  selectRowActions,
  selectUploads,
  sizeLabel,
  type ExplorerView,
  type PanelView,
  type RowActions,
  type storageExplorerMachine,
} from '../../../../machines/storageExplorer.machine'
import { mimeTypesLabel, sizeLimitLabel } from '../../../../machines/storageBuckets.machine'
import { selectUploadView, type storageUploadMachine } from '../../../../machines/storageUpload.machine'
import { FOLDER_PLACEHOLDER, type StorageListItem } from '../../../contracts/storageObjects'
import { href } from '../../../href'
import { Field, fieldAria } from '../../shell/Field'
import { BucketLimitFields } from './BucketLimitFields'
import { Modal } from '../../shell/Modal'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, DataList, ErrorPanel, InlineError, Loading, PageHeading, cx, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import { useVirtualRows } from './virtualRows'

export type StorageExplorerActorRef = ActorRefFrom<typeof storageExplorerMachine>
type UploadActorRef = ActorRefFrom<typeof storageUploadMachine>
type Browsing = Extract<ExplorerView, { phase: 'browsing' }>

const DESCRIPTION = "The bucket's folders and files: upload, preview, share and tidy them."

/** /project/{ref}/storage/buckets/{bucket} */
export function StorageExplorerPage() {
  const logic = useAppLogic()
  // Inside a project every route is matched on the whole address (the nest hands the root router back).
  const [, params] = useRoute<{ ref: string; bucket: string }>('/project/:ref/storage/buckets/:bucket')
  const bucketId = params?.bucket ?? ''
  return (
    <ProjectMachinePage
      key={bucketId}
      machine={logic.storageExplorer}
      heading={{ title: bucketId, description: DESCRIPTION }}
      loadingLabel="Loading files…"
      input={(ref) => ({ ref, bucketId })}
      render={(actor) => <StorageExplorer actor={actor} />}
    />
  )
}

export function StorageExplorer({ actor }: { actor: StorageExplorerActorRef }) {
  const view = useSelector(actor, selectExplorerView)
  const projectRef = useSelector(actor, (snapshot) => snapshot.context.ref)
  const bucketId = useSelector(actor, (snapshot) => snapshot.context.bucketId)
  const canSettings = useSelector(actor, (snapshot) => snapshot.can({ type: 'settings.open' }))
  return (
    <div className={PAGE_CLASS}>
      <p className="mb-2 text-sm">
        <Link href={href.project(projectRef, 'storage/buckets')} className="text-emerald-800 underline dark:text-emerald-400">
          All buckets
        </Link>
      </p>
      <PageHeading
        title={bucketId}
        description={DESCRIPTION}
        actions={
          view.phase === 'browsing' && view.writable ? (
            <Button disabled={!canSettings} onClick={() => actor.send({ type: 'settings.open' })}>
              Bucket settings
            </Button>
          ) : null
        }
      />
      {view.phase === 'connecting' ? <Loading label="Loading files…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to open the bucket" message={view.error} onRetry={() => actor.send({ type: 'explorer.retry' })} /> : null}
      {view.phase === 'browsing' ? <Browser actor={actor} view={view} /> : null}
    </div>
  )
}

function Browser({ actor, view }: { actor: StorageExplorerActorRef; view: Browsing }) {
  const canAdd = useSelector(actor, (snapshot) => snapshot.can({ type: 'files.add', files: [] }))
  const canNewFolder = useSelector(actor, (snapshot) => snapshot.can({ type: 'folder.new' }))
  const canReload = useSelector(actor, (snapshot) => snapshot.can({ type: 'folder.reload' }))
  const canDeleteSelection = useSelector(actor, (snapshot) => snapshot.can({ type: 'selection.delete' }))
  const [dragging, setDragging] = useState(false)
  const inputId = useId()

  function drop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    const files = [...event.dataTransfer.files]
    if (files.length > 0) actor.send({ type: 'files.add', files })
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        {view.bucket.public ? 'Public bucket' : 'Private bucket'} · {mimeTypesLabel(view.bucket.allowed_mime_types)} · {sizeLimitLabel(view.bucket.file_size_limit)}
      </p>
      {view.writable ? null : (
        <p role="note" className="rounded-md border border-neutral-300 p-2 text-sm dark:border-neutral-700">
          You can browse and download these files. Uploading, renaming and deleting need the service_role key (an Owner or Administrator).
        </p>
      )}
      <nav aria-label="Folder path">
        <ol className="flex flex-wrap items-center gap-1 text-sm">
          {view.crumbs.map((crumb, i) => (
            <li key={crumb.path} className="flex items-center gap-1">
              {i > 0 ? <span aria-hidden="true">/</span> : null}
              {i === view.crumbs.length - 1 ? (
                <span aria-current="page" className="font-semibold">
                  {crumb.label}
                </span>
              ) : (
                <button type="button" className="text-emerald-800 underline dark:text-emerald-400" onClick={() => actor.send({ type: 'folder.open', path: crumb.path })}>
                  {crumb.label}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={`${inputId}-search`} className="text-sm font-medium">
            Search in this folder
          </label>
          <input
            id={`${inputId}-search`}
            type="search"
            className={inputClass}
            value={view.search}
            autoComplete="off"
            onChange={(event) => actor.send({ type: 'search.change', text: event.target.value })}
          />
        </div>
        <Button disabled={!canReload} onClick={() => actor.send({ type: 'folder.reload' })}>
          Refresh
        </Button>
        <div role="group" aria-label="View as" className="flex gap-1">
          {(['list', 'columns'] as const).map((layout) => (
            <Button key={layout} variant={view.layout === layout ? 'primary' : 'secondary'} aria-pressed={view.layout === layout} onClick={() => actor.send({ type: 'layout.change', layout })}>
              {layout === 'list' ? 'List' : 'Columns'}
            </Button>
          ))}
        </div>
        {view.writable ? (
          <WriteTools actor={actor} view={view} canAdd={canAdd} canNewFolder={canNewFolder} canDeleteSelection={canDeleteSelection} inputId={inputId} />
        ) : null}
      </div>
      <div
        className={cx('grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]', dragging && 'rounded-lg outline-dashed outline-2 outline-emerald-600')}
        {...(view.writable
          ? {
              onDragOver: (event: DragEvent) => {
                event.preventDefault()
                setDragging(true)
              },
              onDragLeave: () => setDragging(false),
              onDrop: drop,
              'aria-label': 'Drop files here to upload them to this folder',
              role: 'region',
            }
          : {})}
      >
        {view.layout === 'columns' ? <Columns actor={actor} view={view} /> : <Listing actor={actor} view={view} />}
        <DetailsPanel actor={actor} panel={view.panel} />
      </div>
      <Uploads actor={actor} />
      <Dialogs actor={actor} panel={view.panel} />
    </div>
  )
}

function WriteTools({
  actor,
  view,
  canAdd,
  canNewFolder,
  canDeleteSelection,
  inputId,
}: {
  actor: StorageExplorerActorRef
  view: Browsing
  canAdd: boolean
  canNewFolder: boolean
  canDeleteSelection: boolean
  inputId: string
}) {
  return (
    <>
      <Button disabled={!canNewFolder} onClick={() => actor.send({ type: 'folder.new' })}>
        New folder
      </Button>
      <label
        htmlFor={`${inputId}-files`}
        className={cx(
          'inline-flex cursor-pointer items-center rounded-md border border-emerald-700 bg-emerald-50 px-3 py-1.5 text-sm font-medium text-emerald-900 focus-within:ring-2 focus-within:ring-emerald-600 dark:bg-emerald-950 dark:text-emerald-100',
          !canAdd && 'pointer-events-none opacity-50',
        )}
      >
        Upload files
        <input
          id={`${inputId}-files`}
          type="file"
          multiple
          className="sr-only"
          disabled={!canAdd}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            event.target.value = ''
            if (files.length > 0) actor.send({ type: 'files.add', files })
          }}
        />
      </label>
      {view.selected.length > 0 ? <Button onClick={() => actor.send({ type: 'selection.clear' })}>Clear selection</Button> : null}
      <Button variant="danger" disabled={!canDeleteSelection} onClick={() => actor.send({ type: 'selection.delete' })}>
        {view.selected.length > 0 ? `Delete ${view.selected.length} selected` : 'Delete selected'}
      </Button>
    </>
  )
}

function Listing({ actor, view }: { actor: StorageExplorerActorRef; view: Browsing }) {
  const { listing } = view
  // The view is made anew from each snapshot; the machine's array of items is the same until the folder changes.
  const items = useMemo(() => listing.items.filter((item) => item.name !== FOLDER_PLACEHOLDER), [listing.items])
  if (listing.phase === 'loading') return <Loading label="Loading folder…" />
  if (listing.phase === 'failed') return <ErrorPanel title="Failed to list the folder" message={listing.error ?? ''} onRetry={() => actor.send({ type: 'listing.retry' })} />
  if (items.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
        {view.search ? `Nothing in this folder matches '${view.search}'.` : view.writable ? 'This folder is empty. Drop files here or use Upload files.' : 'This folder is empty.'}
      </p>
    )
  }
  return <FileTable actor={actor} view={view} items={items} />
}

/**
 * The columns layout: the bucket's root, then each folder on the path, the open folder last. Every entry is a button
 * (Tab reaches each); the keys move within a column (Up, Down, Page Up, Page Down, Home, End: the column's own, over
 * its virtualised entries), Right opens a folder or steps into the column it opened, Left steps back to the folder
 * that opened this column. Only the document's focus moves here: which folders are open is the machine's.
 */
function Columns({ actor, view }: { actor: StorageExplorerActorRef; view: Browsing }) {
  const box = useRef<HTMLDivElement>(null)
  const { listing } = view
  const current = view.crumbs[view.crumbs.length - 1]

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement
    const column = target.closest<HTMLElement>('[data-column]')
    if (!column || !box.current || !target.matches('button[data-entry-index]')) return
    const columns = [...box.current.querySelectorAll<HTMLElement>('[data-column]')]
    const at = columns.indexOf(column)
    let next: HTMLElement | null | undefined
    if (event.key === 'ArrowRight') {
      if (target.getAttribute('aria-expanded') === 'true') next = columns[at + 1]?.querySelector<HTMLElement>('button[data-entry-index]')
      else if (target.hasAttribute('aria-expanded')) target.click()
    } else if (event.key === 'ArrowLeft') next = columns[at - 1]?.querySelector<HTMLElement>('button[aria-expanded="true"]')
    else return
    event.preventDefault()
    next?.focus()
  }

  return (
    <Card>
      <div ref={box} onKeyDown={onKeyDown} className="flex max-h-[32rem] min-h-64 overflow-x-auto">
        {/* One keyed list, so a column keeps its element (and the focus in it) as the open folder moves right of it. */}
        {[
          ...view.columns.map((column) => (
            <FolderColumnView key={column.path} actor={actor} path={column.path} label={column.label} items={column.items} open={column.open} />
          )),
          listing.phase === 'ready' ? (
            <FolderColumnView key={view.path} actor={actor} path={view.path} label={current.label} items={listing.items} open={null} search={view.search} />
          ) : (
            <div key={view.path} data-column className="w-64 shrink-0 p-2">
              {listing.phase === 'loading' ? <Loading label="Loading folder…" /> : null}
              {listing.phase === 'failed' ? <ErrorPanel title="Failed to list the folder" message={listing.error ?? ''} onRetry={() => actor.send({ type: 'listing.retry' })} /> : null}
            </div>
          ),
        ]}
      </div>
    </Card>
  )
}

/**
 * A column entry's height in px (py-1.5 around a line of text-sm), given rather than measured: a long name is cut with
 * an ellipsis (its whole text is the entry's name and title), so every entry is one line and rendering reads no layout.
 */
const COLUMN_ENTRY_HEIGHT = 32

function FolderColumnView({
  actor,
  path,
  label,
  items,
  open,
  search = '',
}: {
  actor: StorageExplorerActorRef
  path: string
  label: string
  items: StorageListItem[]
  open: string | null
  search?: string
}) {
  const shown = useMemo(() => items.filter((item) => item.name !== FOLDER_PLACEHOLDER), [items])
  const openIndex = open === null ? -1 : shown.findIndex((item) => item.name === open)
  const list = useVirtualRows({
    entries: shown,
    rowHeight: COLUMN_ENTRY_HEIGHT,
    // The open folder stays rendered, so Left from the column it opened finds it however far this one scrolled.
    keep: openIndex >= 0 ? [openIndex] : [],
    // Beside an open folder a column's files are text, not buttons.
    canFocus: (index) => open === null || shown[index].id === null,
  })
  return (
    <div
      ref={list.box}
      data-column
      role="group"
      aria-label={`Folder ${label}`}
      className="w-64 shrink-0 overflow-y-auto border-r border-neutral-200 p-1 dark:border-neutral-800"
      onFocus={list.onFocus}
      onKeyDown={(event) => {
        if (list.onKeyDown(event)) event.stopPropagation()
      }}
    >
      {shown.length === 0 ? (
        <p className="p-2 text-sm text-neutral-600 dark:text-neutral-400">{search ? `Nothing in this folder matches '${search}'.` : 'This folder is empty.'}</p>
      ) : (
        <ul className="text-sm">
          {list.slots.map((slot) => {
            if (slot.kind === 'spacer') return <li key={slot.key} aria-hidden="true" style={{ height: slot.height }} />
            const item = shown[slot.index]
            return (
              <li key={slot.key} style={{ height: COLUMN_ENTRY_HEIGHT }}>
                {item.id === null ? (
                  <button
                    type="button"
                    data-entry-index={slot.index}
                    aria-expanded={open === item.name}
                    className={cx(
                      'flex w-full items-center justify-between rounded px-2 py-1.5 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600',
                      open === item.name ? 'bg-emerald-100 font-medium text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50' : 'hover:bg-neutral-100 dark:hover:bg-neutral-800',
                    )}
                    title={`${item.name}/`}
                    onClick={() => actor.send({ type: 'folder.open', path: path === '' ? item.name : `${path}/${item.name}` })}
                  >
                    <span className="min-w-0 truncate">{item.name}/</span>
                    <span aria-hidden="true">›</span>
                  </button>
                ) : open === null ? (
                  <button
                    type="button"
                    data-entry-index={slot.index}
                    className="flex w-full items-center justify-between gap-2 rounded px-2 py-1.5 text-left hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 dark:hover:bg-neutral-800"
                    title={item.name}
                    onClick={() => actor.send({ type: 'item.open', name: item.name })}
                  >
                    <span className="min-w-0 truncate">{item.name}</span>
                  </button>
                ) : (
                  // A file beside the open folder: its details open once its own folder is the open one again.
                  <span className="block truncate px-2 py-1.5 text-neutral-600 dark:text-neutral-400" title={item.name}>
                    {item.name}
                  </span>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}

/**
 * A row's height in px, given rather than measured (rendering reads no layout): a ghost button (32) within py-2 (16),
 * and the border between rows (1). The listing bench prints the height the rows are drawn at.
 */
const ROW_HEIGHT = 49

/**
 * The folder's entries as a table, virtualised (virtualRows.ts): only the rows in view (and a few beyond) are in the
 * document, with spacer rows standing for the rest; each row tells its place in the whole (aria-rowindex), and the
 * keys move between the rows' names over the whole folder.
 */
function FileTable({ actor, view, items }: { actor: StorageExplorerActorRef; view: Browsing; items: StorageListItem[] }) {
  const list = useVirtualRows({ entries: items, rowHeight: ROW_HEIGHT })
  // Asked here once for every row: a row brought into view by a scroll mounts with no subscription of its own.
  const actions = useSelector(actor, selectRowActions, sameRowActions)
  const hintId = useId()
  return (
    <Card>
      <p id={hintId} className="sr-only">
        Up and Down move between the files, Page Up and Page Down a page at a time, Home and End to the first and the last.
      </p>
      {/* Laid out on its own (contain): rows coming and going in a scroll frame do not lay out the page around it. */}
      <div ref={list.box} className="max-h-[32rem] overflow-auto [contain:content]" onFocus={list.onFocus} onKeyDown={list.onKeyDown}>
        {/* A fixed layout: the columns' widths are the colgroup's, so a new row is laid out alone rather than every
            row measured again for the widest cell. A long name is cut with an ellipsis (its whole text is the button's
            name and title). */}
        <table aria-label="Files" aria-describedby={hintId} aria-rowcount={items.length + 1} className="w-full min-w-[64rem] table-fixed text-sm">
          <colgroup>
            <col className="w-10" />
            <col />
            <col className="w-24" />
            <col className="w-52" />
            <col className="w-48" />
            <col className="w-72" />
          </colgroup>
          <thead className="sticky top-0 z-10 border-b border-neutral-200 bg-white text-left text-xs text-neutral-600 dark:border-neutral-800 dark:bg-neutral-900 dark:text-neutral-400">
            <tr aria-rowindex={1}>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Selected</span>
              </th>
              <th scope="col" className="px-3 py-2 font-medium">Name</th>
              <th scope="col" className="px-3 py-2 font-medium">Size</th>
              <th scope="col" className="px-3 py-2 font-medium">Type</th>
              <th scope="col" className="px-3 py-2 font-medium">Last modified</th>
              <th scope="col" className={cx('px-3 py-2 font-medium', STICKY_RIGHT)}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {list.slots.map((slot) => {
              if (slot.kind === 'spacer') return <tr key={slot.key} aria-hidden="true" style={{ height: slot.height }} />
              const item = items[slot.index]
              return (
                <Row
                  key={slot.key}
                  actor={actor}
                  item={item}
                  index={slot.index}
                  folder={view.path}
                  selected={view.selected.includes(item.name)}
                  writable={view.writable}
                  actions={actions}
                />
              )
            })}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

/**
 * The actions column stays at the right edge of the list where the columns are wider than the card (the table scrolls
 * sideways rather than wrapping, which would change a row's height), over an opaque background.
 */
const STICKY_RIGHT = 'sticky right-0 bg-white dark:bg-neutral-900'

/** One formatter for every row: toLocaleString makes a formatter of its own at each call, too slow for a scroll frame. */
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

/**
 * A row renders again only when its own props change, and it has no hook: a scroll frame renders just the rows it
 * brings into view, each from plain props (its entry, and what every row offers, asked once by the table).
 */
const Row = memo(function Row({
  actor,
  item,
  index,
  folder,
  selected,
  writable,
  actions,
}: {
  actor: StorageExplorerActorRef
  item: StorageListItem
  index: number
  folder: string
  selected: boolean
  writable: boolean
  actions: RowActions
}) {
  const isFolder = item.id === null
  return (
    <tr aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
      <td className="px-3 py-2">
        {writable ? (
          <input
            type="checkbox"
            className="h-4 w-4 accent-emerald-600"
            aria-label={`Select ${item.name}`}
            checked={selected}
            disabled={!actions.toggle}
            onChange={() => actor.send({ type: 'item.toggle', name: item.name })}
          />
        ) : null}
      </td>
      <th scope="row" className="truncate px-3 py-2 text-left font-normal">
        {isFolder ? (
          <button type="button" data-entry-index={index} title={`${item.name}/`} className="max-w-full truncate font-medium text-emerald-800 underline dark:text-emerald-400" onClick={() => actor.send({ type: 'folder.open', path: folder === '' ? item.name : `${folder}/${item.name}` })}>
            {item.name}/
          </button>
        ) : (
          <button type="button" data-entry-index={index} title={item.name} className="max-w-full truncate text-left underline-offset-2 hover:underline" disabled={!actions.open} onClick={() => actor.send({ type: 'item.open', name: item.name })}>
            {item.name}
          </button>
        )}
      </th>
      <td className="truncate px-3 py-2">{item.metadata ? sizeLabel(item.metadata.size) : '—'}</td>
      <td className="truncate px-3 py-2 font-mono text-xs">{item.metadata?.mimetype ?? 'Folder'}</td>
      <td className="truncate px-3 py-2">{item.updated_at ? DATE_TIME.format(new Date(item.updated_at)) : '—'}</td>
      <td className={cx('whitespace-nowrap px-3 py-2 text-right', STICKY_RIGHT)}>
        {isFolder ? null : (
          <Button variant="ghost" aria-label={`Get URL of ${item.name}`} disabled={!actions.url} onClick={() => actor.send({ type: 'url.open', name: item.name })}>
            Get URL
          </Button>
        )}
        {writable ? (
          <>
            <Button variant="ghost" aria-label={`Rename or move ${item.name}`} disabled={!actions.rename} onClick={() => actor.send({ type: 'item.rename', name: item.name })}>
              Rename
            </Button>
            <Button variant="ghost" aria-label={`Delete ${item.name}`} disabled={!actions.delete} onClick={() => actor.send({ type: 'item.delete', name: item.name })}>
              Delete
            </Button>
          </>
        ) : null}
      </td>
    </tr>
  )
})


function DetailsPanel({ actor, panel }: { actor: StorageExplorerActorRef; panel: PanelView }) {
  if (panel.kind !== 'details') {
    return <aside aria-label="File details" className="hidden text-sm text-neutral-600 lg:block dark:text-neutral-400">Choose a file to see its details and a preview.</aside>
  }
  return (
    <aside aria-label="File details">
      <Card className="space-y-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="break-all text-base font-semibold">{panel.name}</h2>
          <Button variant="ghost" onClick={() => actor.send({ type: 'details.close' })}>
            Close
          </Button>
        </div>
        {panel.phase === 'loading' ? <Loading label="Loading details…" /> : null}
        {panel.phase === 'failed' ? <InlineError>{panel.error}</InlineError> : null}
        {panel.phase === 'ready' && panel.preview ? (
          <>
            <PreviewOf name={panel.name} preview={panel.preview} />
            <DataList
              rows={[
                ['Size', sizeLabel(panel.preview.info.size)],
                ['Type', panel.preview.info.content_type],
                ['Last modified', panel.preview.info.last_modified ? new Date(panel.preview.info.last_modified).toLocaleString() : '—'],
              ]}
            />
            <a className="inline-block text-sm text-emerald-800 underline dark:text-emerald-400" href={`${panel.preview.url}&download=${encodeURIComponent(panel.name)}`} download={panel.name}>
              Download
            </a>
          </>
        ) : null}
      </Card>
    </aside>
  )
}

function PreviewOf({ name, preview }: { name: string; preview: NonNullable<Extract<PanelView, { kind: 'details' }>['preview']> }) {
  const type = preview.info.content_type
  let body: ReactNode
  if (type.startsWith('image/')) body = <img src={preview.url} alt={`Preview of ${name}`} className="max-h-64 w-full object-contain" />
  else if (type.startsWith('audio/')) body = <audio controls src={preview.url} aria-label={`Play ${name}`} className="w-full" />
  else if (type.startsWith('video/')) body = <video controls src={preview.url} aria-label={`Play ${name}`} className="max-h-64 w-full" />
  else if (preview.text !== null) {
    let text = preview.text
    if (type.includes('json')) {
      try {
        text = JSON.stringify(JSON.parse(text), null, 2)
      } catch {
        // a cut-off or invalid JSON file shows as it is
      }
    }
    body = (
      <pre tabIndex={0} aria-label={`Contents of ${name}`} className="max-h-64 overflow-auto rounded bg-neutral-100 p-2 text-xs dark:bg-neutral-800">
        {text}
      </pre>
    )
  } else {
    body = (
      <p className="text-sm">
        No preview for this type.{' '}
        <a className="text-emerald-800 underline dark:text-emerald-400" href={preview.url} target="_blank" rel="noreferrer">
          Open the file
        </a>
      </p>
    )
  }
  return <figure aria-label="Preview">{body}</figure>
}

function Uploads({ actor }: { actor: StorageExplorerActorRef }) {
  const uploads = useSelector(actor, selectUploads)
  if (uploads.length === 0) return null
  return (
    <section aria-label="Uploads" className="space-y-2">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold">Uploads</h2>
        <Button variant="ghost" onClick={() => actor.send({ type: 'uploads.clear' })}>
          Clear finished
        </Button>
      </div>
      <ul className="space-y-2">
        {uploads.map((upload) => (
          <UploadRow key={upload.id} upload={upload} />
        ))}
      </ul>
    </section>
  )
}

const UPLOAD_STATUS = { conflict: 'Name taken', uploading: 'Uploading', failed: 'Failed', stored: 'Uploaded', cancelled: 'Cancelled' } as const

export function UploadRow({ upload }: { upload: UploadActorRef }) {
  const view = useSelector(upload, selectUploadView)
  return (
    <li className="rounded-md border border-neutral-200 p-2 text-sm dark:border-neutral-800">
      <div className="flex items-center justify-between gap-2">
        <span className="break-all font-mono text-xs">{view.path}</span>
        <span>
          {UPLOAD_STATUS[view.phase]}
          {view.phase === 'uploading' ? ` ${view.percent}%` : ''}
        </span>
      </div>
      <progress className="mt-1 w-full accent-emerald-600" max={100} value={view.percent} aria-label={`Upload of ${view.name}`} />
      {view.error ? <InlineError>{view.error}</InlineError> : null}
      {view.phase === 'conflict' ? <p className="text-sm">A file named {view.name} already exists in this folder.</p> : null}
      <div className="flex justify-end gap-2">
        {view.phase === 'conflict' ? (
          <>
            <Button variant="ghost" aria-label={`Skip upload of ${view.name}`} onClick={() => upload.send({ type: 'upload.cancel' })}>
              Skip
            </Button>
            <Button aria-label={`Overwrite ${view.name}`} onClick={() => upload.send({ type: 'upload.overwrite' })}>
              Overwrite
            </Button>
          </>
        ) : null}
        {view.phase === 'uploading' ? (
          <Button variant="ghost" aria-label={`Cancel upload of ${view.name}`} onClick={() => upload.send({ type: 'upload.cancel' })}>
            Cancel
          </Button>
        ) : null}
        {view.phase === 'failed' ? (
          <Button variant="ghost" aria-label={`Retry upload of ${view.name}`} onClick={() => upload.send({ type: 'upload.retry' })}>
            Retry
          </Button>
        ) : null}
      </div>
    </li>
  )
}

function Dialogs({ actor, panel }: { actor: StorageExplorerActorRef; panel: PanelView }) {
  return (
    <>
      <Modal open={panel.kind === 'newFolder'} onClose={() => actor.send({ type: 'folder.cancel' })} title="Create folder">
        {panel.kind === 'newFolder' ? <NewFolderForm actor={actor} panel={panel} /> : null}
      </Modal>
      <Modal open={panel.kind === 'rename'} onClose={() => actor.send({ type: 'rename.cancel' })} title={panel.kind === 'rename' && panel.folder ? 'Rename or move folder' : 'Rename or move file'}>
        {panel.kind === 'rename' ? <RenameForm actor={actor} panel={panel} /> : null}
      </Modal>
      <Modal open={panel.kind === 'delete'} onClose={() => actor.send({ type: 'delete.cancel' })} title="Delete files">
        {panel.kind === 'delete' ? <DeleteConfirm actor={actor} panel={panel} /> : null}
      </Modal>
      <Modal open={panel.kind === 'url'} onClose={() => actor.send({ type: 'url.close' })} title="Get URL">
        {panel.kind === 'url' ? <UrlForm actor={actor} panel={panel} /> : null}
      </Modal>
      <Modal open={panel.kind === 'settings'} onClose={() => actor.send({ type: 'settings.cancel' })} title="Bucket settings">
        {panel.kind === 'settings' ? <SettingsForm actor={actor} panel={panel} /> : null}
      </Modal>
    </>
  )
}

function NewFolderForm({ actor, panel }: { actor: StorageExplorerActorRef; panel: Extract<PanelView, { kind: 'newFolder' }> }) {
  const id = useId()
  const canSubmit = useSelector(actor, (snapshot) => snapshot.can({ type: 'folder.submit' }))
  const problem = panel.draft === '' ? undefined : (panel.problem ?? undefined)
  return (
    <form
      className="space-y-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault()
        actor.send({ type: 'folder.submit' })
      }}
    >
      <Field id={`${id}-name`} label="Folder name" error={problem}>
        <input
          {...fieldAria(`${id}-name`, { error: problem })}
          className={inputClass}
          value={panel.draft}
          readOnly={panel.submitting}
          autoComplete="off"
          onChange={(event) => actor.send({ type: 'folder.edit', name: event.target.value })}
        />
      </Field>
      {panel.error ? <InlineError>{panel.error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={panel.submitting} onClick={() => actor.send({ type: 'folder.cancel' })}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canSubmit}>
          {panel.submitting ? 'Creating…' : 'Create folder'}
        </Button>
      </div>
    </form>
  )
}

function RenameForm({ actor, panel }: { actor: StorageExplorerActorRef; panel: Extract<PanelView, { kind: 'rename' }> }) {
  const id = useId()
  const canSubmit = useSelector(actor, (snapshot) => snapshot.can({ type: 'rename.submit' }))
  const problem = panel.problem ?? undefined
  return (
    <form
      className="space-y-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault()
        actor.send({ type: 'rename.submit' })
      }}
    >
      <Field
        id={`${id}-path`}
        label="New path"
        hint={panel.folder ? "The folder's full path in the bucket: everything in it moves along." : "The file's full path in the bucket: change a folder to move it."}
        error={problem}
      >
        <input
          {...fieldAria(`${id}-path`, { error: problem, hint: true })}
          className={inputClass}
          value={panel.draft}
          readOnly={panel.submitting}
          autoComplete="off"
          onChange={(event) => actor.send({ type: 'rename.edit', to: event.target.value })}
        />
      </Field>
      {panel.error ? <InlineError>{panel.error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={panel.submitting} onClick={() => actor.send({ type: 'rename.cancel' })}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canSubmit}>
          {panel.submitting ? 'Moving…' : 'Move'}
        </Button>
      </div>
    </form>
  )
}

function DeleteConfirm({ actor, panel }: { actor: StorageExplorerActorRef; panel: Extract<PanelView, { kind: 'delete' }> }) {
  return (
    <div className="space-y-4">
      <p className="text-sm">Delete {panel.entries.length === 1 ? 'this entry' : `these ${panel.entries.length} entries`}? This cannot be undone; a folder goes with everything in it.</p>
      <ul className="max-h-40 list-disc overflow-auto pl-5 font-mono text-xs">
        {panel.entries.map((entry) => (
          <li key={entry.path}>{entry.folder ? `${entry.path}/` : entry.path}</li>
        ))}
      </ul>
      {panel.error ? <InlineError>{panel.error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={panel.submitting} onClick={() => actor.send({ type: 'delete.cancel' })}>
          Cancel
        </Button>
        <Button variant="danger" disabled={panel.submitting} onClick={() => actor.send({ type: 'delete.confirm' })}>
          {panel.submitting ? 'Deleting…' : 'Delete'}
        </Button>
      </div>
    </div>
  )
}

function UrlForm({ actor, panel }: { actor: StorageExplorerActorRef; panel: Extract<PanelView, { kind: 'url' }> }) {
  const id = useId()
  return (
    <div className="space-y-4">
      <p className="text-sm">
        {panel.isPublic ? 'The bucket is public: anyone with this URL can read ' : 'A signed URL lets anyone who has it read '}
        <span className="font-mono">{panel.name}</span>
        {panel.isPublic ? '.' : ' until it expires.'}
      </p>
      {!panel.isPublic && panel.phase !== 'ready' ? (
        <Field id={`${id}-expiry`} label="Expires in">
          <select
            id={`${id}-expiry`}
            className={inputClass}
            value={panel.expiry}
            disabled={panel.phase === 'signing'}
            onChange={(event) => actor.send({ type: 'url.expiry', seconds: Number(event.target.value) })}
          >
            {URL_EXPIRIES.map((expiry) => (
              <option key={expiry.seconds} value={expiry.seconds}>
                {expiry.label}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {panel.url ? (
        <Field id={`${id}-url`} label={panel.isPublic ? 'Public URL' : 'Signed URL'}>
          <input id={`${id}-url`} className={cx(inputClass, 'font-mono text-xs')} readOnly value={panel.url} onFocus={(event) => event.target.select()} />
        </Field>
      ) : null}
      {panel.url ? (
        <a className="text-sm text-emerald-800 underline dark:text-emerald-400" href={panel.url} target="_blank" rel="noreferrer">
          Open the URL
        </a>
      ) : null}
      {panel.error ? <InlineError>{panel.error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button onClick={() => actor.send({ type: 'url.close' })} disabled={panel.phase === 'signing'}>
          Done
        </Button>
        {!panel.isPublic && panel.phase !== 'ready' ? (
          <Button variant="primary" disabled={panel.phase === 'signing'} onClick={() => actor.send({ type: 'url.sign' })}>
            {panel.phase === 'signing' ? 'Signing…' : 'Create signed URL'}
          </Button>
        ) : null}
      </div>
    </div>
  )
}

function SettingsForm({ actor, panel }: { actor: StorageExplorerActorRef; panel: Extract<PanelView, { kind: 'settings' }> }) {
  const id = useId()
  const canSave = useSelector(actor, (snapshot) => snapshot.can({ type: 'settings.save' }))
  const { draft, errors, saving } = panel
  return (
    <form
      className="space-y-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault()
        actor.send({ type: 'settings.save' })
      }}
    >
      <div className="flex items-start gap-3">
        <input
          id={`${id}-public`}
          type="checkbox"
          className="mt-1 h-4 w-4 accent-emerald-600"
          checked={draft.public}
          disabled={saving}
          onChange={(event) => actor.send({ type: 'settings.edit', draft: { public: event.target.checked } })}
        />
        <label htmlFor={`${id}-public`} className="text-sm font-medium">
          Public bucket
        </label>
      </div>
      <BucketLimitFields id={id} draft={draft} errors={errors} busy={saving} onEdit={(patch) => actor.send({ type: 'settings.edit', draft: patch })} />
      {panel.error ? <InlineError>{panel.error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={saving} onClick={() => actor.send({ type: 'settings.cancel' })}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canSave}>
          {saving ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </form>
  )
}
