/**
 * The 'Supabase AI Settings' dialog over a project page: the person's setting to send anonymous schema metadata to
 * the AI, kept per project on the server. In the platform build the setting applies only when the project's
 * organization has opted in to AI_SQL (spec 5): without it the switch is disabled and shows as off; the self-hosted
 * build does not apply the opt-in (input `isPlatform`).
 * Invariants: one save at a time; a failed save keeps the stored value shown and says why; a request unanswered
 * after requestTimeout is abandoned (its signal aborted) and reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { AI_SQL_TAG, type AiSettings } from '../src/contracts/orgSettings'
import { href } from '../src/href'

export const AI_SAVED_TEXT = 'Successfully saved settings'
export const AI_NOT_ALLOWED_TEXT = 'Your organization does not allow sending anonymous data to OpenAI'

interface Context {
  ref: string
  isPlatform: boolean
  settings: AiSettings | null
  error: string | null
}

type AiSettingsEvent = { type: 'aiSettings.retry' } | { type: 'schemaMetadata.toggle' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** Whether the setting may be used: always in the self-hosted build, with the AI_SQL opt-in on the platform. */
export const aiAllowed = (settings: AiSettings, isPlatform: boolean) => !isPlatform || settings.organization_opt_in_tags.includes(AI_SQL_TAG)

/** The value the switch shows: the person's setting where it may apply, off where it may not. */
const effective = (context: Context) => context.settings !== null && aiAllowed(context.settings, context.isPlatform) && context.settings.send_anonymous_schema_metadata

export const aiSettingsMachine = setup({
  types: {
    input: {} as { ref: string; isPlatform: boolean },
    context: {} as Context,
    events: {} as AiSettingsEvent,
    children: {} as { fetchAiSettings: 'fetchAiSettings'; saveAiSettings: 'saveAiSettings' },
  },
  actors: {
    fetchAiSettings: fromPromise<AiSettings, { ref: string }>(async () => {
      throw new Error('fetchAiSettings not provided')
    }),
    saveAiSettings: fromPromise<AiSettings, { ref: string; send: boolean }>(async () => {
      throw new Error('saveAiSettings not provided')
    }),
  },
  actions: {
    storeSettings: assign((_, params: { settings: AiSettings }) => ({ settings: params.settings, error: null })),
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    mayChange: ({ context }) => context.settings !== null && aiAllowed(context.settings, context.isPlatform),
  },
  delays: { requestTimeout: 10_000 },
}).createMachine({
  id: 'aiSettings',
  context: ({ input }) => ({ ref: input.ref, isPlatform: input.isPlatform, settings: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchAiSettings',
        src: 'fetchAiSettings',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'idle', actions: { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load AI settings') }) } },
      },
      after: { requestTimeout: { target: 'loadFailed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    loadFailed: { on: { 'aiSettings.retry': 'loading' } },
    idle: { on: { 'schemaMetadata.toggle': { guard: 'mayChange', target: 'saving' } } },
    saving: {
      invoke: {
        id: 'saveAiSettings',
        src: 'saveAiSettings',
        input: ({ context }) => ({ ref: context.ref, send: !effective(context) }),
        onDone: { target: 'saved', actions: { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save settings') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    saved: { on: { 'schemaMetadata.toggle': { guard: 'mayChange', target: 'saving' } } },
    failed: { on: { 'schemaMetadata.toggle': { guard: 'mayChange', target: 'saving' } } },
  },
})

type Snapshot = SnapshotFrom<typeof aiSettingsMachine>

export type AiSettingsView =
  | { phase: 'loading' }
  | { phase: 'loadFailed'; error: string }
  | {
      phase: 'ready'
      checked: boolean
      /** Platform build without the organization's AI_SQL opt-in: the notice and the link to its settings. */
      notAllowed: { text: string; href: string } | null
      saving: boolean
      outcome: { kind: 'saved'; text: string } | { kind: 'failed'; text: string } | null
    }

export function selectAiSettingsView(snapshot: Snapshot): AiSettingsView {
  const { settings, error, isPlatform } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('loadFailed') || settings === null) return { phase: 'loadFailed', error: error ?? 'Failed to load AI settings' }
  return {
    phase: 'ready',
    checked: effective(snapshot.context),
    notAllowed: aiAllowed(settings, isPlatform) ? null : { text: AI_NOT_ALLOWED_TEXT, href: href.org(settings.organization_slug, 'general') },
    saving: snapshot.matches('saving'),
    outcome: snapshot.matches('saved') ? { kind: 'saved', text: AI_SAVED_TEXT } : snapshot.matches('failed') ? { kind: 'failed', text: `Failed to save settings: ${error ?? ''}` } : null,
  }
}

export const selectCanToggleAi = (snapshot: Snapshot) => snapshot.can({ type: 'schemaMetadata.toggle' })
