import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeProject } from '../fixtures'
import { ORGS, PROJECTS, fakePlatform, renderApp } from '../fakePlatform'

afterEach(() => vi.unstubAllGlobals())

describe('project list', () => {
  it('groups projects by organization, with links to the organization, a new project and each project', async () => {
    fakePlatform()
    renderApp('/projects')
    const pro = await screen.findByRole('region', { name: 'Demo Pro' })
    expect(within(pro).getByRole('link', { name: 'Demo Pro' })).toHaveAttribute('href', '/org/demo-pro/general')
    expect(within(pro).getByRole('link', { name: 'New project' })).toHaveAttribute('href', '/new/demo-pro')
    const card = within(pro).getByRole('link', { name: /^Analytics / })
    expect(card).toHaveAttribute('href', '/project/abcdefghijklmnopqrst')
    expect(within(card).getByText('Active')).toBeInTheDocument()
    expect(within(card).getByText('us-east-1')).toBeInTheDocument()
    expect(within(pro).getByRole('link', { name: /^Storefront / })).toHaveTextContent('Paused')
    expect(document.title).toBe('Projects | Supabase')
  })

  it('names each card by all it shows, the project name first (the accessible name contains the visible label)', async () => {
    fakePlatform()
    renderApp('/projects')
    const pro = await screen.findByRole('region', { name: 'Demo Pro' })
    const card = within(pro).getByRole('link', { name: /^Analytics\b/ })
    expect(card).not.toHaveAttribute('aria-label')
    expect(card).toHaveAccessibleName('Analytics Active us-east-1 abcdefghijklmnopqrst')
  })

  it("shows 'No projects found in this organization' for an organization without projects", async () => {
    fakePlatform()
    renderApp('/projects')
    const free = await screen.findByRole('region', { name: 'Demo Free' })
    expect(within(free).getByText('No projects found in this organization')).toBeInTheDocument()
    expect(within(free).getByRole('link', { name: 'New project' })).toHaveAttribute('href', '/new/demo-free')
  })

  it('searches project names and refs', async () => {
    fakePlatform()
    renderApp('/projects')
    const user = userEvent.setup()
    const search = await screen.findByRole('searchbox', { name: 'Search for a project' })
    await user.type(search, 'store')
    expect(screen.getByRole('link', { name: /^Storefront / })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /^Analytics / })).not.toBeInTheDocument()
    await user.clear(search)
    await user.type(search, 'abcdefghij')
    expect(screen.getByRole('link', { name: /^Analytics / })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /^Storefront / })).not.toBeInTheDocument()
  })

  it("shows 'No results found.' when nothing matches", async () => {
    fakePlatform()
    renderApp('/projects')
    const user = userEvent.setup()
    await user.type(await screen.findByRole('searchbox', { name: 'Search for a project' }), 'zzz-nothing')
    expect(screen.getByText('No results found.')).toBeInTheDocument()
    expect(screen.queryByText('No projects found in this organization')).not.toBeInTheDocument()
  })

  it('shows a failed load with a retry that loads again', async () => {
    const platform = fakePlatform()
    const original = platform.fetch.getMockImplementation()!
    // The list fails until the person asks again (under StrictMode the first request may be a cancelled one).
    let down = true
    platform.fetch.mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.endsWith('/platform/projects') && down) {
        return new Response(JSON.stringify({ message: 'Database is down' }), { status: 500 })
      }
      return original(input, init)
    })
    renderApp('/projects')
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is down')
    down = false
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: /^Analytics / })).toBeInTheDocument()
  })

  it('refreshes without blanking the list', async () => {
    const platform = fakePlatform()
    renderApp('/projects')
    await screen.findByRole('link', { name: /^Analytics / })
    platform.state.projects = [...PROJECTS, makeProject({ id: 3, ref: 'cdefghijklmnopqrstuv', name: 'Inventory', organization_id: ORGS[0].id, organization_slug: 'demo-free' })]
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }))
    expect(screen.getByRole('link', { name: /^Analytics / })).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: /^Inventory / })).toBeInTheDocument()
  })
})
