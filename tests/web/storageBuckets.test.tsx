/**
 * The Storage page through the real app, on a fake platform: the bucket rules as a person reads them, storage
 * disabled, and the create and delete dialogs (what was typed survives a refusal; the server's message shows as it is).
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bucket } from '../../src/contracts/storage'
import { REF } from '../fixtures'
import { BUCKETS, TENANT_CONFIG_NOT_FOUND, createdBucket } from '../fixtures.storage'
import { permissionsFor, type Role } from '../../src/contracts/common'
import { ORGS, fakePlatform, renderApp, type PlatformOptions } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

interface StorageAnswers {
  list?: () => Response
  create?: (body: Record<string, unknown>) => Response
  remove?: (id: string) => Response
}

/** The fake platform of tests/web/platform.tsx plus the buckets endpoints, over a list the creates and deletes change. */
function storagePlatform(answers: StorageAnswers = {}, initial: Bucket[] = BUCKETS, options: PlatformOptions = {}) {
  const platform = fakePlatform(options)
  const base = platform.fetch
  const buckets = [...initial]
  const calls: Array<{ method: string; path: string; body?: unknown }> = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    const match = path.match(/^\/platform\/storage\/([a-z]{20})\/buckets(?:\/([^/]+))?$/)
    if (!match) return base(input)
    const body = input.method === 'POST' ? await input.clone().json() : undefined
    calls.push({ method: input.method, path, body })
    if (input.method === 'GET') return (answers.list ?? (() => json(buckets)))()
    if (input.method === 'POST') {
      const answer = answers.create?.(body) ?? json(createdBucket(body.name, { public: body.public, allowed_mime_types: body.allowed_mime_types, file_size_limit: body.file_size_limit }), 201)
      if (answer.status === 201) buckets.push((await answer.clone().json()) as Bucket)
      return answer
    }
    const id = decodeURIComponent(match[2])
    const answer = answers.remove?.(id) ?? json({ message: 'Successfully deleted' })
    if (answer.ok) buckets.splice(buckets.findIndex((b) => b.id === id), 1)
    return answer
  })
  return { calls, buckets }
}

afterEach(() => vi.unstubAllGlobals())

const bucketRow = (name: string) => within(screen.getByRole('table', { name: 'Buckets' })).getByRole('row', { name: new RegExp(`^${name} `) })
const cellsOf = (row: HTMLElement) => [...row.children].slice(0, 4).map((cell) => cell.textContent)

/** The platform's answer to the member's permissions when they hold `role` in every organization. */
const memberAs = (role: Role): PlatformOptions => ({
  permissions: ORGS.map((org) => ({ organization_id: org.id, organization_slug: org.slug, role, permissions: permissionsFor(role) })),
})

describe('Storage page for a member who browses only', () => {
  for (const role of ['Read-only', 'Developer'] as const) {
    it(`a ${role} member finds Storage in the menu and the buckets, with no create or delete on offer`, async () => {
      const { calls } = storagePlatform({}, BUCKETS, memberAs(role))
      renderApp(`/project/${REF}/storage/buckets`)
      const menu = within(await screen.findByRole('navigation', { name: 'Main navigation' }))
      expect(await menu.findByRole('link', { name: 'Storage' })).toHaveAttribute('href', `/project/${REF}/storage/buckets`)
      await screen.findByRole('table', { name: 'Buckets' })
      expect(screen.getByRole('note')).toHaveTextContent('You can browse the buckets and download their files.')
      expect(cellsOf(bucketRow('receipts'))).toEqual(['receipts', 'Private', 'application/pdf, image/*', '50 MB'])
      expect(screen.queryByRole('button', { name: 'New bucket' })).toBeNull()
      expect(screen.queryByRole('button', { name: /^Delete bucket/ })).toBeNull()
      expect(within(bucketRow('receipts')).getByRole('link', { name: 'receipts' })).toHaveAttribute('href', `/project/${REF}/storage/buckets/receipts`)
      expect(calls.map((call) => call.method)).toEqual(calls.map(() => 'GET'))
    })
  }

  it('an Owner gets no such note', async () => {
    storagePlatform({}, BUCKETS, memberAs('Owner'))
    renderApp(`/project/${REF}/storage/buckets`)
    await screen.findByRole('table', { name: 'Buckets' })
    expect(screen.queryByRole('note')).toBeNull()
    expect(screen.getByRole('button', { name: 'New bucket' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Delete bucket receipts' })).toBeEnabled()
  })
})

describe('Storage page', () => {
  it("lists each bucket: Public/Private, 'All types' for null, 'None' for [], 'No limit' for null, sizes in units", async () => {
    storagePlatform()
    renderApp(`/project/${REF}/storage/buckets`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Storage' })).toBeInTheDocument()
    await screen.findByRole('table', { name: 'Buckets' })
    expect(cellsOf(bucketRow('avatars'))).toEqual(['avatars', 'Public', 'All types', 'No limit'])
    expect(cellsOf(bucketRow('receipts'))).toEqual(['receipts', 'Private', 'application/pdf, image/*', '50 MB'])
    expect(cellsOf(bucketRow('locked'))).toEqual(['locked', 'Private', 'None', '1.5 GB'])
    expect(document.title).toBe('Storage | Analytics | Demo Pro | Supabase')
  })

  it('a project without buckets says so', async () => {
    storagePlatform({}, [])
    renderApp(`/project/${REF}/storage/buckets`)
    expect(await screen.findByText(/No buckets yet/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'New bucket' })).toBeEnabled()
  })

  it("a project whose storage is disabled shows the server's 'Tenant config … not found' message plainly", async () => {
    storagePlatform({ list: () => json({ message: TENANT_CONFIG_NOT_FOUND }, 404) })
    renderApp(`/project/${REF}/storage/buckets`)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('heading', { name: 'Storage is not enabled for this project' })).toBeInTheDocument()
    expect(alert).toHaveTextContent(TENANT_CONFIG_NOT_FOUND)
    // That it is never retried: tests/machines/storageBuckets.test.ts and tests/badInput/storageBuckets.badInput.test.tsx.
    expect(screen.queryByRole('button', { name: 'New bucket' })).toBeNull()
  })

  it('creates a bucket from the dialog: name, public, MIME types (empty = all types), size limit with its unit', async () => {
    const { calls } = storagePlatform()
    renderApp(`/project/${REF}/storage/buckets`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'New bucket' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create bucket' }))
    expect(dialog.getByText('Comma-separated, like image/png, image/*. Leave empty to allow all types.')).toBeInTheDocument()
    expect(dialog.getByText('Leave empty for no limit.')).toBeInTheDocument()
    const create = dialog.getByRole('button', { name: 'Create bucket' })
    expect(create).toBeDisabled()
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'photos')
    await user.click(dialog.getByRole('checkbox', { name: 'Public bucket' }))
    await user.type(dialog.getByRole('textbox', { name: 'Allowed MIME types' }), 'image/png, image/jpeg')
    await user.type(dialog.getByRole('textbox', { name: 'File size limit' }), '512')
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Size unit' }), 'KB')
    await user.click(create)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: `/platform/storage/${REF}/buckets`,
        body: { name: 'photos', public: true, allowed_mime_types: ['image/png', 'image/jpeg'], file_size_limit: 512 * 1024 },
      },
    ])
    expect(cellsOf(bucketRow('photos'))).toEqual(['photos', 'Public', 'image/png, image/jpeg', '512 KB'])
  })

  it('says what is wrong with a name or a MIME type before anything is sent', async () => {
    const { calls } = storagePlatform()
    renderApp(`/project/${REF}/storage/buckets`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'New bucket' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create bucket' }))
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'photos/2024')
    expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Bucket name cannot contain a slash')
    await user.clear(dialog.getByRole('textbox', { name: 'Name' }))
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'photos')
    await user.type(dialog.getByRole('textbox', { name: 'Allowed MIME types' }), 'pictures')
    expect(dialog.getByText("'pictures' is not a MIME type (like image/png or image/*)")).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Create bucket' })).toBeDisabled()
    expect(calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it("a refused create keeps the dialog and everything typed, with the server's message as it is", async () => {
    storagePlatform({ create: () => json({ message: 'A bucket named avatars already exists' }, 409) })
    renderApp(`/project/${REF}/storage/buckets`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'New bucket' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create bucket' }))
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'avatars')
    await user.click(dialog.getByRole('checkbox', { name: 'Public bucket' }))
    await user.type(dialog.getByRole('textbox', { name: 'Allowed MIME types' }), 'image/*')
    await user.type(dialog.getByRole('textbox', { name: 'File size limit' }), '5')
    await user.click(dialog.getByRole('button', { name: 'Create bucket' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(/^A bucket named avatars already exists$/)
    expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('avatars')
    expect(dialog.getByRole('checkbox', { name: 'Public bucket' })).toBeChecked()
    expect(dialog.getByRole('textbox', { name: 'Allowed MIME types' })).toHaveValue('image/*')
    expect(dialog.getByRole('textbox', { name: 'File size limit' })).toHaveValue('5')
    expect(dialog.getByRole('combobox', { name: 'Size unit' })).toHaveValue('MB')
    expect(dialog.getByRole('button', { name: 'Create bucket' })).toBeEnabled()
  })

  it('deletes a bucket after a confirmation', async () => {
    const { calls } = storagePlatform()
    renderApp(`/project/${REF}/storage/buckets`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Delete bucket receipts' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete bucket' }))
    expect(dialog.getByText('receipts')).toBeInTheDocument()
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([])
    await user.click(dialog.getByRole('button', { name: 'Delete bucket' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `/platform/storage/${REF}/buckets/receipts`, body: undefined }])
    const rows = within(screen.getByRole('table', { name: 'Buckets' })).getAllByRole('row').slice(1)
    expect(rows.map((row) => row.children[0].textContent)).toEqual(['avatars', 'locked'])
  })

  it("a refused delete keeps the dialog with the server's message; Cancel keeps the bucket", async () => {
    storagePlatform({ remove: () => json({ message: 'The bucket you tried to delete is not empty' }, 409) })
    renderApp(`/project/${REF}/storage/buckets`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Delete bucket avatars' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete bucket' }))
    await user.click(dialog.getByRole('button', { name: 'Delete bucket' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(/^The bucket you tried to delete is not empty$/)
    await user.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(bucketRow('avatars')).toBeInTheDocument()
  })
})
