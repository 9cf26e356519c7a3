/**
 * Realtime › Settings: the project's realtime limits the service obeys (public channels allowed or not, presence on
 * or off, connections, channels per client, messages, bytes, joins and presence events per second, presence keys,
 * payload size), read from and saved through the Management API's config/realtime.
 * Invariants: one request at a time; only a member who may manage realtime (input.canManage, realtime:all) edits or
 * saves — the others see the limits read-only, and the server refuses them too; what was typed survives a failed
 * save; a request unanswered after requestTimeout is abandoned and reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { RealtimeConfigUpdate, type RealtimeConfig } from '../src/contracts/realtime'

/** The numeric limits, in the order the page shows them. */
export const LIMIT_KEYS = [
  'max_concurrent_users',
  'max_channels_per_client',
  'max_events_per_second',
  'max_bytes_per_second',
  'max_joins_per_second',
  'max_presence_events_per_second',
  'max_presence_keys_per_object',
  'max_payload_size_in_kb',
  'connection_pool',
] as const
export type LimitKey = (typeof LIMIT_KEYS)[number]

/** The form as typed: switches as the page words them, numbers as text. */
export interface RealtimeSettingsDraft {
  allowPublic: boolean
  presenceEnabled: boolean
  limits: Record<LimitKey, string>
}

export function draftOf(config: RealtimeConfig): RealtimeSettingsDraft {
  const limits = {} as Record<LimitKey, string>
  for (const key of LIMIT_KEYS) limits[key] = config[key] === null ? '' : String(config[key])
  return { allowPublic: !(config.private_only ?? false), presenceEnabled: config.presence_enabled, limits }
}

export type SettingsErrors = Partial<Record<LimitKey, string>>

const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN)

/** The PATCH body a draft makes, or what is wrong with it (the contract's bounds, so the server would refuse it too). */
export function patchOf(draft: RealtimeSettingsDraft): { ok: true; body: RealtimeConfigUpdate } | { ok: false; errors: SettingsErrors } {
  const body: Record<string, unknown> = { private_only: !draft.allowPublic, presence_enabled: draft.presenceEnabled }
  for (const key of LIMIT_KEYS) body[key] = wholeNumber(draft.limits[key])
  const parsed = RealtimeConfigUpdate.safeParse(body)
  if (parsed.success) return { ok: true, body: parsed.data }
  const errors: SettingsErrors = {}
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0]) as LimitKey
    if (!LIMIT_KEYS.includes(key)) continue
    errors[key] ??= Number.isNaN(body[key]) ? 'Enter a whole number' : issue.message
  }
  return { ok: false, errors }
}

function isChanged(saved: RealtimeConfig, draft: RealtimeSettingsDraft) {
  return JSON.stringify(draftOf(saved)) !== JSON.stringify(draft)
}

/** A change to the draft: a switch, or one limit's text. */
export type DraftChange = { allowPublic?: boolean; presenceEnabled?: boolean; limit?: { key: LimitKey; text: string } }

interface Context {
  ref: string
  canManage: boolean
  saved: RealtimeConfig | null
  draft: RealtimeSettingsDraft | null
  loadError: string | null
  saveError: string | null
  notice: string | null
}

type RealtimeSettingsEvent =
  | { type: 'settings.retry' }
  | { type: 'settings.edit'; change: DraftChange }
  | { type: 'settings.save' }
  | { type: 'settings.reset' }

export const SAVED_NOTICE = 'Realtime settings saved'
const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

function applied(draft: RealtimeSettingsDraft, change: DraftChange): RealtimeSettingsDraft {
  return {
    allowPublic: change.allowPublic ?? draft.allowPublic,
    presenceEnabled: change.presenceEnabled ?? draft.presenceEnabled,
    limits: change.limit ? { ...draft.limits, [change.limit.key]: change.limit.text } : draft.limits,
  }
}

export const realtimeSettingsMachine = setup({
  types: {
    input: {} as { ref: string; canManage: boolean },
    context: {} as Context,
    events: {} as RealtimeSettingsEvent,
    children: {} as { getRealtimeConfig: 'getRealtimeConfig'; saveRealtimeConfig: 'saveRealtimeConfig' },
  },
  actors: {
    getRealtimeConfig: fromPromise<RealtimeConfig, { ref: string }>(async () => {
      throw new Error('getRealtimeConfig not provided')
    }),
    /** Saves the change and answers the limits as the server then has them. */
    saveRealtimeConfig: fromPromise<RealtimeConfig, { ref: string; body: RealtimeConfigUpdate }>(async () => {
      throw new Error('saveRealtimeConfig not provided')
    }),
  },
  actions: {
    storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
    storeSaveError: assign((_, params: { error: string }) => ({ saveError: params.error })),
  },
  guards: {
    canManage: ({ context }) => context.canManage,
    isChangedAndValid: ({ context }) =>
      context.canManage && context.draft !== null && context.saved !== null && patchOf(context.draft).ok && isChanged(context.saved, context.draft),
    isChanged: ({ context }) => context.draft !== null && context.saved !== null && isChanged(context.saved, context.draft),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'realtimeSettings',
  context: ({ input }) => ({ ref: input.ref, canManage: input.canManage, saved: null, draft: null, loadError: null, saveError: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'getRealtimeConfig',
        src: 'getRealtimeConfig',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ saved: event.output, draft: draftOf(event.output), loadError: null })) },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load the realtime settings') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'settings.retry': 'loading' },
    },
    ready: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'settings.edit': {
              guard: 'canManage',
              actions: assign(({ context, event }) => ({ draft: applied(context.draft!, event.change), notice: null, saveError: null })),
            },
            'settings.save': { guard: 'isChangedAndValid', target: 'saving', actions: assign({ saveError: null, notice: null }) },
            'settings.reset': { guard: 'isChanged', actions: assign(({ context }) => ({ draft: draftOf(context.saved!), saveError: null })) },
          },
        },
        saving: {
          invoke: {
            id: 'saveRealtimeConfig',
            src: 'saveRealtimeConfig',
            input: ({ context }) => {
              const made = patchOf(context.draft!)
              return { ref: context.ref, body: made.ok ? made.body : {} }
            },
            onDone: { target: 'editing', actions: assign(({ event }) => ({ saved: event.output, draft: draftOf(event.output), notice: SAVED_NOTICE })) },
            onError: { target: 'editing', actions: { type: 'storeSaveError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save the realtime settings') }) } },
          },
          after: { requestTimeout: { target: 'editing', actions: { type: 'storeSaveError', params: { error: TIMED_OUT } } } },
        },
      },
    },
  },
})

export type RealtimeSettingsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      canManage: boolean
      draft: RealtimeSettingsDraft
      errors: SettingsErrors
      changed: boolean
      saving: boolean
      error: string | null
      notice: string | null
    }

export function selectRealtimeSettingsView(snapshot: SnapshotFrom<typeof realtimeSettingsMachine>): RealtimeSettingsView {
  const c = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || !c.draft || !c.saved) return { phase: 'failed', error: c.loadError ?? 'Failed to load the realtime settings' }
  const made = patchOf(c.draft)
  return {
    phase: 'ready',
    canManage: c.canManage,
    draft: c.draft,
    errors: made.ok ? {} : made.errors,
    changed: isChanged(c.saved, c.draft),
    saving: snapshot.matches({ ready: 'saving' }),
    error: c.saveError,
    notice: c.notice,
  }
}
