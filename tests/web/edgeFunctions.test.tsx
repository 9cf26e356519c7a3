/** The Edge Functions page through the real app, on a fake platform: the list, its empty state, a failure and Retry. */
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REF } from '../fixtures'
import { FUNCTIONS } from '../fixtures.storage'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The fake platform plus GET /v1/projects/{ref}/functions, answered by `state.answer` (a test may change it). */
function functionsPlatform(answer: () => Response) {
  const base = fakePlatform().fetch
  const state = { answer }
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    return path === `/v1/projects/${REF}/functions` ? state.answer() : base(input)
  })
  return state
}

afterEach(() => vi.unstubAllGlobals())

describe('Edge Functions page', () => {
  it('lists each function: name, slug, status, version, when it was updated, whether it verifies a JWT', async () => {
    functionsPlatform(() => json(FUNCTIONS))
    renderApp(`/project/${REF}/functions`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Edge Functions' })).toBeInTheDocument()
    const table = await screen.findByRole('table', { name: 'Functions' })
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'Slug', 'Status', 'Version', 'Updated at', 'Verify JWT'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['hello-world', 'hello-world', 'ACTIVE', '3', '02 Nov 2026 09:30 UTC', 'Yes'],
      ['Stripe webhook', 'stripe-webhook', 'THROTTLED', '1', '24 Dec 2026 18:05 UTC', 'No'],
    ])
    expect(document.title).toBe('Edge Functions | Analytics | Demo Pro | Supabase')
  })

  it('a project without functions says so', async () => {
    functionsPlatform(() => json([]))
    renderApp(`/project/${REF}/functions`)
    expect(await screen.findByText(/No edge functions yet/)).toBeInTheDocument()
    expect(screen.queryByRole('table')).toBeNull()
  })

  it("a failed load shows the server's message; Try again loads the list", async () => {
    const platform = functionsPlatform(() => json({ message: 'Project is not active' }, 409))
    renderApp(`/project/${REF}/functions`)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load functions')
    expect(alert).toHaveTextContent('Project is not active')
    platform.answer = () => json(FUNCTIONS)
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table', { name: 'Functions' })).toBeInTheDocument()
  })
})
