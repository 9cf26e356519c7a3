import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { AI_NOT_ALLOWED_TEXT, AI_SAVED_TEXT, aiSettingsMachine } from '../machines/aiSettings.machine'
import type { AiSettings } from '../src/contracts/orgSettings'
import { AiSettingsDialog } from '../src/views/project/ai/AiSettingsDialog'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

const OPTED_IN: AiSettings = { send_anonymous_schema_metadata: false, organization_slug: 'demo-pro', organization_opt_in_tags: ['AI_SQL'] }
const NOT_OPTED_IN: AiSettings = { send_anonymous_schema_metadata: true, organization_slug: 'demo-free', organization_opt_in_tags: [] }
const SAVED_ON: AiSettings = { ...OPTED_IN, send_anonymous_schema_metadata: true }
const REQUEST_TIMEOUT = 10_000

const model = modelOf(aiSettingsMachine, {
  input: { ref: REF, isPlatform: true },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchAiSettings', output: OPTED_IN },
        { type: 'xstate.done.actor.fetchAiSettings', output: NOT_OPTED_IN },
        { type: 'xstate.error.actor.fetchAiSettings', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.aiSettings.loading' },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'aiSettings.retry' }]
    if (snapshot.matches('saving')) {
      return [
        { type: 'xstate.done.actor.saveAiSettings', output: SAVED_ON },
        { type: 'xstate.error.actor.saveAiSettings', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.aiSettings.saving' },
      ]
    }
    return snapshot.can({ type: 'schemaMetadata.toggle' }) ? [{ type: 'schemaMetadata.toggle' }] : []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
})
const paths = model.getShortestPaths()

let stop: (() => void) | null = null
beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => {
  stop?.()
  vi.useRealTimers()
})

describe('aiSettings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(aiSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetchAiSettings = deferredActor<AiSettings, { ref: string }>('fetchAiSettings')
      const saveAiSettings = deferredActor<AiSettings, { ref: string; send: boolean }>('saveAiSettings')
      const actor = createActor(aiSettingsMachine.provide({ actors: { fetchAiSettings: fetchAiSettings.logic, saveAiSettings: saveAiSettings.logic } }), {
        input: { ref: REF, isPlatform: true },
      }).start()
      stop = () => actor.stop()
      render(<AiSettingsDialog actor={actor} onClose={() => {}} />)
      const toggle = () => screen.getByRole('switch', { name: 'Send anonymous schema metadata' })
      const optedIn = () => actor.getSnapshot().context.settings?.organization_opt_in_tags.includes('AI_SQL') === true

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('dialog', { name: 'Supabase AI Settings' })).toBeInTheDocument()
            expect(screen.getByText('Loading AI settings…')).toBeInTheDocument()
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to load AI settings')
            expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
          },
          idle: () => {
            if (optedIn()) {
              expect(toggle()).toBeEnabled()
              expect(screen.queryByText(AI_NOT_ALLOWED_TEXT)).toBeNull()
            } else {
              expect(toggle()).toBeDisabled()
              expect(toggle()).not.toBeChecked()
              expect(screen.getByText(AI_NOT_ALLOWED_TEXT)).toBeInTheDocument()
              expect(screen.getByRole('link', { name: 'Organization settings' })).toHaveAttribute('href', '/org/demo-free/general')
            }
            expect(screen.queryByRole('status')).toBeNull()
          },
          saving: () => {
            expect(screen.getByText('Saving…')).toBeInTheDocument()
            expect(saveAiSettings.pending.at(-1)?.input).toEqual({ ref: REF, send: !actor.getSnapshot().context.settings!.send_anonymous_schema_metadata })
          },
          saved: () => {
            expect(screen.getByRole('status')).toHaveTextContent(AI_SAVED_TEXT)
            expect(toggle()).toBeChecked()
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to save settings: /)
            expect(toggle()).toBeEnabled()
          },
        },
        events: {
          'xstate.done.actor.fetchAiSettings': async (step) => fetchAiSettings.resolve(outputOf<AiSettings>(step)),
          'xstate.error.actor.fetchAiSettings': async (step) => fetchAiSettings.reject(errorOf(step)),
          'xstate.after.requestTimeout.aiSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'aiSettings.retry': async () => {
            await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
          },
          'schemaMetadata.toggle': async () => {
            await act(async () => toggle().click())
          },
          'xstate.done.actor.saveAiSettings': async (step) => saveAiSettings.resolve(outputOf<AiSettings>(step)),
          'xstate.error.actor.saveAiSettings': async (step) => saveAiSettings.reject(errorOf(step)),
          'xstate.after.requestTimeout.aiSettings.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }
})
