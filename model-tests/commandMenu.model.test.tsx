import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AnyMachineSnapshot } from 'xstate'
import { commandMenuMachine } from '../machines/commandMenu.machine'
import { fakePlatform, renderApp } from '../tests/fakePlatform'
import { type ModelEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

const ALL: Array<ModelEvent<typeof commandMenuMachine>> = [{ type: 'commandMenu.open' }, { type: 'commandMenu.close' }, { type: 'commandMenu.toggle' }]

const model = modelOf(commandMenuMachine, {
  events: (snapshot: AnyMachineSnapshot) => ALL.filter((event) => snapshot.can(event)),
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
})
const paths = model.getShortestPaths()

afterEach(() => vi.unstubAllGlobals())

describe('command menu model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(commandMenuMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      fakePlatform()
      renderApp('/projects')
      await screen.findByRole('link', { name: /^Analytics / })
      const user = userEvent.setup()

      await path.test({
        states: {
          closed: async () => {
            await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command menu' })).not.toBeInTheDocument())
          },
          open: async () => {
            expect(await screen.findByRole('dialog', { name: 'Command menu' })).toBeInTheDocument()
            expect(screen.getByRole('option', { name: 'Analytics' })).toBeInTheDocument()
            expect(screen.getByRole('option', { name: 'Account preferences' })).toBeInTheDocument()
          },
        },
        events: {
          'commandMenu.open': async () => user.click(screen.getByRole('button', { name: 'Search' })),
          'commandMenu.toggle': async () => user.keyboard('{Control>}k{/Control}'),
          'commandMenu.close': async () => user.keyboard('{Escape}'),
        },
      })
    })
  }
})
