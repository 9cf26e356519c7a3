import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { lazyComponent } from '../../src/views/shell/lazy'
import { Loading } from '../../src/views/shell/ui'

/** A module whose load the test resolves by hand, as a chunk that is still on the wire. */
function deferredModule() {
  let resolve!: (module: { default: (props: { name: string }) => React.JSX.Element }) => void
  const load = () => new Promise<Parameters<typeof resolve>[0]>((r) => (resolve = r))
  return { load, arrive: () => resolve({ default: ({ name }) => <h1>Project {name}</h1> }) }
}

describe('a screen that loads on demand', () => {
  it('shows its loading treatment while its chunk loads, never a blank area, then the screen', async () => {
    const chunk = deferredModule()
    const Screen = lazyComponent(chunk.load, <Loading label="Loading project…" />)
    render(<Screen name="Recipe Box" />)
    expect(await screen.findByRole('status')).toHaveTextContent('Loading project…')

    await act(async () => chunk.arrive())
    expect(await screen.findByRole('heading', { name: 'Project Recipe Box' })).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('renders at once, without the loading treatment, once its chunk has loaded', async () => {
    const chunk = deferredModule()
    const Screen = lazyComponent(chunk.load, <Loading label="Loading project…" />)
    const loaded = Screen.preload()
    chunk.arrive()
    await loaded
    render(<Screen name="Legacy Blog" />)
    expect(screen.getByRole('heading', { name: 'Project Legacy Blog' })).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()
  })
})
