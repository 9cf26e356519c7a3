/**
 * A bucket's file browser through the real app and its real calls, on a fake platform and a fake storage API behind
 * the gateway: what the calls send (the service key, the folder's prefix, the names to delete), what the page shows,
 * and storage's own error messages shown as the service words them.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REF } from '../fixtures'
import { RECEIPTS } from '../fixtures.storage'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const STORAGE = `/p/${REF}/storage/v1`
const SERVICE_KEY = 'service-role-key'

const item = (name: string, size: number | null, mimetype = 'text/plain') => ({
  name,
  id: size === null ? null : `id-${name}`,
  updated_at: size === null ? null : '2026-11-20T10:00:00.000Z',
  created_at: size === null ? null : '2026-11-20T10:00:00.000Z',
  last_accessed_at: null,
  metadata: size === null ? null : { size, mimetype },
})

interface Seen {
  method: string
  path: string
  body?: unknown
  apikey: string | null
  range: string | null
}

/** The fake platform plus the key info and a storage API over one bucket, `receipts`, whose answers a test may replace. */
function storageApi(answers: { list?: (body: { prefix: string; search: string }) => Response; apiKey?: string | null } = {}) {
  const platform = fakePlatform()
  const seen: Seen[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url, 'http://localhost')
    if (url.pathname === `/platform/props/project/${REF}/api`) {
      const key = answers.apiKey === undefined ? SERVICE_KEY : answers.apiKey
      return json({ autoApiService: { protocol: 'http', endpoint: `localhost/p/${REF}`, defaultApiKey: 'anon-key', ...(key ? { serviceApiKey: key } : {}) } })
    }
    // The platform's member reads (a member without the service key browses through them).
    const member = `/platform/storage/${REF}/buckets`
    if (url.pathname === member) return json([RECEIPTS])
    if (url.pathname.startsWith(`${member}/receipts/objects/`)) {
      const body = JSON.parse(await input.clone().text())
      seen.push({ method: input.method, path: url.pathname, body, apikey: input.headers.get('apikey'), range: null })
      if (url.pathname.endsWith('/list')) return json(body.path === '' ? [item('2026', null), item('total.txt', 11)] : [item('march.txt', 5)])
      return json({ signedUrl: `http://localhost${STORAGE}/object/sign/receipts/${body.path}?token=member` })
    }
    if (!url.pathname.startsWith(STORAGE)) return platform.fetch(input)
    const path = url.pathname.slice(STORAGE.length)
    const text = input.method === 'GET' ? '' : await input.clone().text()
    const body = text === '' ? undefined : JSON.parse(text)
    seen.push({ method: input.method, path, body, apikey: input.headers.get('apikey'), range: input.headers.get('range') })
    if (path === '/bucket/receipts') return json(RECEIPTS)
    if (path === '/object/list/receipts') {
      if (answers.list) return answers.list(body)
      return json(body.prefix === '' ? [item('2026', null), item('total.txt', 11)] : [item('march.txt', 5)])
    }
    if (path === '/object/info/receipts/total.txt') {
      return json({ id: 'id-total', name: 'total.txt', bucket_id: 'receipts', size: 11, content_type: 'text/plain', last_modified: '2026-11-20T10:00:00.000Z', created_at: null, updated_at: null })
    }
    if (path === '/object/sign/receipts/total.txt' && input.method === 'POST') return json({ signedURL: '/object/sign/receipts/total.txt?token=abc' })
    if (path === '/object/receipts/total.txt') return new Response('forty-two €', { status: 206 })
    if (path === '/object/sign/receipts/total.txt' && input.method === 'HEAD') {
      return new Response(null, { headers: { 'content-type': 'text/plain', 'content-length': '11', 'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT' } })
    }
    if (path === '/object/sign/receipts/total.txt' && input.method === 'GET') return new Response('forty-two €', { status: 206 })
    if (path === '/object/receipts' && input.method === 'DELETE') return json([{ name: 'total.txt', bucket_id: 'receipts' }])
    return json({ statusCode: '404', error: 'not_found', message: `No route ${input.method} ${path}` }, 404)
  })
  return { seen }
}

afterEach(() => vi.unstubAllGlobals())

describe('a bucket’s files', () => {
  it('lists the root with the service key, opens a folder and comes back by its breadcrumb', async () => {
    const { seen } = storageApi()
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    const files = await screen.findByRole('table', { name: 'Files' })
    expect(within(files).getByRole('button', { name: '2026/' })).toBeInTheDocument()
    expect(within(files).getByRole('button', { name: 'total.txt' })).toBeInTheDocument()
    expect(screen.getByText('Private bucket · application/pdf, image/* · 50 MB')).toBeInTheDocument()
    expect(seen.find((call) => call.path === '/object/list/receipts')).toMatchObject({
      method: 'POST',
      apikey: SERVICE_KEY,
      body: { prefix: '', limit: 10_000, offset: 0, sortBy: { column: 'name', order: 'asc' }, search: '' },
    })

    await userEvent.click(within(files).getByRole('button', { name: '2026/' }))
    expect(await screen.findByRole('button', { name: 'march.txt' })).toBeInTheDocument()
    expect(seen.filter((call) => call.path === '/object/list/receipts').at(-1)?.body).toMatchObject({ prefix: '2026/' })
    const crumbs = screen.getByRole('navigation', { name: 'Folder path' })
    expect(within(crumbs).getByText('2026')).toHaveAttribute('aria-current', 'page')

    await userEvent.click(within(crumbs).getByRole('button', { name: 'receipts' }))
    expect(await screen.findByRole('button', { name: 'total.txt' })).toBeInTheDocument()
  })

  it("shows a text file's details and the start of its contents (a Range request), and a download link", async () => {
    const { seen } = storageApi()
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    await userEvent.click(await screen.findByRole('button', { name: 'total.txt' }))
    const details = screen.getByRole('complementary', { name: 'File details' })
    expect(await within(details).findByLabelText('Contents of total.txt')).toHaveTextContent('forty-two €')
    expect(within(details).getByText('11 bytes')).toBeInTheDocument()
    expect(within(details).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `http://localhost${STORAGE}/object/sign/receipts/total.txt?token=abc&download=total.txt`,
    )
    expect(seen.find((call) => call.path === '/object/receipts/total.txt')?.range).toBe('bytes=0-65535')
  })

  it('deletes a file after a confirmation, naming it to the service', async () => {
    const { seen } = storageApi()
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    await userEvent.click(await screen.findByRole('button', { name: 'Delete total.txt' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete files' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(seen.find((call) => call.method === 'DELETE')).toMatchObject({ path: '/object/receipts', body: { prefixes: ['total.txt'] } })
  })

  it('renders only the rows in view of a folder of 10,000 objects', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => item(`file-${String(i).padStart(5, '0')}.txt`, i))
    storageApi({ list: () => json(many) })
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    const files = await screen.findByRole('table', { name: 'Files' })
    expect(files).toHaveAttribute('aria-rowcount', '10001')
    const rows = within(files).getAllByRole('row').slice(1)
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.length).toBeLessThan(40)
    expect(rows[0]).toHaveAttribute('aria-rowindex', '2')
    expect(within(files).getByRole('button', { name: 'file-00000.txt' })).toBeInTheDocument()
    expect(within(files).queryByRole('button', { name: 'file-09999.txt' })).toBeNull()

    // The keyboard reaches the last one, which is rendered then, with its place in the whole; the rows stay few.
    const user = userEvent.setup()
    within(files).getByRole('button', { name: 'file-00000.txt' }).focus()
    await user.keyboard('{ArrowDown}')
    expect(within(files).getByRole('button', { name: 'file-00001.txt' })).toHaveFocus()
    await user.keyboard('{End}')
    const last = within(files).getByRole('button', { name: 'file-09999.txt' })
    expect(last).toHaveFocus()
    expect(last.closest('tr')).toHaveAttribute('aria-rowindex', '10001')
    expect(within(files).getAllByRole('row').length).toBeLessThan(60)
    await user.keyboard('{ArrowUp}')
    expect(within(files).getByRole('button', { name: 'file-09998.txt' })).toHaveFocus()
    await user.keyboard('{PageUp}')
    expect(document.activeElement?.textContent).toMatch(/^file-099\d\d\.txt$/)
    expect(Number(document.activeElement?.closest('tr')?.getAttribute('aria-rowindex'))).toBeLessThan(10_000)
    await user.keyboard('{Home}')
    expect(within(files).getByRole('button', { name: 'file-00000.txt' })).toHaveFocus()
    expect(within(files).getAllByRole('row').length).toBeLessThan(60)
  })

  it('renders only the entries in view of a column of 10,000 objects, and the keyboard reaches the last', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => item(`file-${String(i).padStart(5, '0')}.txt`, i))
    storageApi({ list: () => json(many) })
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    await screen.findByRole('table', { name: 'Files' })
    const user = userEvent.setup()
    await user.click(within(screen.getByRole('group', { name: 'View as' })).getByRole('button', { name: 'Columns' }))
    const column = screen.getByRole('group', { name: 'Folder receipts' })
    const entries = within(column).getAllByRole('button')
    expect(entries.length).toBeGreaterThan(5)
    expect(entries.length).toBeLessThan(60)
    expect(within(column).queryByRole('button', { name: 'file-09999.txt' })).toBeNull()
    entries[0].focus()
    await user.keyboard('{End}')
    expect(within(column).getByRole('button', { name: 'file-09999.txt' })).toHaveFocus()
    await user.keyboard('{ArrowUp}{ArrowUp}')
    expect(within(column).getByRole('button', { name: 'file-09997.txt' })).toHaveFocus()
    await user.keyboard('{Home}')
    expect(within(column).getByRole('button', { name: 'file-00000.txt' })).toHaveFocus()
    expect(within(column).getAllByRole('button').length).toBeLessThan(60)
  })

  it("shows storage's own message when a folder cannot be listed", async () => {
    storageApi({ list: () => json({ statusCode: '400', error: 'InvalidKey', message: 'Invalid key: "a\\\\b" (backslashes are not allowed)' }, 400) })
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to list the folder')
    expect(alert).toHaveTextContent('Invalid key: "a\\\\b" (backslashes are not allowed)')
  })

  it('shows the folders as columns, each opening the next to its right, by pointer and by keyboard', async () => {
    const { seen } = storageApi()
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    await screen.findByRole('table', { name: 'Files' })
    const user = userEvent.setup()
    await user.click(within(screen.getByRole('group', { name: 'View as' })).getByRole('button', { name: 'Columns' }))
    expect(within(screen.getByRole('group', { name: 'View as' })).getByRole('button', { name: 'Columns' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.queryByRole('table', { name: 'Files' })).toBeNull()
    const root = screen.getByRole('group', { name: 'Folder receipts' })
    const folder = within(root).getByRole('button', { name: '2026/' })
    expect(folder).toHaveAttribute('aria-expanded', 'false')

    // Right on a closed folder opens it in a column to the right; Right again steps into that column, Left back.
    folder.focus()
    await user.keyboard('{ArrowRight}')
    const opened = await screen.findByRole('group', { name: 'Folder 2026' })
    expect(within(opened).getByRole('button', { name: 'march.txt' })).toBeInTheDocument()
    expect(within(screen.getByRole('group', { name: 'Folder receipts' })).getByRole('button', { name: '2026/' })).toHaveAttribute('aria-expanded', 'true')
    expect(seen.filter((call) => call.path === '/object/list/receipts').map((call) => (call.body as { prefix: string }).prefix)).toEqual(['', '2026/'])
    expect(screen.getByRole('navigation', { name: 'Folder path' })).toHaveTextContent('receipts/2026')
    await user.keyboard('{ArrowRight}')
    expect(within(screen.getByRole('group', { name: 'Folder 2026' })).getByRole('button', { name: 'march.txt' })).toHaveFocus()
    await user.keyboard('{ArrowLeft}')
    expect(within(screen.getByRole('group', { name: 'Folder receipts' })).getByRole('button', { name: '2026/' })).toHaveFocus()
    // The root's file shows beside the open folder; it opens once the root is the open folder again.
    expect(within(screen.getByRole('group', { name: 'Folder receipts' })).queryByRole('button', { name: 'total.txt' })).toBeNull()
    await user.click(within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('button', { name: 'receipts' }))
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Folder 2026' })).toBeNull())
    const file = await within(screen.getByRole('group', { name: 'Folder receipts' })).findByRole('button', { name: 'total.txt' })
    within(screen.getByRole('group', { name: 'Folder receipts' })).getByRole('button', { name: '2026/' }).focus()
    await user.keyboard('{ArrowDown}')
    expect(file).toHaveFocus()
    await user.keyboard('{Enter}')
    const details = screen.getByRole('complementary', { name: 'File details' })
    expect(await within(details).findByLabelText('Contents of total.txt')).toHaveTextContent('forty-two €')

    // The list is one press away, on the same folder.
    await user.click(within(screen.getByRole('group', { name: 'View as' })).getByRole('button', { name: 'List' }))
    expect(within(screen.getByRole('table', { name: 'Files' })).getByRole('button', { name: 'total.txt' })).toBeInTheDocument()
  })

  it('lets a member without the service key browse, preview and download, offering no change', async () => {
    const { seen } = storageApi({ apiKey: null })
    renderApp(`/project/${REF}/storage/buckets/receipts`)
    const files = await screen.findByRole('table', { name: 'Files' })
    expect(screen.getByRole('note')).toHaveTextContent('You can browse and download these files.')
    for (const name of ['Upload files', 'New folder', 'Delete selected', 'Bucket settings']) expect(screen.queryByRole('button', { name })).toBeNull()
    expect(screen.queryByLabelText('Upload files')).toBeNull()
    expect(within(files).queryByRole('button', { name: 'Delete total.txt' })).toBeNull()
    expect(within(files).queryByRole('button', { name: 'Rename or move total.txt' })).toBeNull()
    expect(within(files).queryByLabelText('Select total.txt')).toBeNull()
    // Every read went through the platform, none to the storage API with a key.
    expect(seen.find((call) => call.path === `/platform/storage/${REF}/buckets/receipts/objects/list`)?.body).toMatchObject({ path: '', options: { limit: 10_000, search: '' } })
    expect(seen.filter((call) => call.path.startsWith('/object/list'))).toEqual([])

    await userEvent.click(within(files).getByRole('button', { name: '2026/' }))
    expect(await screen.findByRole('button', { name: 'march.txt' })).toBeInTheDocument()
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('button', { name: 'receipts' }))
    await userEvent.click(await screen.findByRole('button', { name: 'total.txt' }))
    const details = screen.getByRole('complementary', { name: 'File details' })
    expect(await within(details).findByLabelText('Contents of total.txt')).toHaveTextContent('forty-two €')
    expect(within(details).getByText('11 bytes')).toBeInTheDocument()
    expect(within(details).getByRole('link', { name: 'Download' })).toHaveAttribute('href', `http://localhost${STORAGE}/object/sign/receipts/total.txt?token=member&download=total.txt`)
    expect(seen.find((call) => call.path === '/object/sign/receipts/total.txt' && call.method === 'GET')?.apikey).toBeNull()
  })
})
