/**
 * Realtime › Settings: the project's realtime limits the service obeys (public channels allowed or not, presence on
 * or off, connections, channels per client, messages, bytes, joins and presence events per second, presence keys,
 * payload size), read from and saved through the Management API's config/realtime. The flow is the settings form
 * (settingsForm.machine.ts); this file describes its draft and patch. Only a member with realtime:all edits or saves.
 */
import { RealtimeConfigUpdate, type RealtimeConfig } from '../src/contracts/realtime'
import { settingsFormMachine, settingsFormView, type SettingsFormDescription, type SettingsFormView } from './settingsForm.machine'

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

/** A change to the draft: a switch, or one limit's text. */
export type DraftChange = { allowPublic?: boolean; presenceEnabled?: boolean; limit?: { key: LimitKey; text: string } }

export const SAVED_NOTICE = 'Realtime settings saved'

function applied(draft: RealtimeSettingsDraft, change: DraftChange): RealtimeSettingsDraft {
  return {
    allowPublic: change.allowPublic ?? draft.allowPublic,
    presenceEnabled: change.presenceEnabled ?? draft.presenceEnabled,
    limits: change.limit ? { ...draft.limits, [change.limit.key]: change.limit.text } : draft.limits,
  }
}

const description = {
  id: 'realtimeSettings',
  load: 'getRealtimeConfig',
  save: 'saveRealtimeConfig',
  texts: { loadFailed: 'Failed to load the realtime settings', saveFailed: 'Failed to save the realtime settings', saved: SAVED_NOTICE },
  draftOf,
  applied,
  patchOf,
  isChanged: (saved, draft) => JSON.stringify(draftOf(saved)) !== JSON.stringify(draft),
} satisfies SettingsFormDescription<RealtimeConfig, RealtimeSettingsDraft, DraftChange, RealtimeConfigUpdate, LimitKey, 'realtimeSettings', 'getRealtimeConfig', 'saveRealtimeConfig'>

export const realtimeSettingsMachine = settingsFormMachine(description)

export type RealtimeSettingsView = SettingsFormView<RealtimeSettingsDraft, LimitKey>

export const selectRealtimeSettingsView = settingsFormView(description)
