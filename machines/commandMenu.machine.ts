/**
 * Command menu: a dialog opened by the Search button or the K shortcut (which toggles it), closed by Escape,
 * a click outside or choosing an entry. The typed query is the input's own value, not flow state.
 */
import { setup, type SnapshotFrom } from 'xstate'

type CommandMenuEvent = { type: 'commandMenu.open' } | { type: 'commandMenu.close' } | { type: 'commandMenu.toggle' }

export const commandMenuMachine = setup({
  types: { events: {} as CommandMenuEvent },
}).createMachine({
  id: 'commandMenu',
  initial: 'closed',
  states: {
    closed: { on: { 'commandMenu.open': 'open', 'commandMenu.toggle': 'open' } },
    open: { on: { 'commandMenu.close': 'closed', 'commandMenu.toggle': 'closed' } },
  },
})

export const selectCommandMenuOpen = (snapshot: SnapshotFrom<typeof commandMenuMachine>) => snapshot.matches('open')
