import { act, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { lazyComponent, useLoaded } from '../../src/views/shell/lazy'
import { LoadFailed } from '../../src/views/shell/LoadFailed'
import type { Loader } from '../../src/views/shell/logic'
import { Loading } from '../../src/views/shell/ui'

afterEach(() => vi.restoreAllMocks())

describe('a part of the dashboard that fails to load', () => {
  it("a screen whose chunk fails shows what happened and a way on, not a blank page", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const Screen = lazyComponent<{ name: string }>(() => Promise.reject(new Error('Failed to fetch dynamically imported module')), <Loading label="Loading page…" />)
    await act(async () => {
      render(
        <LoadFailed>
          <Screen name="SQL Editor" />
        </LoadFailed>,
      )
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('This page could not be loaded')
    expect(alert).toHaveTextContent('Failed to fetch dynamically imported module')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
  })

  it("a screen whose machine fails to load shows the same", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const machine: Loader<string> = () => Promise.reject(new Error('network down'))
    function Page() {
      return <p>{useLoaded(machine)}</p>
    }
    await act(async () => {
      render(
        <LoadFailed>
          <Suspense fallback={<Loading label="Loading page…" />}>
            <Page />
          </Suspense>
        </LoadFailed>,
      )
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('network down')
  })

  it('renders its children when nothing fails', () => {
    render(
      <LoadFailed>
        <h1>Projects</h1>
      </LoadFailed>,
    )
    expect(screen.getByRole('heading', { name: 'Projects' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
