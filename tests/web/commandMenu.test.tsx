import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst'
afterEach(() => vi.unstubAllGlobals())

describe('command menu', () => {
  it('opens with Ctrl+K and jumps to a page of the current project', async () => {
    fakePlatform()
    const { location } = renderApp(`/project/${REF}`)
    await screen.findByRole('heading', { level: 1, name: 'Analytics' })
    const user = userEvent.setup()
    await user.keyboard('{Control>}k{/Control}')
    const dialog = await screen.findByRole('dialog', { name: 'Command menu' })
    await user.type(within(dialog).getByRole('combobox', { name: 'Search commands' }), 'table')
    await user.click(within(dialog).getByRole('option', { name: 'Table Editor' }))
    await waitFor(() => expect(location.history.at(-1)).toBe(`/project/${REF}/editor`))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command menu' })).not.toBeInTheDocument())
  })

  it('opens with K outside a text field and jumps to another project', async () => {
    fakePlatform()
    const { location } = renderApp(`/project/${REF}`)
    await screen.findByRole('heading', { level: 1, name: 'Analytics' })
    const user = userEvent.setup()
    await user.keyboard('k')
    const dialog = await screen.findByRole('dialog', { name: 'Command menu' })
    await user.click(within(dialog).getByRole('option', { name: 'Storefront' }))
    await waitFor(() => expect(location.history.at(-1)).toBe('/project/bcdefghijklmnopqrstu'))
  })

  it('opens from the Search button and closes with Escape', async () => {
    fakePlatform()
    renderApp('/projects')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('dialog', { name: 'Command menu' })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command menu' })).not.toBeInTheDocument())
  })

  it('does not open on K typed into a text field', async () => {
    fakePlatform()
    renderApp('/projects')
    const user = userEvent.setup()
    await user.type(await screen.findByRole('searchbox', { name: 'Search for a project' }), 'k')
    expect(screen.queryByRole('dialog', { name: 'Command menu' })).not.toBeInTheDocument()
  })
})
