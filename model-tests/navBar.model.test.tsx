import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AnyMachineSnapshot } from 'xstate'
import { navBarMachine } from '../machines/navBar.machine'
import { fakePlatform, renderApp } from '../tests/fakePlatform'
import { type ModelEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

const REF = 'abcdefghijklmnopqrst'
const ALL: Array<ModelEvent<typeof navBarMachine>> = [
  { type: 'pointer.entered' },
  { type: 'pointer.left' },
  { type: 'menu.opened' },
  { type: 'menu.closed' },
  { type: 'apiDocs.open' },
  { type: 'apiDocs.close' },
]

const model = modelOf(navBarMachine, {
  // What a person can do on screen: the API docs dialog is modal, and the open account menu is dismissed first.
  events: (snapshot: AnyMachineSnapshot) => {
    if (snapshot.matches({ apiDocs: 'open' })) return [{ type: 'apiDocs.close' }]
    const menuOpen = snapshot.matches({ menu: 'open' })
    return ALL.filter((event) => snapshot.can(event) && !(menuOpen && event.type === 'apiDocs.open'))
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
})
const paths = model.getShortestPaths()

beforeEach(() => {
  localStorage.clear()
  localStorage.setItem('supabase-ui-feature-previews', JSON.stringify({ apiDocsPanel: true }))
})
afterEach(() => vi.unstubAllGlobals())

describe('navigation bar model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(navBarMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      fakePlatform()
      renderApp(`/project/${REF}/editor`)
      // hidden: true, because the modal API docs dialog hides the rest of the page from assistive technology.
      const nav = () => screen.getByRole('navigation', { name: 'Main navigation', hidden: true })
      await within(await screen.findByRole('navigation', { name: 'Main navigation' })).findByRole('button', { name: 'API Docs' })
      const user = userEvent.setup()

      await path.test({
        states: {
          'width.collapsed': () => {
            expect(nav()).toHaveAttribute('data-expanded', 'false')
          },
          'width.expanded': () => {
            expect(nav()).toHaveAttribute('data-expanded', 'true')
          },
          'width.held': () => {
            expect(nav()).toHaveAttribute('data-expanded', 'true')
          },
          'menu.open': async () => {
            expect(await screen.findByRole('menu')).toBeInTheDocument()
          },
          'menu.closed': async () => {
            await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument())
          },
          'apiDocs.open': async () => {
            expect(await screen.findByRole('dialog', { name: 'API Docs' })).toBeInTheDocument()
          },
          'apiDocs.closed': async () => {
            await waitFor(() => expect(screen.queryByRole('dialog', { name: 'API Docs' })).not.toBeInTheDocument())
          },
        },
        events: {
          'pointer.entered': async () => user.hover(nav()),
          'pointer.left': async () => user.unhover(nav()),
          'menu.opened': async () => {
            // From the keyboard, so the pointer stays where it is.
            within(nav()).getByRole('button', { name: /^Account\b/ }).focus()
            await user.keyboard('{Enter}')
            await screen.findByRole('menu')
          },
          'menu.closed': async () => {
            await user.keyboard('{Escape}')
            await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument())
          },
          'apiDocs.open': async () => {
            within(nav()).getByRole('button', { name: 'API Docs' }).focus()
            await user.keyboard('{Enter}')
          },
          // Escape, not a click on Close: the pointer stays where the path left it.
          'apiDocs.close': async () => {
            await screen.findByRole('dialog', { name: 'API Docs' })
            await user.keyboard('{Escape}')
          },
        },
      })
    })
  }
})
