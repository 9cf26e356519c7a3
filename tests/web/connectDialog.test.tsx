/**
 * The project home's 'Connect' dialog through the real app, on a fake platform: it reads the pooler settings when it
 * opens and shows the string of the method and client chosen.
 */
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REF } from '../fixtures'
import { POOLER, POOLER_URI as URI } from '../fixtures.wire'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })


afterEach(() => vi.unstubAllGlobals())

describe('Connect', () => {
  it('reads the pooler settings when it opens and shows the chosen string', async () => {
    const platform = fakePlatform()
    const reads: string[] = []
    vi.stubGlobal('fetch', async (input: Request) => {
      const path = new URL(input.url, 'http://localhost').pathname
      if (path === `/v1/projects/${REF}/config/database/pooler`) {
        reads.push(path)
        return json([POOLER])
      }
      return platform.fetch(input)
    })
    renderApp(`/project/${REF}`)
    const user = userEvent.setup()
    const connect = await screen.findByRole('button', { name: 'Connect' })
    await vi.waitFor(() => expect(connect).toBeEnabled())
    expect(reads).toEqual([])
    await user.click(connect)
    const dialog = await screen.findByRole('dialog', { name: 'Connect to your project' })
    expect(await within(dialog).findByLabelText('Connection string')).toHaveTextContent(URI)
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'psql')
    expect(within(dialog).getByLabelText('Connection string')).toHaveTextContent(`psql "${URI}"`)
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Method' }), 'transaction')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'prisma')
    expect(within(dialog).getByLabelText('Connection string')).toHaveTextContent('pgbouncer=true')
    expect(reads).toHaveLength(1)
  }, 20_000)
})
