/**
 * Settings › API, Data API: the schemas the project's REST API serves and the most rows one read answers, read from
 * and saved through the Management API's /v1/projects/{ref}/postgrest (the PATCH answers the settings it kept). The
 * flow is the settings form (settingsForm.machine.ts); this file describes its draft and patch. Only a member with
 * projects:write edits or saves. A save checks the schemas in the project's database, so it waits as long as the
 * other reads of a project's database do.
 */
import { UpdatePostgrestConfigBody, type PostgrestConfig } from '../src/contracts/wire'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'
import { settingsFormMachine, settingsFormView, type SettingsFormDescription, type SettingsFormView } from './settingsForm.machine'

/** The form as typed: the schemas as a comma-separated list, the row cap as text. */
export interface PostgrestSettingsDraft {
  schemas: string
  maxRows: string
}

export type PostgrestSettingsField = keyof PostgrestSettingsDraft

/** A change to one field's text. */
export type PostgrestSettingsChange = Partial<PostgrestSettingsDraft>

export const SAVED_NOTICE = 'Data API settings saved'

/** The schemas of a list as the server keeps them: trimmed, without blanks or repeats, comma-separated. */
const schemaList = (text: string) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))].join(',')

export function draftOf(config: PostgrestConfig): PostgrestSettingsDraft {
  return { schemas: config.db_schema.split(',').filter(Boolean).join(', '), maxRows: String(config.max_rows) }
}

const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN)

/** The PATCH body a draft makes, or what is wrong with it (the contract's bounds, so the server would refuse it too). */
export function patchOf(draft: PostgrestSettingsDraft): { ok: true; body: UpdatePostgrestConfigBody } | { ok: false; errors: Partial<Record<PostgrestSettingsField, string>> } {
  const maxRows = wholeNumber(draft.maxRows)
  const parsed = UpdatePostgrestConfigBody.safeParse({ db_schema: schemaList(draft.schemas), max_rows: maxRows })
  if (parsed.success) return { ok: true, body: parsed.data }
  const errors: Partial<Record<PostgrestSettingsField, string>> = {}
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'db_schema') errors.schemas ??= 'Enter at most 1,000 characters'
    if (issue.path[0] === 'max_rows') errors.maxRows ??= Number.isNaN(maxRows) ? 'Enter a whole number' : 'Enter a whole number from 0 to 1,000,000'
  }
  return { ok: false, errors }
}

const description = {
  id: 'postgrestSettings',
  load: 'getPostgrestConfig',
  save: 'updatePostgrestConfig',
  texts: { loadFailed: 'Failed to load the Data API settings', saveFailed: 'Failed to save the Data API settings', saved: SAVED_NOTICE },
  requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  draftOf,
  applied: (draft, change) => ({ ...draft, ...change }),
  patchOf,
  // What the server would keep: a list typed with other spaces or a repeated schema is no change.
  isChanged: (saved, draft) => schemaList(draft.schemas) !== saved.db_schema || draft.maxRows.trim() !== String(saved.max_rows),
} satisfies SettingsFormDescription<
  PostgrestConfig,
  PostgrestSettingsDraft,
  PostgrestSettingsChange,
  UpdatePostgrestConfigBody,
  PostgrestSettingsField,
  'postgrestSettings',
  'getPostgrestConfig',
  'updatePostgrestConfig'
>

export const postgrestSettingsMachine = settingsFormMachine(description)

export type PostgrestSettingsView = SettingsFormView<PostgrestSettingsDraft, PostgrestSettingsField>

export const selectPostgrestSettingsView = settingsFormView(description)
