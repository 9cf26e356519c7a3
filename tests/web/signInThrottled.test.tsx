import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { fakePlatform, renderApp } from '../fakePlatform'

afterEach(() => vi.unstubAllGlobals())

it("shows the server's message when sign-in is throttled (429) and lets the person try again later", async () => {
  const platform = fakePlatform({ signedIn: false })
  const message = 'Too many failed sign-in attempts. Try again in 15 minutes.'
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
    if (url.pathname === '/platform/auth/sign-in') {
      return new Response(JSON.stringify({ message }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '900' },
      })
    }
    return platform.fetch(input, init)
  })
  renderApp('/sign-in')
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Email'), 'owner@example.com')
  await user.type(screen.getByLabelText('Password'), 'demo1234')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(message)
  expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled()
})
