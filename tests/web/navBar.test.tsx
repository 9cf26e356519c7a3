import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeProject } from '../fixtures'
import { ALL_PERMISSIONS, ORGS, PLATFORM_FLAGS, fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst'

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

const nav = () => screen.getByRole('navigation', { name: 'Main navigation' })

async function openProject(path = `/project/${REF}/editor`, props: Parameters<typeof renderApp>[1] = {}) {
  const utils = renderApp(path, props)
  await screen.findByRole('navigation', { name: 'Main navigation' })
  // Product entries appear once the project (and so its organization) is known.
  await within(nav()).findByRole('link', { name: 'Logs' })
  return utils
}

describe('navigation bar', () => {
  it('lists every entry of the platform build for an owner, in groups, with the active route', async () => {
    fakePlatform()
    await openProject()
    const n = within(nav())
    expect(n.getByRole('link', { name: 'Project home' })).toHaveAttribute('href', `/project/${REF}`)
    for (const [name, href] of [
      ['Home', `/project/${REF}`],
      ['Table Editor', `/project/${REF}/editor`],
      ['SQL Editor', `/project/${REF}/sql/1`],
      ['Database', `/project/${REF}/database/tables`],
      ['Authentication', `/project/${REF}/auth/users`],
      ['Storage', `/project/${REF}/storage/buckets`],
      ['Edge Functions', `/project/${REF}/functions`],
      ['Realtime', `/project/${REF}/realtime/inspector`],
      ['Reports', `/project/${REF}/reports`],
      ['Logs', `/project/${REF}/logs/explorer`],
      ['API Docs', `/project/${REF}/api`],
      ['Project Settings', `/project/${REF}/settings/general`],
    ]) {
      expect(await n.findByRole('link', { name })).toHaveAttribute('href', href)
    }
    expect(n.getByRole('link', { name: 'Table Editor' })).toHaveAttribute('aria-current', 'page')
    expect(n.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
    expect(n.getByRole('button', { name: 'Search' })).toBeInTheDocument()
    expect(n.getByRole('button', { name: /^Account\b/ })).toBeInTheDocument()
  })

  it("the account button's name holds the username it shows when the bar is expanded (WCAG 2.5.3)", async () => {
    fakePlatform()
    renderApp(`/project/${REF}/editor`)
    const button = await within(await screen.findByRole('navigation', { name: 'Main navigation' })).findByRole('button', { name: /^Account\b/ })
    expect(button).toHaveTextContent('owner')
    expect(button).toHaveAccessibleName('Account owner')
  })

  it('uses /sql/new in the production build', async () => {
    fakePlatform()
    await openProject(undefined, { flags: { ...PLATFORM_FLAGS, isProduction: true } })
    expect(within(nav()).getByRole('link', { name: 'SQL Editor' })).toHaveAttribute('href', `/project/${REF}/sql/new`)
  })

  it('hides product entries the person has no permission for', async () => {
    fakePlatform({
      permissions: ORGS.map((org) => ({
        organization_id: org.id,
        organization_slug: org.slug,
        role: 'Developer' as const,
        permissions: ALL_PERMISSIONS.filter((p) => p !== 'project_auth:all' && p !== 'realtime:all'),
      })),
    })
    await openProject()
    const n = within(nav())
    expect(n.getByRole('link', { name: 'Storage' })).toBeInTheDocument()
    expect(n.getByRole('link', { name: 'Edge Functions' })).toBeInTheDocument()
    expect(n.queryByRole('link', { name: 'Authentication' })).not.toBeInTheDocument()
    expect(n.queryByRole('link', { name: 'Realtime' })).not.toBeInTheDocument()
  })

  it("reads permissions of the project's organization only", async () => {
    fakePlatform({
      permissions: [
        { organization_id: 1, organization_slug: 'demo-free', role: 'Owner', permissions: ALL_PERMISSIONS },
        { organization_id: 2, organization_slug: 'demo-pro', role: 'Read-only', permissions: [] },
      ],
    })
    await openProject()
    const n = within(nav())
    for (const name of ['Authentication', 'Edge Functions', 'Realtime']) {
      expect(n.queryByRole('link', { name })).not.toBeInTheDocument()
    }
    // Every member browses storage; what a Read-only member may do there is the Storage page's to say.
    expect(n.getByRole('link', { name: 'Storage' })).toBeInTheDocument()
  })

  it('hides products switched off in the build', async () => {
    fakePlatform()
    await openProject(undefined, {
      flags: { ...PLATFORM_FLAGS, features: { auth: false, storage: false, edgeFunctions: false, realtime: true } },
    })
    const n = within(nav())
    expect(n.queryByRole('link', { name: 'Authentication' })).not.toBeInTheDocument()
    expect(n.queryByRole('link', { name: 'Storage' })).not.toBeInTheDocument()
    expect(n.queryByRole('link', { name: 'Edge Functions' })).not.toBeInTheDocument()
    expect(n.getByRole('link', { name: 'Realtime' })).toBeInTheDocument()
  })

  it('leaves out Edge Functions, Reports, Project Settings, Search and Log out in the self-hosted build', async () => {
    fakePlatform()
    await openProject(undefined, { flags: { ...PLATFORM_FLAGS, isPlatform: false } })
    const n = within(nav())
    for (const name of ['Edge Functions', 'Reports', 'Project Settings']) {
      expect(n.queryByRole('link', { name })).not.toBeInTheDocument()
    }
    expect(n.getByRole('link', { name: 'Logs' })).toBeInTheDocument()
    expect(n.queryByRole('button', { name: 'Search' })).not.toBeInTheDocument()
    await userEvent.setup().click(n.getByRole('button', { name: /^Account\b/ }))
    expect(await screen.findByRole('menuitem', { name: 'Account preferences' })).toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Log out' })).not.toBeInTheDocument()
  })

  it('sends every tool link to the building page while the project is coming up', async () => {
    fakePlatform({ projects: [makeProject({ status: 'COMING_UP' })] })
    await openProject(`/project/${REF}`)
    const n = within(nav())
    // The project's own read ends once the lifecycle flows' code is in (a project coming up shows the building page):
    // until then the links are the list's.
    await waitFor(() => expect(n.getByRole('link', { name: 'Table Editor' })).toHaveAttribute('href', `/project/${REF}/building`))
    for (const name of ['Table Editor', 'SQL Editor', 'Database', 'Authentication', 'Storage', 'Logs', 'API Docs']) {
      expect(n.getByRole('link', { name })).toHaveAttribute('href', `/project/${REF}/building`)
    }
    expect(n.getByRole('link', { name: 'Home' })).toHaveAttribute('href', `/project/${REF}`)
    expect(n.getByRole('link', { name: 'Project Settings' })).toHaveAttribute('href', `/project/${REF}/settings/general`)
  })

  it('expands on hover and collapses on leave unless the account menu is open', async () => {
    fakePlatform()
    await openProject()
    const user = userEvent.setup()
    expect(nav()).toHaveAttribute('data-expanded', 'false')
    await user.hover(nav())
    expect(nav()).toHaveAttribute('data-expanded', 'true')
    await user.unhover(nav())
    expect(nav()).toHaveAttribute('data-expanded', 'false')
    await user.hover(nav())
    await user.click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    await screen.findByRole('menu')
    await user.unhover(nav())
    expect(nav()).toHaveAttribute('data-expanded', 'true')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(nav()).toHaveAttribute('data-expanded', 'false'))
  })

  it('shows the username and hides the e-mail when it equals the username', async () => {
    fakePlatform({ profile: { id: 1, username: 'owner@example.com', primary_email: 'owner@example.com' } })
    await openProject()
    await userEvent.setup().click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByText('owner@example.com')).toHaveLength(1)
  })

  it('shows the e-mail when it differs from the username', async () => {
    fakePlatform()
    await openProject()
    await userEvent.setup().click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByText('owner')).toBeInTheDocument()
    expect(within(menu).getByText('owner@example.com')).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Account preferences' })).toHaveAttribute('href', '/account/me')
    expect(within(menu).getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
    expect(within(menu).getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false')
  })

  it('works from the keyboard: arrows move, Escape closes and gives focus back', async () => {
    fakePlatform()
    await openProject()
    const user = userEvent.setup()
    const button = within(nav()).getByRole('button', { name: /^Account\b/ })
    button.focus()
    await user.keyboard('{ArrowDown}')
    const menu = await screen.findByRole('menu')
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(within(menu).getByRole('menuitem', { name: 'Account preferences' })).toHaveFocus()
    await user.keyboard('{ArrowDown}')
    expect(within(menu).getByRole('menuitem', { name: 'Feature previews' })).toHaveFocus()
    await user.keyboard('{ArrowUp}{ArrowUp}')
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(button).toHaveFocus()
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes when the pointer goes down outside it', async () => {
    fakePlatform()
    await openProject()
    const user = userEvent.setup()
    await user.click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    await screen.findByRole('menu')
    await user.click(document.body)
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('logs out and goes to /sign-in', async () => {
    const platform = fakePlatform()
    const { location } = await openProject()
    const user = userEvent.setup()
    await user.click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/sign-in')
    expect(platform.calls).toContainEqual({ method: 'POST', path: '/platform/auth/sign-out', body: {} })
  })

  it('switches the theme from the account menu and remembers it', async () => {
    fakePlatform()
    await openProject()
    const user = userEvent.setup()
    await user.click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    await user.click(await screen.findByRole('menuitemradio', { name: 'Dark' }))
    expect(document.documentElement).toHaveClass('dark')
    expect(localStorage.getItem('supabase-ui-theme')).toBe('dark')
  })

  it('opens the API docs panel instead of navigating when the preview is on', async () => {
    fakePlatform()
    await openProject()
    const user = userEvent.setup()
    expect(within(nav()).getByRole('link', { name: 'API Docs' })).toBeInTheDocument()
    await user.click(within(nav()).getByRole('button', { name: /^Account\b/ }))
    await user.click(await screen.findByRole('menuitem', { name: 'Feature previews' }))
    const dialog = await screen.findByRole('dialog', { name: 'Feature previews' })
    await user.click(within(dialog).getByRole('switch', { name: 'API docs panel' }))
    expect(localStorage.getItem('supabase-ui-feature-previews')).toBe('{"apiDocsPanel":true}')
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Feature previews' })).not.toBeInTheDocument())
    await user.click(within(nav()).getByRole('button', { name: 'API Docs' }))
    const panel = await screen.findByRole('dialog', { name: 'API Docs' })
    expect(await within(panel).findByRole('heading', { name: 'Connect to your project' })).toBeInTheDocument()
  })

  it('titles the page and shows organization › project › page breadcrumbs', async () => {
    fakePlatform()
    await openProject()
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    expect(await crumbs.findByRole('link', { name: 'Demo Pro' })).toHaveAttribute('href', '/org/demo-pro/general')
    expect(crumbs.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', `/project/${REF}`)
    expect(crumbs.getByText('Table Editor')).toHaveAttribute('aria-current', 'page')
    expect(document.title).toBe('Table Editor | Analytics | Demo Pro | Supabase')
  })
})
