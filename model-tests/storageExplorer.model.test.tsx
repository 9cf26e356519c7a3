import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, type SnapshotFrom } from 'xstate'
import { selectRowActions, storageExplorerMachine, type Connection, type DeleteEntry, type Preview } from '../machines/storageExplorer.machine'
import { storageUploadMachine, type UploadEvent, type UploadTarget } from '../machines/storageUpload.machine'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'
import type { Bucket } from '../src/contracts/storage'
import type { BucketSettingsBody, StorageListItem } from '../src/contracts/storageObjects'
import { StorageExplorer } from '../src/views/project/storage/StorageExplorerPage'
import { REF } from '../tests/fixtures'
import { createdBucket } from '../tests/fixtures.storage'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, type ModelEvent } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(storageExplorerMachine)

const CONNECTION: Connection = { url: `http://127.0.0.1:8787/p/${REF}/storage/v1`, key: 'service-role-key' }
/** A member the platform does not give the service key: browse and download only. */
const MEMBER: Connection = { url: CONNECTION.url, key: null, ref: REF }
const SEARCH_DEBOUNCE = 300
const PRIVATE: Bucket = createdBucket('photos', { public: false, allowed_mime_types: null, file_size_limit: null })
const PUBLIC: Bucket = { ...PRIVATE, public: true }

const file = (name: string, size: number, mimetype: string): StorageListItem => ({
  name,
  id: `id-${name}`,
  updated_at: '2026-11-20T10:00:00.000Z',
  created_at: '2026-11-20T10:00:00.000Z',
  last_accessed_at: null,
  metadata: { size, mimetype },
})
const folder = (name: string): StorageListItem => ({ name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null })
const ROOT = [folder('docs'), file('cat.png', 2048, 'image/png'), file('notes.txt', 12, 'text/plain')]
const DOCS = [file('.emptyFolderPlaceholder', 0, 'application/octet-stream'), file('report.json', 40, 'application/json')]
const FOUND = [file('cat.png', 2048, 'image/png')]

const PREVIEW: Preview = {
  info: { id: 'id-cat.png', name: 'cat.png', bucket_id: 'photos', size: 2048, content_type: 'image/png', last_modified: '2026-11-20T10:00:00.000Z', created_at: null, updated_at: null },
  url: `${CONNECTION.url}/object/sign/photos/cat.png?token=t`,
  text: null,
}
const NOTES_PREVIEW: Preview = {
  info: { ...PREVIEW.info, id: 'id-notes.txt', name: 'notes.txt', size: 12, content_type: 'text/plain' },
  url: `${CONNECTION.url}/object/sign/photos/notes.txt?token=t`,
  text: 'first things',
}
const previewOf = (name: string | null) => (name === 'notes.txt' ? NOTES_PREVIEW : PREVIEW)
const SIGNED = `${CONNECTION.url}/object/sign/photos/cat.png?token=day`
const UPLOAD = new File(['hello'], 'hello.txt', { type: 'text/plain' })

type Snapshot = SnapshotFrom<typeof storageExplorerMachine>
const contextOf = (snapshot: Snapshot) => snapshot.context
/** Whether the snapshot is in a state named by its dotted path ('browsing.panel.idle'), as the state assertions are keyed. */
const at = (snapshot: Snapshot, key: string) => snapshot.matches(key as never)

/** Whether the browser is as it first listed: the root, no search, nothing ticked, no uploads, a private bucket. */
const writable = (snapshot: Snapshot) => contextOf(snapshot).connection?.key !== null
const pristine = (snapshot: Snapshot) => {
  const c = contextOf(snapshot)
  return writable(snapshot) && c.layout === 'list' && c.path === '' && c.search === '' && c.selected.length === 0 && c.uploads.length === 0 && c.bucket?.public === false && c.items.length > 0
}

const model = modelOf(storageExplorerMachine.provide({ actors: { storageUpload: storageUploadMachine.provide({ actors: { sendFile: fromCallback(() => {}) } }) } }), {
  input: { ref: REF, bucketId: 'photos' },
  events: (snapshot): Array<ModelEvent<typeof storageExplorerMachine>> => {
    const c = contextOf(snapshot)
    if (snapshot.matches('connecting')) {
      return c.connectError
        ? [{ type: 'xstate.done.actor.connectStorage', output: { connection: CONNECTION, bucket: PRIVATE } }]
        : [
            { type: 'xstate.done.actor.connectStorage', output: { connection: CONNECTION, bucket: PRIVATE } },
            { type: 'xstate.done.actor.connectStorage', output: { connection: CONNECTION, bucket: PUBLIC } },
            { type: 'xstate.done.actor.connectStorage', output: { connection: MEMBER, bucket: PRIVATE } },
            { type: 'xstate.error.actor.connectStorage', error: apiError("You need additional permissions to browse this project's files (the service_role key)", 403) },
            { type: 'xstate.after.requestTimeout.storageExplorer.connecting' },
          ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'explorer.retry' })]
    if (at(snapshot, 'browsing.listing.debouncing')) return [{ type: 'xstate.after.searchDebounce.storageExplorer.browsing.listing.debouncing' }]
    if (at(snapshot, 'browsing.listing.loading')) {
      const output = c.path === 'docs' ? DOCS : c.search === 'cat' ? FOUND : ROOT
      const first = c.items.length === 0 && c.listError === null && writable(snapshot)
      return [
        { type: 'xstate.done.actor.listFolder', output },
        ...(first && c.bucket?.public === false
          ? [
              { type: 'xstate.error.actor.listFolder' as const, error: apiError('Bucket not found', 404) },
              { type: 'xstate.after.requestTimeout.storageExplorer.browsing.listing.loading' as const },
            ]
          : []),
      ]
    }
    if (at(snapshot, 'browsing.listing.failed')) return [ev({ type: 'listing.retry' })]
    if (at(snapshot, 'browsing.panel.idle')) {
      // Without the key: open a file, get its URL; nothing else is offered.
      if (!writable(snapshot)) return [ev({ type: 'item.open', name: 'cat.png' }), ev({ type: 'url.open', name: 'cat.png' })]
      if (c.bucket?.public) return [ev({ type: 'url.open', name: 'cat.png' }), ev({ type: 'item.open', name: 'cat.png' })]
      if (pristine(snapshot)) {
        return [
          ev({ type: 'folder.open', path: 'docs' }),
          ev({ type: 'search.change', text: 'cat' }),
          ev({ type: 'folder.reload' }),
          ev({ type: 'item.toggle', name: 'cat.png' }),
          ev({ type: 'files.add', files: [UPLOAD] }),
          ev({ type: 'item.open', name: 'cat.png' }),
          ev({ type: 'folder.new' }),
          ev({ type: 'item.rename', name: 'cat.png' }),
          ev({ type: 'item.rename', name: 'docs' }),
          ev({ type: 'item.delete', name: 'docs' }),
          ev({ type: 'url.open', name: 'cat.png' }),
          ev({ type: 'settings.open' }),
          ev({ type: 'layout.change', layout: 'columns' }),
        ]
      }
      // In columns: open the folder beside the root, step back by the breadcrumb, or go back to the list.
      if (c.layout === 'columns') return c.path === '' ? [ev({ type: 'folder.open', path: 'docs' }), ev({ type: 'layout.change', layout: 'list' })] : [ev({ type: 'folder.open', path: '' })]
      if (c.selected.length > 0) return [ev({ type: 'item.toggle', name: 'cat.png' }), ev({ type: 'selection.clear' }), ev({ type: 'selection.delete' })]
      if (c.path === 'docs') return [ev({ type: 'folder.open', path: '' })]
      if (c.search !== '') return []
      // The walk's uploads never run (their transfers are the paths'): a stored file and the clearing are offered alike.
      if (c.uploads.length > 0) return [ev({ type: 'upload.stored', path: 'hello.txt' }), ev({ type: 'uploads.clear' })]
      return []
    }
    if (at(snapshot, 'browsing.panel.details.loading')) {
      return [
        { type: 'xstate.done.actor.loadPreview', output: previewOf(c.focus) },
        { type: 'xstate.error.actor.loadPreview', error: apiError('Object not found', 404) },
        ev({ type: 'details.close' }),
      ]
    }
    if (at(snapshot, 'browsing.panel.details.ready') && c.focus === 'cat.png') {
      // Beside a file's details the rows still open another file or a dialog (for the other file, so each is its own edge).
      if (c.bucket?.public || !writable(snapshot)) return [ev({ type: 'details.close' }), ev({ type: 'url.open', name: 'notes.txt' })]
      return [
        ev({ type: 'details.close' }),
        ev({ type: 'item.open', name: 'notes.txt' }),
        ev({ type: 'folder.new' }),
        ev({ type: 'item.rename', name: 'notes.txt' }),
        ev({ type: 'item.delete', name: 'notes.txt' }),
        ev({ type: 'url.open', name: 'notes.txt' }),
        ev({ type: 'settings.open' }),
      ]
    }
    if (at(snapshot, 'browsing.panel.details')) return [ev({ type: 'details.close' })]
    if (at(snapshot, 'browsing.panel.newFolder.editing')) {
      const edits = c.panelError !== null ? [] : c.draft === '' ? ['..', 'drafts'] : c.draft === '..' ? ['drafts'] : []
      return [...edits.map((name) => ev({ type: 'folder.edit', name })), ev({ type: 'folder.submit' }), ev({ type: 'folder.cancel' })]
    }
    if (at(snapshot, 'browsing.panel.renaming.editing')) {
      // A folder is also offered a move inside itself, which the dialog refuses.
      const edits = c.panelError !== null ? [] : c.draft === c.focus ? (c.focusIsFolder ? ['docs/inner', 'old/docs'] : [`old/${c.focus}`]) : c.draft === 'docs/inner' ? ['old/docs'] : []
      return [...edits.map((to) => ev({ type: 'rename.edit', to })), ev({ type: 'rename.submit' }), ev({ type: 'rename.cancel' })]
    }
    if (at(snapshot, 'browsing.panel.deleting.confirming')) return [ev({ type: 'delete.confirm' }), ev({ type: 'delete.cancel' })]
    if (at(snapshot, 'browsing.panel.url.choosing')) {
      return [...(c.expiry === 3600 && c.panelError === null ? [ev({ type: 'url.expiry', seconds: 86_400 })] : []), ev({ type: 'url.sign' }), ev({ type: 'url.close' })]
    }
    if (at(snapshot, 'browsing.panel.url.ready')) return [ev({ type: 'url.close' })]
    if (at(snapshot, 'browsing.panel.settings.editing')) {
      const edits = c.panelError !== null ? [] : c.settings.sizeLimit === '' ? [{ sizeLimit: '-1' }, { public: true, sizeLimit: '5' }] : c.settings.sizeLimit === '-1' ? [{ public: true, sizeLimit: '5' }] : []
      return [...edits.map((draft) => ev({ type: 'settings.edit', draft })), ev({ type: 'settings.save' }), ev({ type: 'settings.cancel' })]
    }
    const answers: Record<string, [string, unknown]> = {
      'browsing.panel.newFolder.submitting': ['createFolder', undefined],
      'browsing.panel.renaming.submitting': ['moveObject', undefined],
      'browsing.panel.deleting.submitting': ['removeObjects', undefined],
      'browsing.panel.url.signing': ['signUrl', SIGNED],
      'browsing.panel.settings.saving': ['updateBucket', undefined],
    }
    for (const [state, [id, output]] of Object.entries(answers)) {
      if (at(snapshot, state)) {
        return [
          { type: `xstate.done.actor.${id}` as const, ...(output === undefined ? {} : { output }) },
          { type: `xstate.error.actor.${id}` as const, error: apiError(`The ${id} call was refused`, 400) },
        ]
      }
    }
    return []
  },
  // What defines a screen: the states, where the browser is, what is ticked or uploading, and what the open dialog holds
  // (a dialog's fields count only while it is open: what a closed one left behind shows nowhere).
  serializeState: (snapshot, event) => {
    const c = contextOf(snapshot)
    const inPanel = (state: string) => at(snapshot, `browsing.panel.${state}`)
    return keyByIncomingEdge(
      snapshot,
      event,
      JSON.stringify({
        writable: c.connection?.key !== null,
        public: c.bucket?.public,
        path: c.path,
        layout: c.layout,
        columns: c.columns.map((column) => column.path),
        search: c.search,
        selected: c.selected,
        uploads: c.uploads.length,
        listed: c.items.length > 0,
        connectError: c.connectError !== null,
        listError: c.listError !== null,
        draft: inPanel('newFolder') || inPanel('renaming') ? c.draft : null,
        focus: inPanel('idle') ? null : c.focus,
        deleting: inPanel('deleting') ? c.deleting : null,
        expiry: inPanel('url') ? c.expiry : null,
        settings: inPanel('settings') ? [c.settings.public, c.settings.sizeLimit] : null,
        panelError: inPanel('idle') ? null : c.panelError !== null,
      }),
    )
  },
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

const dialog = (name: string) => screen.getByRole('dialog', { name })
const renameDialog = () => screen.getByRole('dialog', { name: /^Rename or move (file|folder)$/ })

describe('storage explorer model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(storageExplorerMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('what a row offers is the same for every entry, in every state the paths reach (the table asks once for all)', () => {
    for (const path of paths) {
      for (const { state } of path.steps) {
        const names = ['', 'docs', 'hello.txt', ...state.context.items.map((item) => item.name)]
        for (const name of names) {
          expect({
            toggle: state.can({ type: 'item.toggle', name }),
            open: state.can({ type: 'item.open', name }),
            rename: state.can({ type: 'item.rename', name }),
            delete: state.can({ type: 'item.delete', name }),
            url: state.can({ type: 'url.open', name }),
          }).toEqual(selectRowActions(state))
        }
      }
    }
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const connect = deferredActor<{ connection: Connection; bucket: Bucket }, { ref: string; bucketId: string }>('connectStorage')
      const list = deferredActor<StorageListItem[], { connection: Connection; bucket: string; path: string; search: string }>('listFolder')
      const preview = deferredActor<Preview, { connection: Connection; bucket: string; path: string }>('loadPreview')
      const mkdir = deferredActor<void, { connection: Connection; bucket: string; path: string }>('createFolder')
      const move = deferredActor<void, { connection: Connection; bucket: string; from: string; to: string; folder: boolean }>('moveObject')
      const remove = deferredActor<void, { connection: Connection; bucket: string; entries: DeleteEntry[] }>('removeObjects')
      const sign = deferredActor<string, { connection: Connection; bucket: string; path: string; expiresIn: number }>('signUrl')
      const update = deferredActor<void, { connection: Connection; bucket: string; body: BucketSettingsBody }>('updateBucket')
      const transfers: Array<{ input: UploadTarget; report: (event: { type: string }) => void }> = []
      const sendFile = fromCallback<UploadEvent, UploadTarget>(({ input, sendBack }) => {
        transfers.push({ input, report: sendBack })
      })
      const actor = runPath(
        createActor(
          storageExplorerMachine.provide({
            actors: {
              connectStorage: connect.logic,
              listFolder: list.logic,
              loadPreview: preview.logic,
              createFolder: mkdir.logic,
              moveObject: move.logic,
              removeObjects: remove.logic,
              signUrl: sign.logic,
              updateBucket: update.logic,
              storageUpload: storageUploadMachine.provide({ actors: { sendFile } }),
            },
          }),
          { input: { ref: REF, bucketId: 'photos' } },
        ).start(),
      )
      render(<StorageExplorer actor={actor} />)
      const files = () => screen.getByRole('table', { name: 'Files', hidden: true })

      await path.test({
        states: {
          connecting: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading files…')
            expect(connect.pending.map((run) => run.input)).toEqual([{ ref: REF, bucketId: 'photos' }])
            expect(screen.queryByRole('button', { name: 'Bucket settings' })).toBeNull()
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to open the bucket')
            expect(alert).toHaveTextContent(contextOf(snapshot).connectError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          // The page behind an open dialog is hidden from assistive technology, hence `hidden: true` for what it shows.
          browsing: (snapshot) => {
            const c = contextOf(snapshot)
            expect(screen.getByText(c.bucket!.public ? /^Public bucket/ : /^Private bucket/)).toBeInTheDocument()
            const crumbs = within(screen.getByRole('navigation', { name: 'Folder path', hidden: true })).getAllByRole('listitem', { hidden: true })
            expect(crumbs.map((crumb) => crumb.textContent)).toEqual(c.path === '' ? ['photos'] : ['photos', '/docs'])
            expect(screen.getByLabelText('Search in this folder')).toHaveValue(c.search)
            const layouts = within(screen.getByRole('group', { name: 'View as', hidden: true }))
            expect(layouts.getByRole('button', { name: 'List', hidden: true })).toHaveAttribute('aria-pressed', String(c.layout === 'list'))
            expect(layouts.getByRole('button', { name: 'Columns', hidden: true })).toHaveAttribute('aria-pressed', String(c.layout === 'columns'))
            // Without the key nothing that changes files is on the page, and the page says why.
            if (writable(snapshot)) expect(screen.queryByRole('note', { hidden: true })).toBeNull()
            else {
              expect(screen.getByRole('note', { hidden: true })).toHaveTextContent('You can browse and download these files.')
              for (const name of ['New folder', 'Delete selected', 'Bucket settings']) expect(screen.queryByRole('button', { name, hidden: true })).toBeNull()
              expect(screen.queryByLabelText('Upload files')).toBeNull()
            }
          },
          'browsing.listing.debouncing': (snapshot) => {
            // The typed text is in the box at once; the list shown stays until the pause ends, nothing is asked yet.
            expect(screen.getByLabelText('Search in this folder')).toHaveValue(contextOf(snapshot).search)
            expect(screen.queryByText('Loading folder…')).toBeNull()
            expect(list.pending).toEqual([])
          },
          'browsing.listing.loading': (snapshot) => {
            const c = contextOf(snapshot)
            expect(screen.getByText('Loading folder…')).toBeInTheDocument()
            expect(list.pending.map((run) => run.input)).toEqual([{ connection: c.connection, bucket: 'photos', path: c.path, search: c.search }])
          },
          'browsing.listing.failed': (snapshot) => {
            const alert = screen.getAllByRole('alert').find((node) => within(node).queryByText('Failed to list the folder'))!
            expect(alert).toHaveTextContent(contextOf(snapshot).listError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'browsing.listing.ready': (snapshot) => {
            const c = contextOf(snapshot)
            const shown = c.items.filter((item) => item.name !== '.emptyFolderPlaceholder')
            if (c.layout === 'columns') {
              // The root's column, then the open folder's, whose entry in the root's column shows it open.
              const columns = screen.getAllByRole('group', { name: /^Folder /, hidden: true })
              expect(columns.map((column) => column.getAttribute('aria-label'))).toEqual(c.path === '' ? ['Folder photos'] : ['Folder photos', 'Folder docs'])
              const entries = within(columns[columns.length - 1]).getAllByRole('button', { hidden: true })
              expect(entries.map((entry) => entry.querySelector('span')!.textContent)).toEqual(shown.map((item) => (item.id === null ? `${item.name}/` : item.name)))
              if (c.path === 'docs') {
                expect(within(columns[0]).getByRole('button', { name: 'docs/', hidden: true })).toHaveAttribute('aria-expanded', 'true')
                // The root's files are shown beside it, not offered.
                expect(within(columns[0]).queryByRole('button', { name: 'cat.png', hidden: true })).toBeNull()
                expect(within(columns[0]).getByText('cat.png')).toBeInTheDocument()
              } else expect(within(columns[0]).getByRole('button', { name: 'docs/', hidden: true })).toHaveAttribute('aria-expanded', 'false')
              expect(screen.queryByRole('table', { name: 'Files', hidden: true })).toBeNull()
              return
            }
            const rows = within(files()).getAllByRole('row', { hidden: true }).slice(1)
            expect(rows.map((row) => row.querySelector('th')!.textContent)).toEqual(shown.map((item) => (item.id === null ? `${item.name}/` : item.name)))
            if (!writable(snapshot)) {
              for (const item of shown) expect(within(files()).queryByLabelText(`Select ${item.name}`)).toBeNull()
              expect(within(files()).queryByRole('button', { name: /^(Delete|Rename or move) /, hidden: true })).toBeNull()
              return
            }
            for (const item of shown) expect(within(files()).getByLabelText(`Select ${item.name}`)).toHaveProperty('checked', c.selected.includes(item.name))
            expect(screen.getByRole('button', { name: c.selected.length > 0 ? `Delete ${c.selected.length} selected` : 'Delete selected', hidden: true })).toHaveProperty(
              'disabled',
              c.selected.length === 0 || !at(snapshot, 'browsing.panel.idle'),
            )
          },
          'browsing.panel.idle': (snapshot) => {
            expect(screen.queryByRole('dialog')).toBeNull()
            if (writable(snapshot)) expect(screen.getByRole('button', { name: 'New folder' })).toBeEnabled()
            // The uploads as they run in this path (the walk's own never send a byte).
            const uploads = actor.getSnapshot().context.uploads
            if (uploads.length === 0) expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull()
            for (const upload of uploads) {
              const stored = upload.getSnapshot().matches('stored')
              expect(screen.getByRole('progressbar', { name: 'Upload of hello.txt' })).toHaveAttribute('value', stored ? '100' : '0')
              expect(screen.getByText(stored ? 'Uploaded' : 'Uploading 0%')).toBeInTheDocument()
            }
          },
          'browsing.panel.details.loading': (snapshot) => {
            const name = contextOf(snapshot).focus!
            const panel = screen.getByRole('complementary', { name: 'File details' })
            expect(within(panel).getByRole('heading', { name })).toBeInTheDocument()
            expect(within(panel).getByText('Loading details…')).toBeInTheDocument()
            expect(preview.pending.map((run) => run.input)).toEqual([{ connection: contextOf(snapshot).connection, bucket: 'photos', path: name }])
          },
          'browsing.panel.details.ready': (snapshot) => {
            const name = contextOf(snapshot).focus!
            const panel = screen.getByRole('complementary', { name: 'File details' })
            const shown = previewOf(name)
            if (name === 'cat.png') {
              expect(within(panel).getByRole('img', { name: 'Preview of cat.png' })).toHaveAttribute('src', PREVIEW.url)
              expect(within(panel).getByText('2 KB')).toBeInTheDocument()
            } else {
              expect(within(panel).getByLabelText('Contents of notes.txt')).toHaveTextContent('first things')
              expect(within(panel).getByText('12 bytes')).toBeInTheDocument()
            }
            expect(within(panel).getByText(shown.info.content_type)).toBeInTheDocument()
            expect(within(panel).getByRole('link', { name: 'Download' })).toHaveAttribute('href', `${shown.url}&download=${name}`)
          },
          'browsing.panel.details.failed': () => {
            expect(within(screen.getByRole('complementary', { name: 'File details' })).getByRole('alert')).toHaveTextContent('Object not found')
          },
          'browsing.panel.newFolder.editing': (snapshot) => {
            const c = contextOf(snapshot)
            const form = within(dialog('Create folder'))
            expect(form.getByLabelText('Folder name')).toHaveValue(c.draft)
            expect(form.getByRole('button', { name: 'Create folder' })).toHaveProperty('disabled', c.draft !== 'drafts')
            if (c.draft === '..') expect(form.getByText("A path cannot have empty, '.' or '..' parts")).toBeInTheDocument()
            if (c.panelError) expect(form.getByRole('alert')).toHaveTextContent(c.panelError)
          },
          'browsing.panel.newFolder.submitting': () => {
            expect(within(dialog('Create folder')).getByRole('button', { name: 'Creating…' })).toBeDisabled()
            expect(mkdir.pending.map((run) => run.input)).toEqual([{ connection: CONNECTION, bucket: 'photos', path: 'drafts' }])
          },
          'browsing.panel.renaming.editing': (snapshot) => {
            const c = contextOf(snapshot)
            const form = within(dialog(c.focusIsFolder ? 'Rename or move folder' : 'Rename or move file'))
            expect(form.getByLabelText('New path')).toHaveValue(c.draft)
            // Unchanged, the path is not a move yet; a folder cannot go inside itself.
            expect(form.getByRole('button', { name: 'Move' })).toHaveProperty('disabled', c.draft === c.focus || c.draft === 'docs/inner')
            if (c.draft === 'docs/inner') expect(form.getByText('A folder cannot move inside itself')).toBeInTheDocument()
            if (c.panelError) expect(form.getByRole('alert')).toHaveTextContent(c.panelError)
          },
          'browsing.panel.renaming.submitting': (snapshot) => {
            const { focus: name, focusIsFolder } = contextOf(snapshot)
            expect(within(renameDialog()).getByRole('button', { name: 'Moving…' })).toBeDisabled()
            expect(move.pending.map((run) => run.input)).toEqual([{ connection: CONNECTION, bucket: 'photos', from: name, to: `old/${name}`, folder: focusIsFolder }])
          },
          'browsing.panel.deleting.confirming': (snapshot) => {
            const c = contextOf(snapshot)
            const confirm = within(dialog('Delete files'))
            expect(confirm.getAllByRole('listitem').map((item) => item.textContent)).toEqual(c.deleting.map((entry) => (entry.folder ? `${entry.path}/` : entry.path)))
            expect(confirm.getByRole('button', { name: 'Delete' })).toBeEnabled()
            if (c.panelError) expect(confirm.getByRole('alert')).toHaveTextContent(c.panelError)
          },
          'browsing.panel.deleting.submitting': (snapshot) => {
            expect(within(dialog('Delete files')).getByRole('button', { name: 'Deleting…' })).toBeDisabled()
            expect(remove.pending.map((run) => run.input)).toEqual([{ connection: CONNECTION, bucket: 'photos', entries: contextOf(snapshot).deleting }])
          },
          'browsing.panel.url.choosing': (snapshot) => {
            const c = contextOf(snapshot)
            const form = within(dialog('Get URL'))
            expect(form.getByLabelText('Expires in')).toHaveValue(String(c.expiry))
            expect(form.getByRole('button', { name: 'Create signed URL' })).toBeEnabled()
            expect(form.queryByLabelText('Signed URL')).toBeNull()
            if (c.panelError) expect(form.getByRole('alert')).toHaveTextContent(c.panelError)
          },
          'browsing.panel.url.signing': (snapshot) => {
            expect(within(dialog('Get URL')).getByRole('button', { name: 'Signing…' })).toBeDisabled()
            expect(sign.pending.map((run) => run.input)).toEqual([{ connection: contextOf(snapshot).connection, bucket: 'photos', path: contextOf(snapshot).focus, expiresIn: contextOf(snapshot).expiry }])
          },
          'browsing.panel.url.ready': (snapshot) => {
            const form = within(dialog('Get URL'))
            const name = contextOf(snapshot).focus
            if (contextOf(snapshot).bucket!.public) expect(form.getByLabelText('Public URL')).toHaveValue(`${CONNECTION.url}/object/public/photos/${name}`)
            else expect(form.getByLabelText('Signed URL')).toHaveValue(SIGNED)
            expect(form.queryByRole('button', { name: 'Create signed URL' })).toBeNull()
          },
          'browsing.panel.settings.editing': (snapshot) => {
            const c = contextOf(snapshot)
            const form = within(dialog('Bucket settings'))
            expect(form.getByLabelText('Public bucket')).toHaveProperty('checked', c.settings.public)
            expect(form.getByLabelText('File size limit')).toHaveValue(c.settings.sizeLimit)
            expect(form.getByRole('button', { name: 'Save settings' })).toHaveProperty('disabled', c.settings.sizeLimit === '-1')
            if (c.settings.sizeLimit === '-1') expect(form.getByText('File size limit must be a positive number')).toBeInTheDocument()
            if (c.panelError) expect(form.getByRole('alert')).toHaveTextContent(c.panelError)
          },
          'browsing.panel.settings.saving': (snapshot) => {
            const c = contextOf(snapshot)
            expect(within(dialog('Bucket settings')).getByRole('button', { name: 'Saving…' })).toBeDisabled()
            expect(update.pending.map((run) => run.input)).toEqual([
              { connection: CONNECTION, bucket: 'photos', body: { public: c.settings.public, file_size_limit: c.settings.sizeLimit === '' ? null : 5 * 1024 ** 2, allowed_mime_types: null } },
            ])
          },
        },
        events: {
          'xstate.done.actor.connectStorage': async (step) => connect.resolve(outputOf<{ connection: Connection; bucket: Bucket }>(step)),
          'xstate.error.actor.connectStorage': async (step) => connect.reject(errorOf(step)),
          'xstate.after.requestTimeout.storageExplorer.connecting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
          },
          'explorer.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'xstate.done.actor.listFolder': async (step) => list.resolve(outputOf<StorageListItem[]>(step)),
          'xstate.error.actor.listFolder': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.storageExplorer.browsing.listing.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
          },
          'listing.retry': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
          },
          'layout.change': async (step) => {
            fireEvent.click(within(screen.getByRole('group', { name: 'View as' })).getByRole('button', { name: step.event.layout === 'list' ? 'List' : 'Columns' }))
          },
          'folder.open': async (step) => {
            if (step.event.path === 'docs' && contextOf(actor.getSnapshot()).layout === 'columns') {
              fireEvent.click(within(screen.getByRole('group', { name: 'Folder photos' })).getByRole('button', { name: 'docs/' }))
            } else if (step.event.path === '') fireEvent.click(within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('button', { name: 'photos' }))
            else fireEvent.click(within(files()).getByRole('button', { name: 'docs/' }))
          },
          'folder.reload': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
          },
          'search.change': async (step) => {
            fireEvent.change(screen.getByLabelText('Search in this folder'), { target: { value: step.event.text } })
          },
          'xstate.after.searchDebounce.storageExplorer.browsing.listing.debouncing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE))
          },
          'item.toggle': async (step) => {
            fireEvent.click(within(files()).getByLabelText(`Select ${step.event.name}`))
          },
          'selection.clear': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }))
          },
          'selection.delete': async () => {
            fireEvent.click(screen.getByRole('button', { name: /^Delete \d+ selected$/ }))
          },
          'files.add': async () => {
            fireEvent.change(screen.getByLabelText('Upload files'), { target: { files: [UPLOAD] } })
          },
          'upload.stored': async () => {
            expect(transfers.map((transfer) => transfer.input)).toEqual([{ connection: CONNECTION, bucket: 'photos', path: 'hello.txt', file: UPLOAD, upsert: false }])
            act(() => transfers[0].report({ type: 'upload.finished' }))
          },
          'uploads.clear': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Clear finished' }))
          },
          'item.open': async (step) => {
            fireEvent.click(within(files()).getByRole('button', { name: step.event.name }))
          },
          'details.close': async () => {
            fireEvent.click(within(screen.getByRole('complementary', { name: 'File details' })).getByRole('button', { name: 'Close' }))
          },
          'xstate.done.actor.loadPreview': async (step) => preview.resolve(outputOf<Preview>(step)),
          'xstate.error.actor.loadPreview': async (step) => preview.reject(errorOf(step)),
          'folder.new': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'New folder' }))
          },
          'folder.edit': async (step) => {
            fireEvent.change(within(dialog('Create folder')).getByLabelText('Folder name'), { target: { value: step.event.name } })
          },
          'folder.submit': async () => {
            fireEvent.click(within(dialog('Create folder')).getByRole('button', { name: 'Create folder' }))
          },
          'folder.cancel': async () => {
            fireEvent.click(within(dialog('Create folder')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.createFolder': async () => mkdir.resolve(undefined),
          'xstate.error.actor.createFolder': async (step) => mkdir.reject(errorOf(step)),
          'item.rename': async (step) => {
            fireEvent.click(within(files()).getByRole('button', { name: `Rename or move ${step.event.name}` }))
          },
          'rename.edit': async (step) => {
            fireEvent.change(within(renameDialog()).getByLabelText('New path'), { target: { value: step.event.to } })
          },
          'rename.submit': async () => {
            fireEvent.click(within(renameDialog()).getByRole('button', { name: 'Move' }))
          },
          'rename.cancel': async () => {
            fireEvent.click(within(renameDialog()).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.moveObject': async () => move.resolve(undefined),
          'xstate.error.actor.moveObject': async (step) => move.reject(errorOf(step)),
          'item.delete': async (step) => {
            fireEvent.click(within(files()).getByRole('button', { name: `Delete ${step.event.name}` }))
          },
          'delete.confirm': async () => {
            fireEvent.click(within(dialog('Delete files')).getByRole('button', { name: 'Delete' }))
          },
          'delete.cancel': async () => {
            fireEvent.click(within(dialog('Delete files')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.removeObjects': async () => remove.resolve(undefined),
          'xstate.error.actor.removeObjects': async (step) => remove.reject(errorOf(step)),
          'url.open': async (step) => {
            fireEvent.click(within(files()).getByRole('button', { name: `Get URL of ${step.event.name}` }))
          },
          'url.expiry': async (step) => {
            fireEvent.change(within(dialog('Get URL')).getByLabelText('Expires in'), { target: { value: String(step.event.seconds) } })
          },
          'url.sign': async () => {
            fireEvent.click(within(dialog('Get URL')).getByRole('button', { name: 'Create signed URL' }))
          },
          'url.close': async () => {
            fireEvent.click(within(dialog('Get URL')).getByRole('button', { name: 'Done' }))
          },
          'xstate.done.actor.signUrl': async () => sign.resolve(SIGNED),

          'xstate.error.actor.signUrl': async (step) => sign.reject(errorOf(step)),
          'settings.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Bucket settings' }))
          },
          'settings.edit': async (step) => {
            const form = within(dialog('Bucket settings'))
            const draft = step.event.draft
            if (draft.public !== undefined && draft.public !== contextOf(actor.getSnapshot()).settings.public) fireEvent.click(form.getByLabelText('Public bucket'))
            if (draft.sizeLimit !== undefined) fireEvent.change(form.getByLabelText('File size limit'), { target: { value: draft.sizeLimit } })
          },
          'settings.save': async () => {
            fireEvent.click(within(dialog('Bucket settings')).getByRole('button', { name: 'Save settings' }))
          },
          'settings.cancel': async () => {
            fireEvent.click(within(dialog('Bucket settings')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.updateBucket': async () => update.resolve(undefined),
          'xstate.error.actor.updateBucket': async (step) => update.reject(errorOf(step)),
        },
      })
    })
  }
})
