import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeProject } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst'
afterEach(() => vi.unstubAllGlobals())

// The database tools (editor, sql/new, sql/1, database/tables) have their own tests: tests/web/databaseTools.test.tsx;
// so do Storage and Edge Functions (tests/web/storageBuckets.test.tsx, tests/web/edgeFunctions.test.tsx) and the API
// docs page (tests/web/apiDocs.test.tsx).
// The settings, backups, auth users and realtime pages have theirs too: tests/web/projectScreens.test.tsx.
const TOOL_PAGES: Array<[path: string, title: string]> = [
  ['settings/infrastructure', 'Infrastructure'],
]

describe('routes', () => {
  for (const [path, title] of TOOL_PAGES) {
    it(`/project/{ref}/${path} shows '${title}' with the project's data`, async () => {
      fakePlatform()
      renderApp(`/project/${REF}/${path}`)
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
      const main = within(screen.getByRole('main'))
      expect(main.getByText('Analytics')).toBeInTheDocument()
      expect(main.getByText(REF)).toBeInTheDocument()
      expect(main.getByText('us-east-1')).toBeInTheDocument()
      expect(main.getByText('15.6')).toBeInTheDocument()
      expect(document.title).toBe(`${title} | Analytics | Demo Pro | Supabase`)
    })
  }

  it("/project/{ref}/settings/api shows 'API settings' with the 'Project API keys' and 'Project Configuration' panels", async () => {
    fakePlatform()
    renderApp(`/project/${REF}/settings/api`)
    expect(await screen.findByRole('heading', { level: 1, name: 'API settings' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Project API keys' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Project Configuration' })).toBeInTheDocument()
    expect(document.title).toBe('API settings | Analytics | Demo Pro | Supabase')
  })

  it('project home is titled with the project name', async () => {
    fakePlatform()
    renderApp(`/project/${REF}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics' })).toBeInTheDocument()
    expect(document.title).toBe('Analytics | Demo Pro | Supabase')
  })

  it('shows the building page while the project is coming up', async () => {
    fakePlatform({ projects: [makeProject({ status: 'COMING_UP' })] })
    renderApp(`/project/${REF}/building`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Setting up project' })).toBeInTheDocument()
  })

  it('hides the side menu for a paused project', async () => {
    fakePlatform({ projects: [makeProject({ status: 'INACTIVE' })] })
    renderApp(`/project/${REF}/settings/general`)
    expect(await screen.findByRole('heading', { level: 1, name: 'General settings' })).toBeInTheDocument()
    expect(screen.queryByRole('complementary', { name: 'Project Settings menu' })).not.toBeInTheDocument()
  })

  it('lists the sub-pages of the current product in a resizable side menu', async () => {
    fakePlatform()
    renderApp(`/project/${REF}/settings/api`)
    const menu = await screen.findByRole('complementary', { name: 'Project Settings menu' })
    expect(within(menu).getByRole('link', { name: 'API' })).toHaveAttribute('aria-current', 'page')
    expect(within(menu).getByRole('link', { name: 'Vault' })).toHaveAttribute('href', `/project/${REF}/settings/vault`)
    const handle = screen.getByRole('separator', { name: 'Resize side menu' })
    expect(handle).toHaveAttribute('aria-valuemin', '16')
    expect(handle).toHaveAttribute('aria-valuemax', '32')
    handle.focus()
    const { default: userEvent } = await import('@testing-library/user-event')
    await userEvent.setup().keyboard('{ArrowRight}{ArrowRight}')
    expect(handle).toHaveAttribute('aria-valuenow', '18')
    await userEvent.setup().keyboard('{End}')
    expect(handle).toHaveAttribute('aria-valuenow', '32')
  })

  // Pages of their own (their machines' model and view tests render what they read): the route opens the page, whose
  // machine asks the server for its data.
  it.each([
    [`/project/${REF}/branches`, 'Branches', `/v1/projects/${REF}/branches`],
    [`/project/${REF}/reports`, 'Reports', '/platform/organizations/demo-pro/usage/daily'],
    [`/project/${REF}/logs/explorer`, 'Logs', `/platform/projects/${REF}/logs/requests`],
    ['/org/demo-pro/general', 'Organization settings', '/platform/organizations/demo-pro'],
    ['/org/demo-free/usage', 'Usage', '/platform/organizations/demo-free/usage'],
    ['/org/demo-pro/billing?panel=subscriptionPlan', 'Billing', '/platform/organizations/demo-pro/billing/plans'],
  ])('%s shows %s and reads %s', async (path, title, call) => {
    const platform = fakePlatform()
    renderApp(path)
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
    await waitFor(() => expect(platform.calls.map((c) => c.path)).toContain(call))
  })

  it.each([['/new/demo-free', 'Create a new project']])('%s shows the organization and its plan', async (path, title) => {
    fakePlatform()
    renderApp(path)
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
    expect(await screen.findByText(path.includes('free') ? 'Free' : 'Pro')).toBeInTheDocument()
  })

  it('/account/me shows the profile, the full theme list and access tokens', async () => {
    fakePlatform()
    renderApp('/account/me')
    expect(await screen.findByRole('heading', { level: 1, name: 'Account preferences' })).toBeInTheDocument()
    expect(screen.getByText('owner@example.com')).toBeInTheDocument()
    for (const name of ['Light', 'Dark', 'Deep dark', 'System']) expect(screen.getByRole('radio', { name })).toBeInTheDocument()
    expect(await screen.findByText('No access tokens yet.')).toBeInTheDocument()
  })

  it('/support/new is prefilled from the query', async () => {
    fakePlatform()
    renderApp(`/support/new?category=Database_unresponsive&ref=${REF}&subject=Help&message=It%20is%20down`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact support' })).toBeInTheDocument()
    expect(screen.getByLabelText('Category')).toHaveValue('Database_unresponsive')
    expect(screen.getByLabelText('Project reference')).toHaveValue(REF)
    expect(screen.getByLabelText('Subject')).toHaveValue('Help')
    expect(screen.getByLabelText('Message')).toHaveValue('It is down')
  })

  it.each(['/nowhere', `/project/${REF}/nowhere`, '/org/demo-pro/nowhere'])('%s is a 404 with a link to /projects', async (path) => {
    fakePlatform()
    renderApp(path)
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to your projects' })).toHaveAttribute('href', '/projects')
  })
})
