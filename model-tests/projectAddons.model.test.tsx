import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { projectAddonsMachine, type AddonChange } from '../machines/projectAddons.machine'
import type { ProjectAddons } from '../src/contracts/settings'
import { AddonsPage } from '../src/views/project/settings/SettingsPages'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const REQUEST_TIMEOUT = 10_000
const VARIANTS = [
  { identifier: 'pitr_7', name: '7 days of recovery' },
  { identifier: 'pitr_14', name: '14 days of recovery' },
  { identifier: 'pitr_28', name: '28 days of recovery' },
] as const
const addonsWith = (pitr: (typeof VARIANTS)[number] | null): ProjectAddons => ({
  ref: REF,
  selected_addons: pitr ? [{ type: 'pitr', variant: pitr }] : [],
  available_addons: [{ type: 'pitr', name: 'Point in time recovery', variants: [...VARIANTS] }],
})
const NONE = addonsWith(null)
const SEVEN = addonsWith(VARIANTS[0])
const INPUT = { ref: REF, paidPlan: true, mayChange: true }

const contextOf = (snapshot: SnapshotFrom<typeof projectAddonsMachine>) => snapshot.context
const pitrOf = (snapshot: AnyMachineSnapshot) => contextOf(snapshot).addons?.selected_addons[0]?.variant ?? null

const model = modelOf(projectAddonsMachine, {
  input: INPUT,
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchAddons', output: NONE },
        { type: 'xstate.done.actor.fetchAddons', output: SEVEN },
        { type: 'xstate.error.actor.fetchAddons', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.projectAddons.loading' },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'addons.retry' }]
    if (snapshot.matches('idle')) {
      return [{ type: 'pitr.choose', variant: 'pitr_14' as const }, { type: 'pitr.enable', variant: 'pitr_14' as const }, { type: 'pitr.disable' }]
    }
    if (snapshot.matches('saving')) {
      const enabling = contextOf(snapshot).saved?.kind === 'enable'
      return [
        { type: 'xstate.done.actor.changeAddon', output: enabling ? addonsWith(VARIANTS[1]) : NONE },
        { type: 'xstate.error.actor.changeAddon', error: apiError('Point in time recovery needs the Pro plan or above', 400) },
        { type: 'xstate.after.requestTimeout.projectAddons.saving' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const s = snapshot
    return keyByIncomingEdge(s, event, `${pitrOf(s)?.identifier ?? '-'}:${contextOf(s).saved?.kind ?? '-'}:${contextOf(s).error ? 'e' : ''}`)
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('project add-ons model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(projectAddonsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<ProjectAddons, { ref: string }>('fetchAddons')
      const change = deferredActor<ProjectAddons, { ref: string; change: AddonChange }>('changeAddon')
      const actor = runPath(
        createActor(projectAddonsMachine.provide({ actors: { fetchAddons: fetch.logic, changeAddon: change.logic } }), { input: INPUT }).start(),
      )
      render(<AddonsPage actor={actor} organizationSlug="demo-pro" />)
      const pitr = () => within(screen.getByRole('region', { name: 'Point in Time Recovery' }))

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Add-ons' })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Retrieving add-ons…')
          },
          loadFailed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          idle: (snapshot) => {
            const variant = pitrOf(snapshot)
            expect(pitr().getByText(variant ? `Enabled: ${variant.name}.` : 'Not enabled.', { exact: false })).toBeInTheDocument()
            const { saved, error } = contextOf(snapshot)
            if (saved) {
              expect(screen.getByRole('status')).toHaveTextContent(saved.kind === 'enable' ? 'Point in Time Recovery is enabled' : 'Point in Time Recovery is disabled')
            }
            if (error) expect(error).toMatch(/Pro plan|timed out/)
            expect(pitr().getByRole('button', { name: 'Change point in time recovery' })).toBeEnabled()
          },
          saving: (snapshot) => {
            expect(change.pending.at(-1)?.input).toEqual({ ref: REF, change: contextOf(snapshot).saved })
            expect(screen.queryByRole('status')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.fetchAddons': async (step) => fetch.resolve(outputOf<ProjectAddons>(step)),
          'xstate.error.actor.fetchAddons': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.projectAddons.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'addons.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          // The PITR panel (?panel=pitr) sends these; its buttons are tested with the panel open in tests/web/projectScreens.test.tsx.
          'pitr.choose': async (step) => act(async () => actor.send(step.event)),
          'pitr.enable': async (step) => act(async () => actor.send(step.event)),
          'pitr.disable': async (step) => act(async () => actor.send(step.event)),
          'xstate.done.actor.changeAddon': async (step) => change.resolve(outputOf<ProjectAddons>(step)),
          'xstate.error.actor.changeAddon': async (step) => change.reject(errorOf(step)),
          'xstate.after.requestTimeout.projectAddons.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }
})
