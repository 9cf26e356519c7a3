/**
 * The accounts screens in the real app on a fake platform: /sign-up signs in and lands on the project list, the
 * sign-in and sign-up pages link to each other, /account/me saves the username (the account menu follows),
 * /org/{slug}/team lists the members, /join accepts an invitation (the session takes the new permissions).
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OrganizationTeam } from '../../src/contracts/members'
import { OWNER, fakePlatform, renderApp } from '../fakePlatform'

afterEach(() => vi.unstubAllGlobals())

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The fake platform, with the accounts routes answered in front of it. */
function platformWithAccounts(options: Parameters<typeof fakePlatform>[0] = {}) {
  const platform = fakePlatform(options)
  const base = platform.fetch.getMockImplementation()!
  const team: OrganizationTeam = {
    members: [
      { account_id: 1, username: 'owner', primary_email: 'owner@example.com', role: 'Owner' },
      { account_id: 2, username: 'developer', primary_email: 'developer@example.com', role: 'Developer' },
    ],
    invitations: [],
  }
  const signUps: unknown[] = []
  platform.fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const path = new URL(request.url, 'http://localhost').pathname
    if (path === '/platform/auth/sign-up' && request.method === 'POST') {
      const body = (await request.clone().json()) as { email: string }
      signUps.push(body)
      if (body.email === 'owner@example.com') return json({ message: 'An account with this e-mail address already exists. Sign in instead.', code: 'email_taken' }, 409)
      platform.state.signedIn = true
      platform.state.profile = { id: 9, username: 'newcomer', primary_email: body.email }
      return json(platform.state.profile, 201)
    }
    if (path === '/platform/profile' && request.method === 'PATCH') {
      const body = (await request.clone().json()) as { username: string }
      platform.state.profile = { ...platform.state.profile, username: body.username }
      return json(platform.state.profile)
    }
    if (path === '/platform/organizations/demo-pro/members') return json(team)
    if (path === '/platform/invitations/accept') return json({ slug: 'demo-pro', name: 'Demo Pro', role: 'Developer' })
    return base(input, init)
  })
  return { ...platform, signUps }
}

describe('sign-up', () => {
  it('the sign-in page links to sign-up and back', async () => {
    platformWithAccounts({ signedIn: false })
    const user = userEvent.setup()
    const { location } = renderApp('/sign-in')
    await user.click(await screen.findByRole('link', { name: 'Sign up' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Get started' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/sign-up')
    await user.click(screen.getByRole('link', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument()
  })

  it('checks the fields before sending, shows a taken e-mail, then signs up and lands on the project list', async () => {
    const platform = platformWithAccounts({ signedIn: false })
    const user = userEvent.setup()
    const { location } = renderApp('/sign-up')
    await user.type(await screen.findByLabelText('Email'), 'not-an-email')
    await user.type(screen.getByLabelText('Password'), 'short')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument()
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument()
    expect(platform.signUps).toHaveLength(0)

    await user.clear(screen.getByLabelText('Email'))
    await user.type(screen.getByLabelText('Email'), 'owner@example.com')
    await user.clear(screen.getByLabelText('Password'))
    await user.type(screen.getByLabelText('Password'), 'long enough')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this e-mail address already exists. Sign in instead.')
    expect(screen.getByLabelText('Email')).toHaveValue('owner@example.com')

    await user.clear(screen.getByLabelText('Email'))
    await user.type(screen.getByLabelText('Email'), 'Newcomer@Example.com')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    await waitFor(() => expect(location.history.at(-1)).toBe('/projects'))
    expect(platform.signUps.at(-1)).toEqual({ email: 'newcomer@example.com', password: 'long enough' })
  }, 30_000)
})

describe('/account/me', () => {
  it('saves the username; the account menu shows the new name', async () => {
    platformWithAccounts()
    const user = userEvent.setup()
    renderApp('/account/me')
    const field = await screen.findByLabelText('Username')
    expect(field).toHaveValue(OWNER.username)
    expect(screen.getByText(OWNER.primary_email)).toBeInTheDocument()
    await user.clear(field)
    await user.type(field, 'boss')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Profile saved')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('button', { name: /Account/ })).toHaveTextContent('boss'))
  })
})

describe('/org/{slug}/team and /join', () => {
  it('an Owner sees the members with role pickers and the invite button', async () => {
    platformWithAccounts()
    renderApp('/org/demo-pro/team')
    const table = await screen.findByRole('table', { name: 'Members' })
    expect(within(table).getByLabelText('Role of developer')).toHaveValue('Developer')
    expect(screen.getByRole('button', { name: 'Invite member' })).toBeEnabled()
  })

  it('accepting an invitation shows the organization joined', async () => {
    platformWithAccounts()
    const user = userEvent.setup()
    renderApp(`/join?token=12.${'a'.repeat(43)}`)
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('status')).toHaveTextContent('You joined Demo Pro as Developer.')
  })
})
