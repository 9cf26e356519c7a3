import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakePlatform, renderApp } from '../fakePlatform'

afterEach(() => vi.unstubAllGlobals())

describe('sign-in', () => {
  it('signs in with e-mail and password and goes to /projects', async () => {
    const platform = fakePlatform({ signedIn: false })
    const { location } = renderApp('/sign-in')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Email'), 'owner@example.com')
    await user.type(screen.getByLabelText('Password'), 'demo1234')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/projects')
    expect(platform.calls).toContainEqual({ method: 'POST', path: '/platform/auth/sign-in', body: { email: 'owner@example.com', password: 'demo1234' } })
  })

  it("shows the server's message on a wrong password and keeps the e-mail", async () => {
    fakePlatform({ signedIn: false })
    renderApp('/sign-in')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Email'), 'owner@example.com')
    await user.type(screen.getByLabelText('Password'), 'wrong-password')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid e-mail or password')
    expect(screen.getByLabelText('Email')).toHaveValue('owner@example.com')
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled()
  })

  it('validates the form before calling the server', async () => {
    const platform = fakePlatform({ signedIn: false })
    renderApp('/sign-in')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Email'), 'not-an-email')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('Enter a valid e-mail address')).toHaveAttribute('role', 'alert')
    expect(screen.getByText('Enter your password')).toBeInTheDocument()
    expect(platform.calls.filter((call) => call.path === '/platform/auth/sign-in')).toHaveLength(0)
  })

  it('sends a signed-out visitor of a signed-in route to /sign-in', async () => {
    fakePlatform({ signedIn: false })
    const { location } = renderApp('/projects')
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/sign-in')
  })

  it('sends a signed-in visitor of /sign-in to /projects', async () => {
    fakePlatform()
    const { location } = renderApp('/sign-in')
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/projects')
  })

  it('ends the session on any 401 and goes to /sign-in', async () => {
    const platform = fakePlatform()
    const { location } = renderApp('/projects')
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    platform.state.signedIn = false
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }))
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    await waitFor(() => expect(location.history.at(-1)).toBe('/sign-in'))
  })

  it('redirects / to /projects', async () => {
    fakePlatform()
    const { location } = renderApp('/')
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/projects')
  })
})
