/**
 * The 'Add GitHub repository' panel and the integrations cards under bad answers, through the real HTTP client,
 * contracts and live actors: a read that fails in any way (status, network, time-out, a body its contract refuses)
 * says why with a way to try again; a link that fails keeps the panel and both selections with the spec's message;
 * a failed deletion of the project's old connection is ignored; a failed card deletion says so in a toast.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveGitHubIntegrationsMachine } from '../../src/api/live/githubIntegrations'
import { liveRepositoryRelinkMachine } from '../../src/api/live/repositoryRelink'
import { GitHubIntegrations } from '../../src/views/org/integrations/GitHubIntegrations'
import { makeProject } from '../fixtures'
import { ACME, ACME_NOTES, INSTALLATION, LANDING_PAGE, ORG, PORTAL, REPOSITORIES, connection } from '../fixtures.github'
import { BAD_ANSWERS, json, useFakeClock, type Answer } from '../fakePlatform'

useFakeClock(0)

const ORGANIZATION = { id: ORG.id, slug: ORG.slug, name: ORG.name, plan: { id: 'pro' }, opt_in_tags: [] }
const PROJECTS = [
  makeProject({ ref: ACME.ref, name: ACME.name, organization_id: ORG.id, organization_slug: ORG.slug }),
  makeProject({ ref: PORTAL.ref, name: PORTAL.name, organization_id: ORG.id, organization_slug: ORG.slug }),
]
const AUTHORIZATION = { id: 1, user_id: 1, sender_id: 1, inserted_at: '2026-11-01T10:00:00.000Z' }

type Route = `${'GET' | 'POST' | 'DELETE'} ${string}`
const ROUTES: Record<string, Route> = {
  organization: 'GET /platform/organizations/demo-pro',
  installations: 'GET /platform/organizations/demo-pro/integrations',
  authorization: 'GET /platform/integrations/github/authorization',
  repositories: 'GET /platform/integrations/github/repositories',
  projects: 'GET /platform/projects',
  connections: 'GET /platform/integrations/github/connections',
  create: 'POST /platform/integrations/github/connections',
}

/** A platform answering by method and path: scripted answers first, then the good ones; each request logged. */
function platform(script: Partial<Record<Route, Answer[]>> = {}) {
  const good: Record<string, Answer> = {
    [ROUTES.organization]: json(ORGANIZATION),
    [ROUTES.installations]: json([INSTALLATION]),
    [ROUTES.authorization]: json(AUTHORIZATION),
    [ROUTES.repositories]: json({ repositories: REPOSITORIES }),
    [ROUTES.projects]: json(PROJECTS),
    [ROUTES.connections]: json({ connections: [ACME_NOTES] }),
    [ROUTES.create]: json(connection(5, LANDING_PAGE, ACME), 201),
    [`DELETE /platform/integrations/github/connections/${ACME_NOTES.id}`]: json({ message: 'Successfully deleted' }),
  }
  const log: string[] = []
  vi.stubGlobal('fetch', (input: Request) => {
    const route = `${input.method} ${new URL(input.url, 'http://localhost').pathname}`
    log.push(route)
    const answer = script[route as Route]?.shift() ?? good[route] ?? json({ message: `No route for ${route}` }, 404)
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return log
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const panel = () => screen.getByRole('dialog', { name: 'Add GitHub repository' })

async function renderPage() {
  const integrations = createActor(liveGitHubIntegrationsMachine, { input: { slug: ORG.slug } }).start()
  await advance(0)
  const linker = createActor(liveRepositoryRelinkMachine, {
    input: { organization: { id: ORG.id, slug: ORG.slug }, toasts: integrations.getSnapshot().context.toasts, connectionsOwner: integrations },
  }).start()
  render(<GitHubIntegrations integrations={integrations} linker={linker} />)
  return { integrations, linker }
}

async function openAndChoose() {
  fireEvent.click(screen.getByRole('button', { name: 'Add GitHub repository' }))
  await advance(0)
  fireEvent.click(within(panel()).getByRole('radio', { name: /^Acme Storefront/ }))
  fireEvent.click(within(panel()).getByRole('radio', { name: /^demo-pro\/landing-page/ }))
}

const loadCases: Array<[string, Answer, RegExp]> = [
  ['a body that is not JSON', BAD_ANSWERS[0][1], /Malformed response from \/platform\/integrations\/github\/repositories\?organization_id=2: not JSON/],
  ['a 500', BAD_ANSWERS[1][1], /Internal server error/],
  ['a 500 that is not JSON', BAD_ANSWERS[2][1], /Request failed with status 500/],
  ['a network failure', BAD_ANSWERS[3][1], /Unable to reach the server/],
  ['a time-out', BAD_ANSWERS[4][1], /The request timed out/],
  ['repositories that are not a list', json({ repositories: { id: 1 } }), /Malformed response .* at repositories/],
  ['a repository id that is a string', json({ repositories: [{ ...LANDING_PAGE, id: '12' }] }), /Malformed response .* at repositories\.0\.id/],
]

describe('repository linker under bad answers: opening', () => {
  it.each(loadCases)('%s: says why, and Try again shows the pickers', async (_name, bad, message) => {
    platform({ [ROUTES.repositories]: [bad] })
    const { linker, integrations } = await renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Add GitHub repository' }))
    await advance(10_000)
    const alert = within(panel()).getByRole('alert')
    expect(alert).toHaveTextContent('Failed to retrieve repositories')
    expect(alert).toHaveTextContent(message)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await advance(0)
    expect(within(panel()).getByRole('radio', { name: /^demo-pro\/landing-page/ })).toBeInTheDocument()
    linker.stop()
    integrations.stop()
  })

  it('an authorization answer of the wrong shape counts as none (the read returns null on error): the install step', async () => {
    platform({ [ROUTES.authorization]: [json({ id: 'me' })] })
    const { linker } = await renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Add GitHub repository' }))
    await advance(0)
    expect(within(panel()).getByRole('button', { name: 'Install GitHub' })).toBeEnabled()
    expect(within(panel()).queryByRole('alert')).toBeNull()
    linker.stop()
  })
})

const createCases: Array<[string, Answer, string]> = [
  ['a body that is not JSON', BAD_ANSWERS[0][1], 'Failed to create Github connection: Malformed response from /platform/integrations/github/connections: not JSON'],
  ['a 500', BAD_ANSWERS[1][1], 'Failed to create Github connection: Internal server error'],
  ['a network failure', BAD_ANSWERS[3][1], 'Failed to create Github connection: Unable to reach the server'],
  ['a time-out', BAD_ANSWERS[4][1], 'Failed to create Github connection: The request timed out'],
  ['a connection without its project', json({ ...connection(5, LANDING_PAGE, ACME), project: undefined }, 201), 'Failed to create Github connection: Malformed response from /platform/integrations/github/connections at project'],
  ['a 403 for a Read-only member', json({ message: 'Your role in this organization (Read-only) cannot change its integrations' }, 403), 'Failed to create Github connection: Your role in this organization (Read-only) cannot change its integrations'],
  [
    'a 409: the repository was linked meanwhile',
    json({ message: 'Selected repository already has an installed connection to a project', code: 'repository_already_connected' }, 409),
    'Unable to connect to demo-pro/landing-page: Selected repository already has an installed connection to a project',
  ],
]

describe('repository linker under bad answers: connecting', () => {
  it.each(createCases)('%s: the panel stays with both selections and the message', async (_name, bad, message) => {
    const log = platform({ [ROUTES.create]: [bad] })
    const { linker } = await renderPage()
    await openAndChoose()
    fireEvent.click(within(panel()).getByRole('button', { name: 'Connect' }))
    await advance(10_000)
    // Acme Storefront's old connection was deleted first.
    expect(log).toContain(`DELETE /platform/integrations/github/connections/${ACME_NOTES.id}`)
    expect(within(panel()).getByRole('alert')).toHaveTextContent(message)
    expect(within(panel()).getByRole('radio', { name: /^Acme Storefront/ })).toBeChecked()
    expect(within(panel()).getByRole('radio', { name: /^demo-pro\/landing-page/ })).toBeChecked()
    expect(within(panel()).getByRole('button', { name: 'Connect' })).toBeEnabled()
    linker.stop()
  })

  it('a failed deletion of the old connection is ignored: the new one is made and the panel closes with the toast', async () => {
    const log = platform({ [`DELETE /platform/integrations/github/connections/${ACME_NOTES.id}`]: [json({ message: 'Internal server error' }, 500)] })
    const { linker } = await renderPage()
    await openAndChoose()
    fireEvent.click(within(panel()).getByRole('button', { name: 'Connect' }))
    await advance(0)
    expect(log.filter((r) => r.startsWith('POST'))).toEqual([ROUTES.create])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('status', { name: 'Notifications' })).toHaveTextContent('Successfully linked project to repository!')
    // Read by the cards, by the panel when it opened, and again by the cards after the link.
    expect(log.filter((r) => r === ROUTES.connections)).toHaveLength(3)
    linker.stop()
  })
})

describe('integrations cards under bad answers', () => {
  it.each(BAD_ANSWERS)('%s reading the connections: says why, Try again shows the cards', async (_name, bad) => {
    platform({ [ROUTES.connections]: [bad] })
    const integrations = createActor(liveGitHubIntegrationsMachine, { input: { slug: ORG.slug } }).start()
    render(<GitHubIntegrations integrations={integrations} linker={null} />)
    await advance(10_000)
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load integrations')
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await advance(0)
    expect(within(screen.getByRole('list', { name: 'Connections' })).getByText(/demo-pro\/notes-app/)).toBeInTheDocument()
    integrations.stop()
  })

  it('a failed deletion keeps the card and toasts the spec’s message', async () => {
    platform({ [`DELETE /platform/integrations/github/connections/${ACME_NOTES.id}`]: [json({ message: 'Connection 1 not found' }, 404)] })
    const integrations = createActor(liveGitHubIntegrationsMachine, { input: { slug: ORG.slug } }).start()
    render(<GitHubIntegrations integrations={integrations} linker={null} />)
    await advance(0)
    fireEvent.click(screen.getByRole('button', { name: /^Delete connection of Acme Storefront/ }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete connection' }))
    await advance(0)
    expect(screen.getByRole('status', { name: 'Notifications' })).toHaveTextContent('Failed to delete Github connection: Connection 1 not found')
    expect(within(screen.getByRole('list', { name: 'Connections' })).getByText(/demo-pro\/notes-app/)).toBeInTheDocument()
    integrations.stop()
  })
})
