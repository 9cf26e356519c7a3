/**
 * The GitHub integration through the real app on a fake platform: the organization's integrations page and the
 * project's settings/integrations page, the 'Add GitHub repository' panel (pickers with text search, the empty
 * states, Connect only with both chosen, linking and relinking), and the install popup's window and message rules.
 */
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installPopupFeatures, openInstallPopup, POPUP_BLOCKED } from '../../src/api/live/installPopup'
import type { Connection } from '../../src/contracts/github'
import { makeProject } from '../fixtures'
import { INSTALLATION, REPOSITORIES, connection } from '../fixtures.github'
import { PROJECTS, fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

// tests/web/platform.tsx's Demo Pro has Analytics and Storefront; its repositories are the fixtures'.
const [ANALYTICS, STOREFRONT] = PROJECTS
const ANALYTICS_NOTES = connection(1, REPOSITORIES[0], ANALYTICS)

function githubPlatform(options: { connections?: Connection[]; authorized?: boolean | 'fails'; projects?: typeof PROJECTS } = {}) {
  const platform = fakePlatform(options.projects ? { projects: options.projects } : {})
  const base = platform.fetch
  const connections = [...(options.connections ?? [ANALYTICS_NOTES])]
  const calls: Array<{ method: string; path: string; body?: unknown }> = []
  let next = 10
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    const method = input.method
    if (!path.startsWith('/platform/integrations/github') && path !== '/platform/organizations/demo-pro/integrations') return base(input)
    const body = method === 'POST' ? await input.clone().json() : undefined
    calls.push({ method, path, body })
    if (path === '/platform/organizations/demo-pro/integrations') return json([INSTALLATION])
    if (path === '/platform/integrations/github/authorization' && options.authorized === 'fails') return json({ message: 'GitHub is unreachable' }, 502)
    if (path === '/platform/integrations/github/authorization') return json(options.authorized === false ? null : { id: 1, user_id: 1, sender_id: 1, inserted_at: '2026-11-01T10:00:00.000Z' })
    if (path === '/platform/integrations/github/repositories') return json({ repositories: REPOSITORIES })
    if (path === '/platform/integrations/github/connections' && method === 'GET') return json({ connections })
    if (path === '/platform/integrations/github/connections' && method === 'POST') {
      const repo = REPOSITORIES.find((r) => r.id === body.repository_id)!
      const project = PROJECTS.find((p) => p.ref === body.project_ref)!
      const made = connection(next++, repo, project)
      connections.push(made)
      return json(made, 201)
    }
    const deleted = path.match(/^\/platform\/integrations\/github\/connections\/(\d+)$/)
    if (deleted && method === 'DELETE') {
      connections.splice(connections.findIndex((c) => c.id === Number(deleted[1])), 1)
      return json({ message: 'Successfully deleted' })
    }
    return json({ message: `No route for ${method} ${path}` }, 404)
  })
  return { calls, connections }
}

afterEach(() => vi.unstubAllGlobals())

const panel = () => screen.getByRole('dialog', { name: 'Add GitHub repository' })
const connectionsList = () => screen.getByRole('list', { name: 'Connections' })

describe('organization integrations page', () => {
  it('shows the installation card (account, type, who added it, when) and the connection cards', async () => {
    githubPlatform()
    renderApp('/org/demo-pro/integrations')
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument()
    const installations = await screen.findByRole('list', { name: 'Installations' })
    expect(within(installations).getByText('demo-pro')).toBeInTheDocument()
    expect(within(installations).getByText('(Organization)')).toBeInTheDocument()
    expect(within(installations).getByText('GitHub · Added by owner@example.com on 1 Nov 2026')).toBeInTheDocument()
    expect(within(connectionsList()).getByText('demo-pro/notes-app')).toBeInTheDocument()
    expect(within(connectionsList()).getByText('Added by owner@example.com on 2 Nov 2026')).toBeInTheDocument()
    expect(document.title).toBe('Integrations | Supabase')
  })

  it('links a project from the panel: Connect only with both chosen, then the toast and the new card', async () => {
    const user = userEvent.setup()
    const { calls } = githubPlatform()
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    const connect = await within(panel()).findByRole('button', { name: 'Connect' })
    expect(connect).toBeDisabled()
    await user.click(within(panel()).getByRole('radio', { name: /^demo-pro\/landing-page/ }))
    expect(connect).toBeDisabled()
    await user.click(within(panel()).getByRole('radio', { name: /^Storefront/ }))
    expect(connect).toBeEnabled()
    await user.click(connect)
    expect(await screen.findByText('Successfully linked project to repository!')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'POST', path: '/platform/integrations/github/connections', body: { installation_id: INSTALLATION.id, project_ref: STOREFRONT.ref, repository_id: REPOSITORIES[1].id } },
    ])
    expect(await within(connectionsList()).findByText('demo-pro/landing-page')).toBeInTheDocument()
  })

  it('searches each picker by text; an empty search says "No results found."', async () => {
    const user = userEvent.setup()
    githubPlatform()
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    await user.type(await within(panel()).findByRole('searchbox', { name: 'Search repositories' }), 'BROKEN')
    expect(within(panel()).getAllByRole('radio').filter((r) => r.getAttribute('name') === 'repository')).toHaveLength(1)
    await user.type(within(panel()).getByRole('searchbox', { name: 'Search projects' }), 'nothing')
    expect(within(panel()).getByText('No results found.')).toBeInTheDocument()
  })

  it("an organization without projects says 'No Supabase Projects found' with its hint", async () => {
    const user = userEvent.setup()
    githubPlatform({ projects: [] })
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    expect(await within(panel()).findByText('No Supabase Projects found')).toBeInTheDocument()
    expect(within(panel()).getByText(/You can skip this and create a Supabase Project later/)).toBeInTheDocument()
  })

  it("does not offer a preview branch's own project (the project list marks it with its parent's ref)", async () => {
    const user = userEvent.setup()
    const preview = makeProject({ id: 3, ref: 'cdefghijklmnopqrstuv', name: 'Analytics preview', organization_id: 2, organization_slug: 'demo-pro', parent_project_ref: ANALYTICS.ref })
    githubPlatform({ projects: [...PROJECTS, preview] })
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    await within(panel()).findByRole('radio', { name: /^Storefront/ })
    const offered = within(panel()).getAllByRole('radio').filter((r) => r.getAttribute('name') === 'project')
    expect(offered.map((r) => r.closest('label')?.textContent)).toEqual(['Analytics' + 'Linked to demo-pro/notes-app', 'Storefront'])
    expect(within(panel()).queryByText('Analytics preview')).toBeNull()
  })

  it('a linked repository cannot be chosen for another project', async () => {
    const user = userEvent.setup()
    githubPlatform()
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    await user.click(await within(panel()).findByRole('radio', { name: /^Storefront/ }))
    await user.click(within(panel()).getByRole('radio', { name: /^demo-pro\/notes-app/ }))
    expect(within(panel()).getByRole('alert')).toHaveTextContent(
      'Unable to connect to demo-pro/notes-app: Selected repository already has an installed connection to a project',
    )
    expect(within(panel()).getByRole('button', { name: 'Connect' })).toBeDisabled()
  })

  it('deletes a connection after its confirmation', async () => {
    const user = userEvent.setup()
    const { calls } = githubPlatform()
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Delete connection of Analytics to demo-pro/notes-app' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Delete GitHub connection' })).getByRole('button', { name: 'Delete connection' }))
    expect(await screen.findByText('No project is linked to a repository yet.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/platform/integrations/github/connections/${ANALYTICS_NOTES.id}`])
  })

  it('a person who has not authorized GitHub is offered the install step', async () => {
    const user = userEvent.setup()
    githubPlatform({ authorized: false })
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    expect(await within(panel()).findByRole('button', { name: 'Install GitHub' })).toBeEnabled()
  })

  it('a failed read of the GitHub authorization counts as none (spec 7: null on error): the install step, not a failed linker', async () => {
    const user = userEvent.setup()
    githubPlatform({ authorized: 'fails' })
    renderApp('/org/demo-pro/integrations')
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    expect(await within(panel()).findByRole('button', { name: 'Install GitHub' })).toBeEnabled()
    expect(within(panel()).queryByText('Failed to retrieve repositories')).toBeNull()
  })
})

describe('project settings › Integrations', () => {
  it('relinks the project: it comes chosen, its old connection is deleted, then the new one made', async () => {
    const user = userEvent.setup()
    const { calls } = githubPlatform()
    renderApp(`/project/${ANALYTICS.ref}/settings/integrations`)
    await user.click(await screen.findByRole('button', { name: 'Add GitHub repository' }))
    expect(await within(panel()).findByRole('radio', { name: /^Analytics/ })).toBeChecked()
    await user.click(within(panel()).getByRole('radio', { name: /^demo-pro\/broken-migrations/ }))
    expect(within(panel()).getByText('The project is linked to demo-pro/notes-app: connecting replaces that link.')).toBeInTheDocument()
    await user.click(within(panel()).getByRole('button', { name: 'Connect' }))
    expect(await screen.findByText('Successfully linked project to repository!')).toBeInTheDocument()
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
      `DELETE /platform/integrations/github/connections/${ANALYTICS_NOTES.id}`,
      'POST /platform/integrations/github/connections',
    ])
    expect(await within(connectionsList()).findByText('demo-pro/broken-migrations')).toBeInTheDocument()
    expect(within(connectionsList()).queryByText('demo-pro/notes-app')).toBeNull()
    expect(within(screen.getByRole('complementary', { name: 'Project Settings menu' })).getByRole('link', { name: 'Integrations' })).toHaveAttribute(
      'href',
      `/project/${ANALYTICS.ref}/settings/integrations`,
    )
  })
})

describe('links between the pages', () => {
  it("the organization's details link to its integrations page", async () => {
    const user = userEvent.setup()
    githubPlatform()
    const { location } = renderApp('/org/demo-pro/general')
    await user.click(await screen.findByRole('link', { name: 'Integrations' }))
    expect(await screen.findByRole('list', { name: 'Installations' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/org/demo-pro/integrations')
  })

  it("the project's Integrations page links to its organization's integrations page", async () => {
    githubPlatform()
    renderApp(`/project/${ANALYTICS.ref}/settings/integrations`)
    expect(await screen.findByRole('link', { name: "The organization's integrations" })).toHaveAttribute('href', '/org/demo-pro/integrations')
  })
})

describe('install popup', () => {
  function fakeWindow(opened: { closed: boolean; close: () => void } | null) {
    const listeners = new Set<(event: MessageEvent) => void>()
    const win = {
      screenX: 100,
      screenY: 50,
      outerWidth: 1400,
      outerHeight: 1000,
      location: { origin: 'http://127.0.0.1:8787' },
      open: vi.fn(() => opened),
      addEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.delete(listener),
    }
    const post = (data: unknown, origin = 'http://127.0.0.1:8787') => listeners.forEach((listener) => listener({ data, origin } as MessageEvent))
    return { win: win as unknown as Window, open: win.open, post, listeners }
  }

  it('is 600x800, centred on the opener', () => {
    expect(installPopupFeatures({ screenX: 100, screenY: 50, outerWidth: 1400, outerHeight: 1000 })).toBe('popup=yes,width=600,height=800,left=500,top=150')
    expect(installPopupFeatures({ screenX: 0, screenY: 0, outerWidth: 500, outerHeight: 600 })).toBe('popup=yes,width=600,height=800,left=0,top=0')
  })

  it("opens the platform's install page and reports only its own origin's message for this organization", () => {
    const popup = { closed: false, close: vi.fn() }
    const { win, open, post, listeners } = fakeWindow(popup)
    const completed = vi.fn()
    const failed = vi.fn()
    const stop = openInstallPopup('demo-pro', completed, failed, win)
    expect(open).toHaveBeenCalledWith('/platform/integrations/github/install?organization_slug=demo-pro', 'github-install', 'popup=yes,width=600,height=800,left=500,top=150')
    post({ type: 'github-installation', organization_slug: 'demo-pro', installation_id: 7 }, 'http://elsewhere.test')
    post({ type: 'github-installation', organization_slug: 'demo-free', installation_id: 7 })
    post({ type: 'github-installation', organization_slug: 'demo-pro', installation_id: 'seven' })
    expect(completed).not.toHaveBeenCalled()
    post({ type: 'github-installation', organization_slug: 'demo-pro', installation_id: 7 })
    expect(completed).toHaveBeenCalledTimes(1)
    stop()
    expect(listeners.size).toBe(0)
    expect(popup.close).toHaveBeenCalled()
    expect(failed).not.toHaveBeenCalled()
  })

  it('a blocked popup is reported', () => {
    const { win } = fakeWindow(null)
    const failed = vi.fn()
    openInstallPopup('demo-pro', vi.fn(), failed, win)
    expect(failed).toHaveBeenCalledWith(POPUP_BLOCKED)
  })
})
