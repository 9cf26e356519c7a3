import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { LIMIT_KEYS, SAVED_NOTICE, draftOf, realtimeSettingsMachine, type DraftChange, type RealtimeSettingsDraft } from '../machines/realtimeSettings.machine'
import type { RealtimeConfig, RealtimeConfigUpdate } from '../src/contracts/realtime'
import { LIMIT_TEXT, RealtimeSettings } from '../src/views/project/realtime/RealtimeSettingsPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(realtimeSettingsMachine)
const REQUEST_TIMEOUT = 10_000

const CONFIG: RealtimeConfig = {
  private_only: false,
  connection_pool: 2,
  max_concurrent_users: 200,
  max_events_per_second: 100,
  max_bytes_per_second: 100_000,
  max_channels_per_client: 100,
  max_joins_per_second: 100,
  max_presence_events_per_second: 100,
  max_presence_keys_per_object: 10,
  max_payload_size_in_kb: 256,
  suspend: false,
  presence_enabled: true,
}
/** What a person changes: public channels off and fewer events per second; or an event limit that is not a number. */
const CHANGES: DraftChange[] = [{ allowPublic: false }, { limit: { key: 'max_events_per_second', text: '20' } }]
const INVALID: DraftChange = { limit: { key: 'max_events_per_second', text: 'many' } }
const SAVED: RealtimeConfig = { ...CONFIG, private_only: true, max_events_per_second: 20 }

const contextOf = (snapshot: SnapshotFrom<typeof realtimeSettingsMachine>) => snapshot.context

const model = modelOf(realtimeSettingsMachine, {
  input: { ref: REF, canManage: true },
  events: (snapshot) => {
    const { draft, saved, saveError } = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.getRealtimeConfig', output: CONFIG },
        { type: 'xstate.error.actor.getRealtimeConfig', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.realtimeSettings.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'settings.retry' })]
    if (snapshot.matches({ ready: 'editing' })) {
      // One save per path, from the settings first read.
      if (saved !== CONFIG) return []
      const events = draft!.limits.max_events_per_second
      const edits = saveError !== null ? [] : events === '100' && draft!.allowPublic ? [CHANGES[0], INVALID] : events === 'many' ? [CHANGES[1]] : !draft!.allowPublic && events === '100' ? [CHANGES[1]] : []
      const buttons = (['settings.save', 'settings.reset'] as const).filter((type) => snapshot.can({ type })).map((type) => ev({ type }))
      return [...edits.map((change) => ev({ type: 'settings.edit', change })), ...buttons]
    }
    if (snapshot.matches({ ready: 'saving' })) {
      return [
        { type: 'xstate.done.actor.saveRealtimeConfig', output: SAVED },
        { type: 'xstate.error.actor.saveRealtimeConfig', error: apiError("You need the realtime:all permission to change this project's realtime settings", 403) },
        { type: 'xstate.after.requestTimeout.realtimeSettings.ready.saving' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { saved, draft, loadError, saveError, notice } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ saved: saved === CONFIG ? 'first' : saved === null ? null : 'saved', draft, loadError, saveError, notice }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

const form = () => within(screen.getByRole('form', { name: 'Realtime settings' }))

function expectDraft(draft: RealtimeSettingsDraft) {
  expect(form().getByRole('switch', { name: 'Allow public access' })).toHaveProperty('checked', draft.allowPublic)
  expect(form().getByRole('switch', { name: 'Enable presence' })).toHaveProperty('checked', draft.presenceEnabled)
  for (const key of LIMIT_KEYS) expect(form().getByLabelText(LIMIT_TEXT[key].label)).toHaveValue(draft.limits[key])
}

describe('realtime settings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(realtimeSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const get = deferredActor<RealtimeConfig, { ref: string }>('getRealtimeConfig')
      const save = deferredActor<RealtimeConfig, { ref: string; body: RealtimeConfigUpdate }>('saveRealtimeConfig')
      const actor = runPath(
        createActor(realtimeSettingsMachine.provide({ actors: { getRealtimeConfig: get.logic, saveRealtimeConfig: save.logic } }), { input: { ref: REF, canManage: true } }).start(),
      )
      render(<RealtimeSettings actor={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading realtime settings…')
            expect(screen.queryByRole('form')).toBeNull()
            expect(get.pending.map((run) => run.input)).toEqual([{ ref: REF }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load the realtime settings')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'ready.editing': (snapshot) => {
            const { draft, saved, saveError, notice } = contextOf(snapshot)
            expectDraft(draft!)
            const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(saved!))
            const invalid = draft!.limits.max_events_per_second === 'many'
            expect(form().getByRole('button', { name: 'Save' })).toHaveProperty('disabled', !changed || invalid)
            expect(form().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', !changed)
            if (invalid) {
              expect(form().getByText('Enter a whole number')).toBeInTheDocument()
              expect(form().getByLabelText('Max events per second')).toHaveAttribute('aria-invalid', 'true')
            }
            if (saveError) expect(form().getByRole('alert')).toHaveTextContent(saveError)
            else expect(form().queryByRole('alert')).toBeNull()
            if (notice) expect(form().getByRole('status')).toHaveTextContent(SAVED_NOTICE)
            else expect(form().queryByRole('status')).toBeNull()
            expect(save.pending).toHaveLength(0)
          },
          'ready.saving': (snapshot) => {
            // A path saves after one or two of CHANGES: the body carries what was typed, every limit as a number.
            const draft = contextOf(snapshot).draft!
            expect(form().getByRole('button', { name: 'Saving…' })).toBeDisabled()
            expect(form().getByLabelText('Max events per second')).toHaveAttribute('readonly')
            expect(save.pending.map((run) => run.input)).toEqual([
              {
                ref: REF,
                body: {
                  private_only: !draft.allowPublic,
                  presence_enabled: true,
                  max_concurrent_users: 200,
                  max_channels_per_client: 100,
                  max_events_per_second: draft.limits.max_events_per_second === '20' ? 20 : 100,
                  max_bytes_per_second: 100_000,
                  max_joins_per_second: 100,
                  max_presence_events_per_second: 100,
                  max_presence_keys_per_object: 10,
                  max_payload_size_in_kb: 256,
                  connection_pool: 2,
                },
              },
            ])
          },
        },
        events: {
          'xstate.done.actor.getRealtimeConfig': async (step) => get.resolve(outputOf<RealtimeConfig>(step)),
          'xstate.error.actor.getRealtimeConfig': async (step) => get.reject(errorOf(step)),
          'xstate.after.requestTimeout.realtimeSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            get.pending.splice(0)
          },
          'settings.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'settings.edit': async (step) => {
            const change = step.event.change
            if (change.allowPublic !== undefined) fireEvent.click(form().getByRole('switch', { name: 'Allow public access' }))
            if (change.limit) fireEvent.change(form().getByLabelText(LIMIT_TEXT[change.limit.key].label), { target: { value: change.limit.text } })
          },
          'settings.save': async () => {
            fireEvent.click(form().getByRole('button', { name: 'Save' }))
          },
          'settings.reset': async () => {
            fireEvent.click(form().getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.saveRealtimeConfig': async (step) => save.resolve(outputOf<RealtimeConfig>(step)),
          'xstate.error.actor.saveRealtimeConfig': async (step) => save.reject(errorOf(step)),
          'xstate.after.requestTimeout.realtimeSettings.ready.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            save.pending.splice(0)
          },
        },
      })
    })
  }

  it('shows a member without realtime:all the limits read-only, with nothing to save', async () => {
    const get = deferredActor<RealtimeConfig, { ref: string }>('getRealtimeConfig')
    const actor = runPath(createActor(realtimeSettingsMachine.provide({ actors: { getRealtimeConfig: get.logic } }), { input: { ref: REF, canManage: false } }).start())
    render(<RealtimeSettings actor={actor} />)
    await get.resolve(CONFIG)
    expect(screen.getByText('Your role can see the realtime settings but not change them.')).toBeInTheDocument()
    expectDraft(draftOf(CONFIG))
    expect(form().getByRole('switch', { name: 'Allow public access' })).toBeDisabled()
    expect(form().getByLabelText('Max concurrent clients')).toHaveAttribute('readonly')
    expect(form().queryByRole('button', { name: 'Save' })).toBeNull()
    actor.send({ type: 'settings.edit', change: { allowPublic: false } })
    actor.send({ type: 'settings.save' })
    expect(actor.getSnapshot().context.draft).toEqual(draftOf(CONFIG))
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true)
  })
})
