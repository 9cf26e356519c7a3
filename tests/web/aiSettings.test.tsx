/**
 * The 'Supabase AI Settings' dialog through the whole app, in both builds: opened from the SQL Editor's link and
 * from the command menu, hosted by the project layout; the toggle rule of spec 5 — in the platform build disabled
 * without the organization's AI_SQL opt-in (with the notice and the link to its general settings), in the
 * self-hosted build enabled whatever the opt-in; saving shows 'Successfully saved settings'.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AiSettings } from '../../src/contracts/orgSettings'
import { PLATFORM_FLAGS, fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst' // Analytics, in demo-pro
afterEach(() => vi.unstubAllGlobals())

const SELF_HOSTED = { ...PLATFORM_FLAGS, isPlatform: false }

/** The fake platform plus the AI settings endpoint, with the organization's opt-in tags given. */
function platformWithAi(optInTags: string[]) {
  const platform = fakePlatform()
  const settings: AiSettings = { send_anonymous_schema_metadata: false, organization_slug: 'demo-pro', organization_opt_in_tags: optInTags }
  const puts: unknown[] = []
  const base = platform.fetch
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    if (path === `/platform/projects/${REF}/ai-settings`) {
      if (input.method === 'PUT') {
        const body = (await input.json()) as { send_anonymous_schema_metadata: boolean }
        puts.push(body)
        settings.send_anonymous_schema_metadata = body.send_anonymous_schema_metadata
      }
      return new Response(JSON.stringify(settings), { status: 200, headers: { 'content-type': 'application/json' } })
    }
    return base(input)
  })
  return { puts }
}

const toggle = (dialog: HTMLElement) => within(dialog).getByRole('switch', { name: 'Send anonymous schema metadata' })

describe('AI settings dialog, platform build', () => {
  it('is disabled without the AI_SQL opt-in, says why and links to the organization settings', async () => {
    const { puts } = platformWithAi([])
    renderApp(`/project/${REF}/sql/1`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('link', { name: 'AI settings' }))
    const dialog = await screen.findByRole('dialog', { name: 'Supabase AI Settings' })
    await waitFor(() => expect(toggle(dialog)).toBeDisabled())
    expect(toggle(dialog)).not.toBeChecked()
    expect(within(dialog).getByText('Your organization does not allow sending anonymous data to OpenAI')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Organization settings' })).toHaveAttribute('href', '/org/demo-pro/general')
    await user.click(toggle(dialog))
    expect(puts).toEqual([])
  })

  it("with the opt-in, toggling saves and shows 'Successfully saved settings'; closing leaves the page", async () => {
    const { puts } = platformWithAi(['AI_SQL'])
    const { location } = renderApp(`/project/${REF}/sql/1?aiSettings=open`)
    const dialog = await screen.findByRole('dialog', { name: 'Supabase AI Settings' })
    const user = userEvent.setup()
    await waitFor(() => expect(toggle(dialog)).toBeEnabled())
    expect(within(dialog).queryByText('Your organization does not allow sending anonymous data to OpenAI')).toBeNull()
    await user.click(toggle(dialog))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Successfully saved settings')
    expect(toggle(dialog)).toBeChecked()
    expect(puts).toEqual([{ send_anonymous_schema_metadata: true }])
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Supabase AI Settings' })).toBeNull())
    expect(location.history.at(-1)).toBe(`/project/${REF}/sql/1`)
  })

  it('opens from the command menu', async () => {
    platformWithAi(['AI_SQL'])
    renderApp(`/project/${REF}`)
    await screen.findByRole('heading', { level: 1, name: 'Analytics' })
    const user = userEvent.setup()
    await user.keyboard('{Control>}k{/Control}')
    const menu = await screen.findByRole('dialog', { name: 'Command menu' })
    await user.type(within(menu).getByRole('combobox', { name: 'Search commands' }), 'AI')
    await user.click(within(menu).getByRole('option', { name: 'Supabase AI Settings' }))
    expect(await screen.findByRole('dialog', { name: 'Supabase AI Settings' })).toBeInTheDocument()
  })
})

describe('AI settings dialog, self-hosted build', () => {
  it('is enabled without the opt-in (the opt-in does not apply) and saves', async () => {
    const { puts } = platformWithAi([])
    renderApp(`/project/${REF}/sql/1?aiSettings=open`, { flags: SELF_HOSTED })
    const dialog = await screen.findByRole('dialog', { name: 'Supabase AI Settings' })
    await waitFor(() => expect(toggle(dialog)).toBeEnabled())
    expect(within(dialog).queryByText('Your organization does not allow sending anonymous data to OpenAI')).toBeNull()
    await userEvent.setup().click(toggle(dialog))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Successfully saved settings')
    expect(puts).toEqual([{ send_anonymous_schema_metadata: true }])
  })
})
