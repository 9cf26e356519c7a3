/**
 * The 'Enable database branching' dialog hosted by the project layout: opened over any project page by the URL's
 * `enableBranching` parameter — from a link or a reload, from the project home, from the command menu — and closing
 * back to the page without it.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst' // Analytics, in demo-pro
const TITLE = 'Enable database branching'
afterEach(() => vi.unstubAllGlobals())

describe('branching dialog in the project layout', () => {
  it('opens over the Table Editor from the URL parameter, and closing leaves the page without it', async () => {
    fakePlatform()
    const { location } = renderApp(`/project/${REF}/editor?enableBranching=open`)
    const dialog = await screen.findByRole('dialog', { name: TITLE })
    const user = userEvent.setup()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull())
    expect(location.history.at(-1)).toBe(`/project/${REF}/editor`)
  })

  it('opens from the project home', async () => {
    fakePlatform()
    renderApp(`/project/${REF}`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('link', { name: TITLE }))
    expect(await screen.findByRole('dialog', { name: TITLE })).toBeInTheDocument()
  })

  it('opens from the command menu', async () => {
    fakePlatform()
    renderApp(`/project/${REF}`)
    await screen.findByRole('heading', { level: 1, name: 'Analytics' })
    const user = userEvent.setup()
    await user.keyboard('{Control>}k{/Control}')
    const menu = await screen.findByRole('dialog', { name: 'Command menu' })
    await user.type(within(menu).getByRole('combobox', { name: 'Search commands' }), 'branching')
    await user.click(within(menu).getByRole('option', { name: TITLE }))
    expect(await screen.findByRole('dialog', { name: TITLE })).toBeInTheDocument()
  })
})
