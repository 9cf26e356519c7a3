import { act, render, screen, within } from '@testing-library/react'
import { Suspense, useEffect } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LIVE_LOGIC } from '../../src/app/logic'
import { lazyComponent, mapLoaded, preloadLoader, useLoaded } from '../../src/views/shell/lazy'
import { AppLogicContext, type Loader } from '../../src/views/shell/logic'
import { Loading } from '../../src/views/shell/ui'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

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

  it('keeps the screen mounted when its parent renders again after the chunk arrived (its actors are not restarted)', async () => {
    let mounts = 0
    let resolve!: (module: { default: (props: { name: string }) => React.JSX.Element }) => void
    const Screen = lazyComponent(
      () => new Promise<Parameters<typeof resolve>[0]>((r) => (resolve = r)),
      <Loading label="Loading project…" />,
    )
    function Counted({ name }: { name: string }) {
      useEffect(() => void mounts++, [])
      return <h1>Project {name}</h1>
    }
    const view = render(<Screen name="Recipe Box" />)
    await act(async () => resolve({ default: Counted }))
    expect(await screen.findByRole('heading', { name: 'Project Recipe Box' })).toBeInTheDocument()
    const afterArrival = mounts
    view.rerender(<Screen name="Recipe Box!" />)
    expect(screen.getByRole('heading', { name: 'Project Recipe Box!' })).toBeInTheDocument()
    expect(mounts).toBe(afterArrival)
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

/** A gate the test opens by hand, as a machine's chunk that is still on the wire. */
function deferredLoader() {
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  return { gate, open: () => act(async () => open()) }
}

function Named({ load }: { load: Loader<{ name: string }> }) {
  return <p>Machine {useLoaded(load).name}</p>
}

describe('a machine that loads on demand (AppLogic loader)', () => {
  it('suspends to the loading treatment while it loads, loads once, then renders; at once when read again', async () => {
    const wire = deferredLoader()
    const load = vi.fn(() => wire.gate.then(() => ({ name: 'sqlEditor' })))
    // Rendered in an awaited act: React retries a screen that suspended on a promise only from such a scope in tests.
    const first = await act(async () =>
      render(
        <Suspense fallback={<Loading label="Loading query…" />}>
          <Named load={load} />
        </Suspense>,
      ),
    )
    expect(screen.getByRole('status')).toHaveTextContent('Loading query…')
    await wire.open()
    expect(await screen.findByText('Machine sqlEditor')).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()
    first.unmount()

    render(
      <Suspense fallback={<Loading label="Loading query…" />}>
        <Named load={load} />
      </Suspense>,
    )
    expect(screen.getByText('Machine sqlEditor')).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('a loader derived from one that has loaded renders at once, mapped once', async () => {
    const load = vi.fn(async () => ({ name: 'pauseProject' }))
    preloadLoader(load)
    await act(async () => {})
    const provide = vi.fn((machine: { name: string }) => ({ name: `${machine.name} (provided)` }))
    const derived = mapLoaded(load, provide)
    render(
      <Suspense fallback={<Loading label="Loading…" />}>
        <Named load={derived} />
        <Named load={derived} />
      </Suspense>,
    )
    expect(screen.getAllByText('Machine pauseProject (provided)')).toHaveLength(2)
    expect(screen.queryByRole('status')).toBeNull()
    expect(load).toHaveBeenCalledTimes(1)
    expect(provide).toHaveBeenCalledTimes(1)
  })

  it('a lazy screen starts loading its machines with its own chunk, not after it', async () => {
    const chunk = deferredModule()
    const machine = deferredLoader()
    const sqlEditor = vi.fn(() => machine.gate.then(() => LIVE_LOGIC.sqlEditor()))
    const Screen = lazyComponent(chunk.load, <Loading label="Loading page…" />, (logic) => [logic.sqlEditor])
    render(
      <AppLogicContext.Provider value={{ ...LIVE_LOGIC, sqlEditor }}>
        <Screen name="Recipe Box" />
      </AppLogicContext.Provider>,
    )
    expect(screen.getByRole('status')).toHaveTextContent('Loading page…')
    expect(sqlEditor).toHaveBeenCalledTimes(1)
    await act(async () => chunk.arrive())
    expect(await screen.findByRole('heading', { name: 'Project Recipe Box' })).toBeInTheDocument()
    await machine.open()
    expect(sqlEditor).toHaveBeenCalledTimes(1)
  })
})

describe('the app while a screen’s machine loads', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('the SQL Editor shows its heading and "Loading query…", then the editor', async () => {
    fakePlatform()
    const wire = deferredLoader()
    const sqlEditor = vi.fn(() => wire.gate.then(() => LIVE_LOGIC.sqlEditor()))
    await act(async () => renderApp(`/project/${REF}/sql/new`, { logic: { sqlEditor } }))
    expect(await screen.findByRole('heading', { level: 1, name: 'SQL Editor' })).toBeInTheDocument()
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Loading query…')
    expect(screen.queryByRole('textbox', { name: 'SQL query' })).toBeNull()
    await wire.open()
    expect(await screen.findByRole('textbox', { name: 'SQL query' })).toBeInTheDocument()
    expect(sqlEditor).toHaveBeenCalledTimes(1)
  })

  it('General settings show the project and a loading treatment where "Pause project" comes, then the action', async () => {
    fakePlatform()
    const wire = deferredLoader()
    const pauseProject = vi.fn(() => wire.gate.then(() => LIVE_LOGIC.pauseProject()))
    await act(async () => renderApp(`/project/${REF}/settings/general`, { logic: { pauseProject } }))
    expect(await screen.findByRole('heading', { level: 1, name: 'General settings' })).toBeInTheDocument()
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Loading pause settings…')
    expect(screen.queryByRole('button', { name: 'Pause project' })).toBeNull()
    await wire.open()
    const section = (await screen.findByRole('heading', { name: 'Pause project' })).closest('section')!
    expect(await within(section).findByRole('button', { name: 'Pause project' })).toBeEnabled()
    expect(pauseProject).toHaveBeenCalledTimes(1)
  })
})
