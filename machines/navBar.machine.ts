/**
 * Navigation bar: 56px collapsed, 13rem expanded while the pointer is over it. Leaving collapses it unless the
 * account menu is open; then it stays expanded (`held`) until the menu closes or the pointer comes back.
 * Opening the account menu from the keyboard expands it too. The API docs panel, opened from the Project API
 * entry when its feature preview is on, is a region of its own.
 */
import { setup, stateIn, type SnapshotFrom } from 'xstate'

type NavBarEvent =
  | { type: 'pointer.entered' }
  | { type: 'pointer.left' }
  | { type: 'menu.opened' }
  | { type: 'menu.closed' }
  | { type: 'apiDocs.open' }
  | { type: 'apiDocs.close' }

export const navBarMachine = setup({
  types: {
    events: {} as NavBarEvent,
  },
  guards: {
    menuIsOpen: stateIn('#navBar.menu.open'),
  },
}).createMachine({
  id: 'navBar',
  type: 'parallel',
  states: {
    width: {
      initial: 'collapsed',
      states: {
        collapsed: {
          on: { 'pointer.entered': 'expanded', 'menu.opened': 'held' },
        },
        expanded: {
          on: {
            'pointer.left': [{ guard: { type: 'menuIsOpen' }, target: 'held' }, { target: 'collapsed' }],
          },
        },
        /** Expanded only because the account menu is open. */
        held: {
          on: { 'pointer.entered': 'expanded', 'menu.closed': 'collapsed' },
        },
      },
    },
    menu: {
      initial: 'closed',
      states: {
        closed: { on: { 'menu.opened': 'open' } },
        open: { on: { 'menu.closed': 'closed' } },
      },
    },
    apiDocs: {
      initial: 'closed',
      states: {
        closed: { on: { 'apiDocs.open': 'open' } },
        open: { on: { 'apiDocs.close': 'closed' } },
      },
    },
  },
})

type NavBarSnapshot = SnapshotFrom<typeof navBarMachine>

export const selectNavExpanded = (snapshot: NavBarSnapshot) => !snapshot.matches({ width: 'collapsed' })
export const selectApiDocsOpen = (snapshot: NavBarSnapshot) => snapshot.matches({ apiDocs: 'open' })
export const selectAccountMenuOpen = (snapshot: NavBarSnapshot) => snapshot.matches({ menu: 'open' })
