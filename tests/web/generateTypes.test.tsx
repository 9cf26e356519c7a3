/**
 * 'Generate types' on Settings › API through the real app, on a fake platform: the file handed to the browser
 * (supabase.ts with the response's types) and the toasts of spec 8.
 */
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const TYPES = 'export type Json = string | number | boolean | null\n\nexport type Database = { public: { Tables: {} } }\n'

/** Every anchor the page clicks (href, download name) and every Blob handed to an object URL. */
function captureDownloads() {
  const clicked: Array<{ href: string; download: string; attached: boolean }> = []
  const blobs = new Map<string, Blob>()
  let next = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:http://localhost/${++next}`
    blobs.set(url, blob as Blob)
    return url
  })
  const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download, attached: this.isConnected })
  })
  return { clicked, blobs, revoked }
}

function typesPlatform(answer: () => Response) {
  const base = fakePlatform().fetch
  const calls: string[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    if (path !== `/v1/projects/${REF}/types/typescript`) return base(input)
    calls.push(`${input.method} ${path}`)
    return answer()
  })
  return { calls }
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('Generate types', () => {
  it("downloads the project's types as supabase.ts and says 'Successfully generated types! File is being downloaded'", async () => {
    const downloads = captureDownloads()
    const { calls } = typesPlatform(() => json({ types: TYPES }))
    renderApp(`/project/${REF}/settings/api`)
    const button = await screen.findByRole('button', { name: 'Generate types' })
    await waitFor(() => expect(button).toBeEnabled())
    await userEvent.setup().click(button)
    expect(await screen.findByText('Successfully generated types! File is being downloaded')).toBeInTheDocument()
    expect(calls).toEqual([`GET /v1/projects/${REF}/types/typescript`])
    expect(downloads.clicked).toEqual([{ href: 'blob:http://localhost/1', download: 'supabase.ts', attached: true }])
    expect(await downloads.blobs.get('blob:http://localhost/1')!.text()).toBe(TYPES)
    await waitFor(() => expect(downloads.revoked).toHaveBeenCalledWith('blob:http://localhost/1'))
    // The anchor was only there for the click.
    expect(document.querySelector('a[download]')).toBeNull()
    expect(screen.getByRole('button', { name: 'Generate types' })).toBeEnabled()
  })

  it("a failure says 'Failed to generate types: {message}' and downloads nothing", async () => {
    const downloads = captureDownloads()
    typesPlatform(() => json({ message: 'Project is paused' }, 409))
    renderApp(`/project/${REF}/settings/api`)
    const button = await screen.findByRole('button', { name: 'Generate types' })
    await waitFor(() => expect(button).toBeEnabled())
    await userEvent.setup().click(button)
    expect(await screen.findByText('Failed to generate types: Project is paused')).toBeInTheDocument()
    expect(downloads.clicked).toEqual([])
  })
})
