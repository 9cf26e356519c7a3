import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AnyMachineSnapshot } from 'xstate'
import { featurePreviewsMachine } from '../machines/featurePreviews.machine'
import { fakePlatform, renderApp } from '../tests/fakePlatform'
import { type ModelEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

const ALL: Array<ModelEvent<typeof featurePreviewsMachine>> = [{ type: 'previews.open' }, { type: 'previews.close' }, { type: 'preview.toggle', id: 'apiDocsPanel' }]

const model = modelOf(featurePreviewsMachine, {
  input: { enabled: {} },
  events: (snapshot: AnyMachineSnapshot) => ALL.filter((event) => snapshot.can(event)),
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      `${JSON.stringify(previous?.value ?? null)}${JSON.stringify(snapshot.context.enabled)}`,
    ),
})
const paths = model.getShortestPaths()

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

describe('feature previews model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(featurePreviewsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      fakePlatform()
      renderApp('/projects')
      await screen.findByRole('link', { name: /^Analytics / })
      const user = userEvent.setup()
      const dialog = () => screen.findByRole('dialog', { name: 'Feature previews' })

      await path.test({
        states: {
          closed: async () => {
            await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Feature previews' })).not.toBeInTheDocument())
          },
          open: async (snapshot) => {
            const on = snapshot.context.enabled.apiDocsPanel === true
            const toggle = within(await dialog()).getByRole('switch', { name: 'API docs panel' })
            expect(toggle).toHaveAttribute('aria-checked', String(on))
            expect(JSON.parse(localStorage.getItem('supabase-ui-feature-previews') ?? '{}').apiDocsPanel === true).toBe(on)
          },
        },
        events: {
          'previews.open': async () => {
            await user.click(screen.getByRole('button', { name: /^Account\b/ }))
            await user.click(await screen.findByRole('menuitem', { name: 'Feature previews' }))
          },
          'previews.close': async () => user.click(within(await dialog()).getByRole('button', { name: 'Close' })),
          'preview.toggle': async () => user.click(within(await dialog()).getByRole('switch', { name: 'API docs panel' })),
        },
      })
    })
  }
})
