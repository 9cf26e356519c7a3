/**
 * The remaining project screens in the app: settings (add-ons with the PITR panel, general with the custom domain,
 * API with the custom domain's URL), the plain pages, the not-found page of an unknown project, project home's
 * skeleton, the support form and a malformed answer.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectAddons } from '../../src/contracts/settings'
import { PLAIN_PAGES } from '../../src/views/project/placeholders/PlainPages'
import { fakePlatform, platformWith, renderApp } from '../fakePlatform'
import { USAGES, WARNINGS } from '../fixtures.usage'

const REF = 'abcdefghijklmnopqrst'
afterEach(() => vi.unstubAllGlobals())

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const addons = (pitr: boolean): ProjectAddons => ({
  ref: REF,
  selected_addons: pitr ? [{ type: 'pitr', variant: { identifier: 'pitr_7', name: '7 days of recovery' } }] : [],
  available_addons: [
    {
      type: 'pitr',
      name: 'Point in time recovery',
      variants: [
        { identifier: 'pitr_7', name: '7 days of recovery' },
        { identifier: 'pitr_14', name: '14 days of recovery' },
      ],
    },
  ],
})

describe('project screens', () => {
  it('settings/addons?panel=pitr opens the PITR panel; enabling it asks the platform and says so', async () => {
    let enabled = false
    const calls = platformWith({}, (method, path) => {
      if (path !== `/platform/projects/${REF}/billing/addons`) return undefined
      if (method === 'POST') enabled = true
      return json(addons(enabled))
    })
    renderApp(`/project/${REF}/settings/addons?panel=pitr`)
    const dialog = await screen.findByRole('dialog', { name: 'Point in Time Recovery' })
    expect(within(dialog).getByText('We strongly encourage enabling Point in Time Recovery (PITR)')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('radio', { name: '14 days of recovery' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enable PITR' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Point in Time Recovery is enabled')
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ addon_type: 'pitr', addon_variant: 'pitr_14' })
    expect(document.title).toBe('Add-ons | Analytics | Demo Pro | Supabase')
  })

  it("settings/general maps the free plan's refusal to 'not allowed'", async () => {
    platformWith({}, (_, path) =>
      path === `/v1/projects/${REF}/custom-hostname` ? json({ message: 'This project is not allowed to set up custom domain' }, 400) : undefined,
    )
    renderApp(`/project/${REF}/settings/general`)
    const region = await screen.findByRole('region', { name: 'Custom domains' })
    expect(await within(region).findByText(/not allowed to set one up/)).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'General settings' })).toBeInTheDocument()
  })

  it("settings/api shows an active custom domain's URL, told to the running keys panel (the settings are read once)", async () => {
    const calls = platformWith({}, (_, path) => {
      if (path === `/v1/projects/${REF}/custom-hostname`) {
        return json({
          status: '5_services_reconfigured',
          custom_hostname: 'api.acme.test',
          data: {
            success: true,
            errors: [],
            messages: [],
            result: {
              id: 'x',
              hostname: 'api.acme.test',
              ssl: { status: 'active', validation_records: [] },
              ownership_verification: { type: 'txt', name: 'n', value: 'v' },
              custom_origin_server: 'o',
              status: 'active',
            },
          },
        })
      }
      if (path === `/platform/props/project/${REF}/settings`) {
        return json({
          project: { id: 1, ref: REF, name: 'Analytics', status: 'ACTIVE_HEALTHY', db_host: 'localhost', jwt_secret: 'secret-secret-secret-secret-secret' },
          services: [{ id: 1, name: 'Auto API', app: { id: 1, name: 'Auto API' }, app_config: { protocol: 'http', endpoint: `localhost/p/${REF}` }, service_api_keys: [{ api_key: 'anon-key', name: 'anon key', tags: 'anon' }] }],
        })
      }
      return undefined
    })
    renderApp(`/project/${REF}/settings/api`)
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Project Configuration' })).getByText('https://api.acme.test')).toBeInTheDocument())
    expect(screen.getByText('anon-key')).toBeInTheDocument()
    // One read that was not abandoned (StrictMode's first mount aborts its own).
    expect(calls.filter((c) => c.path === `/platform/props/project/${REF}/settings` && !c.signal.aborted)).toHaveLength(1)
  })

  for (const [section, page] of Object.entries(PLAIN_PAGES)) {
    it(`/project/{ref}/${section} says what the platform has, with links`, async () => {
      fakePlatform()
      renderApp(`/project/${REF}/${section}`)
      expect(await screen.findByRole('heading', { level: 1, name: page.title })).toBeInTheDocument()
      expect(screen.getByText(page.line)).toBeInTheDocument()
      // The page's own links (the navigation bar has links of the same names).
      for (const link of page.links) expect(within(screen.getByRole('main')).getByRole('link', { name: link.label })).toHaveAttribute('href', `/project/${REF}/${link.section}`)
      expect(screen.queryByText(/being built|later versions/)).toBeNull()
    })
  }

  it('an unknown project ref shows a not-found page with the way back, and no project tools', async () => {
    fakePlatform()
    renderApp('/project/zzzzzzzzzzzzzzzzzzzz/editor')
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to your projects' })).toHaveAttribute('href', '/projects')
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Table Editor' })).toBeNull()
    expect(document.title).toBe('Project not found | Supabase')
  })

  it("a raised warning shows its banner above the page, and usage over the plan's quota the header's badge", async () => {
    platformWith({}, (_, path) => {
      if (path === '/platform/projects-resource-warnings') return json(WARNINGS)
      if (path === '/platform/organizations/demo-pro/usage') return json({ usages: USAGES })
      return undefined
    })
    renderApp(`/project/${REF}`)
    const banner = (await screen.findByText('Your project is running out of CPU')).closest('[role="status"]')
    expect(banner).toHaveAttribute('data-variant', 'warning')
    expect(within(banner as HTMLElement).getByRole('link', { name: 'Check usage' })).toHaveAttribute('href', `/project/${REF}/settings/infrastructure#cpu`)
    // The page's header: the one with the breadcrumbs (the navigation bar has a header of its own).
    const header = screen.getByRole('navigation', { name: 'Breadcrumb' }).closest('header') as HTMLElement
    expect(await within(header).findByRole('link', { name: 'Exceeding usage limits' })).toHaveAttribute('href', '/org/demo-pro/usage')
  })

  it('no warning and usage within the quota: neither the banner nor the badge', async () => {
    const calls = platformWith({}, (_, path) => {
      if (path === '/platform/projects-resource-warnings') return json([])
      if (path === '/platform/organizations/demo-pro/usage') return json({ usages: [] })
      return undefined
    })
    renderApp(`/project/${REF}`)
    await waitFor(() => expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining(['/platform/projects-resource-warnings', '/platform/organizations/demo-pro/usage'])))
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics' })).toBeInTheDocument()
    expect(screen.queryByText(/Your project (is|has)/)).toBeNull()
    expect(screen.queryByRole('link', { name: 'Exceeding usage limits' })).toBeNull()
  })

  it("project home shows a skeleton while the project loads", async () => {
    platformWith({}, (_, path) => (path === `/platform/projects/${REF}` ? new Promise<Response>(() => {}) : undefined))
    renderApp(`/project/${REF}`)
    expect(await screen.findByRole('status', { name: 'Loading project…' })).toBeInTheDocument()
  })

  it('the support form sends the ticket; a malformed answer says so and keeps what was typed', async () => {
    let answer = json({ unexpected: true })
    const calls = platformWith({}, (method, path) => (path === '/platform/support/tickets' && method === 'POST' ? answer : undefined))
    renderApp(`/support/new?category=Database_unresponsive&ref=${REF}&subject=Slow`)
    await userEvent.type(await screen.findByLabelText('Message'), 'Every query times out')
    await userEvent.click(screen.getByRole('button', { name: 'Send support request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/Failed to send the support request: Malformed response/)
    expect(screen.getByLabelText('Message')).toHaveValue('Every query times out')
    answer = json({ id: 't1', category: 'Database_unresponsive', project_ref: REF, subject: 'Slow', message: 'Every query times out', created_at: '2026-11-24T10:00:00.000Z' }, 201)
    await userEvent.click(screen.getByRole('button', { name: 'Send support request' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Support request sent: Slow')
    expect(calls.at(-1)?.body).toEqual({ category: 'Database_unresponsive', project_ref: REF, subject: 'Slow', message: 'Every query times out' })
  })
})
