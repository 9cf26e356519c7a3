/**
 * The app under React's StrictMode (as `npm run dev` runs it) on a platform that behaves like a real network:
 * answers take a while and an aborted request rejects with an AbortError. StrictMode mounts, unmounts and mounts
 * again, so every actor started at mount is stopped (aborting its first request) and started again; what the
 * person sees must be the answer to the request that counts, never the cancelled one.
 */
import { getConfig, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakePlatform, renderApp } from '../fakePlatform'

/** fakePlatform's answers, given after `ms` of real time, and abandoned like a browser's fetch when aborted. */
function overTheNetwork(platform: ReturnType<typeof fakePlatform>, ms = 20) {
  const aborted: string[] = []
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    return new Promise<Response>((resolve, reject) => {
      const abort = () => {
        aborted.push(new URL(request.url).pathname)
        clearTimeout(timer)
        reject(new DOMException('The operation was aborted.', 'AbortError'))
      }
      const timer = setTimeout(() => platform.fetch(request).then(resolve, reject), ms)
      if (request.signal.aborted) abort()
      else request.signal.addEventListener('abort', abort)
    })
  })
  return { aborted }
}

afterEach(() => vi.unstubAllGlobals())

describe('the app under StrictMode', () => {
  it('renders under StrictMode (tests/setup.web.ts), as `npm run dev` does', () => {
    expect(getConfig().reactStrictMode).toBe(true)
  })

  it('a new visitor (profile answered 401) lands on the sign-in page, not on a cancelled session check', async () => {
    const platform = fakePlatform({ signedIn: false })
    overTheNetwork(platform)
    const { location } = renderApp('/projects')
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    expect(screen.queryByText('Unable to load your session')).toBeNull()
    expect(screen.queryByText('The request was cancelled')).toBeNull()
    expect(location.history.at(-1)).toBe('/sign-in')
  })

  it('a signed-in person lands on the project list, loaded once its request answers', async () => {
    const platform = fakePlatform()
    overTheNetwork(platform)
    renderApp('/projects')
    expect(await screen.findByRole('link', { name: /^Analytics / })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
    expect(screen.queryByText('The request was cancelled')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
