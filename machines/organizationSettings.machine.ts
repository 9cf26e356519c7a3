/**
 * Organization settings (/org/{slug}/general): the name (renamed, validated by the contract's rule) and the opt-in
 * preferences (the AI_SQL tag). Loads the organization with the person's permissions in it, read fresh from the
 * server; without organizations:write nothing can be edited or saved (the server refuses it too).
 * Invariants: what was typed survives a failed save (failed keeps the draft, the next edit or save goes on from it);
 * a save sends only what changed; a request unanswered after requestTimeout is abandoned (its signal aborted) and
 * reported like a failure; a saved change asks the app to read the organizations again (names in breadcrumbs).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Permission } from '../src/contracts/common'
import type { Organization } from '../src/contracts/organizations'
import { AI_SQL_TAG, OrganizationName, type UpdateOrganizationBody } from '../src/contracts/orgSettings'

export const ORGANIZATION_WRITE: Permission = 'organizations:write'
export const SAVED_TEXT = 'Organization settings saved'
export const NO_PERMISSION_TEXT = "You need additional permissions to change this organization's settings"

export interface OrganizationSettingsData {
  organization: Organization
  permissions: Permission[]
}

export interface SettingsDraft {
  name: string
  aiSql: boolean
}

interface Context {
  slug: string
  organization: Organization | null
  permissions: Permission[]
  draft: SettingsDraft
  error: string | null
}

type OrganizationSettingsEvent =
  | { type: 'settings.retry' }
  | { type: 'draft.edit'; draft: Partial<SettingsDraft> }
  | { type: 'settings.save' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)
const draftOf = (organization: Organization): SettingsDraft => ({ name: organization.name, aiSql: organization.opt_in_tags.includes(AI_SQL_TAG) })

/** The name's problem by the contract's rule, or null. */
export function nameError(name: string): string | null {
  const parsed = OrganizationName.safeParse(name)
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid name')
}

/** The PATCH body of a draft: only what differs from the organization; null when nothing does. */
export function changesOf(organization: Organization, draft: SettingsDraft): UpdateOrganizationBody | null {
  const body: UpdateOrganizationBody = {}
  if (draft.name.trim() !== organization.name) body.name = draft.name.trim()
  if (draft.aiSql !== organization.opt_in_tags.includes(AI_SQL_TAG)) body.opt_in_tags = draft.aiSql ? [AI_SQL_TAG] : []
  return Object.keys(body).length === 0 ? null : body
}

export const organizationSettingsMachine = setup({
  types: {
    input: {} as { slug: string },
    context: {} as Context,
    events: {} as OrganizationSettingsEvent,
    children: {} as { fetchOrganizationSettings: 'fetchOrganizationSettings'; saveOrganization: 'saveOrganization' },
  },
  actors: {
    fetchOrganizationSettings: fromPromise<OrganizationSettingsData, { slug: string }>(async () => {
      throw new Error('fetchOrganizationSettings not provided')
    }),
    saveOrganization: fromPromise<Organization, { slug: string; body: UpdateOrganizationBody }>(async () => {
      throw new Error('saveOrganization not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    editDraft: assign(({ context }, params: { draft: Partial<SettingsDraft> }) => ({ draft: { ...context.draft, ...params.draft } })),
    storeOrganization: assign((_, params: { organization: Organization }) => ({ organization: params.organization, draft: draftOf(params.organization), error: null })),
    refreshOrganizations: () => {},
  },
  guards: {
    mayEdit: ({ context }) => context.permissions.includes(ORGANIZATION_WRITE),
    maySave: ({ context }) =>
      context.permissions.includes(ORGANIZATION_WRITE) &&
      context.organization !== null &&
      nameError(context.draft.name) === null &&
      changesOf(context.organization, context.draft) !== null,
  },
  delays: { requestTimeout: 10_000 },
}).createMachine({
  id: 'organizationSettings',
  context: ({ input }) => ({ slug: input.slug, organization: null, permissions: [], draft: { name: '', aiSql: false }, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchOrganizationSettings',
        src: 'fetchOrganizationSettings',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: {
          target: 'idle',
          actions: [assign({ permissions: ({ event }) => event.output.permissions }), { type: 'storeOrganization', params: ({ event }) => ({ organization: event.output.organization }) }],
        },
        onError: { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load organization') }) } },
      },
      after: { requestTimeout: { target: 'loadFailed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    loadFailed: { on: { 'settings.retry': 'loading' } },
    idle: {
      on: {
        'draft.edit': { guard: 'mayEdit', actions: { type: 'editDraft', params: ({ event }) => ({ draft: event.draft }) } },
        'settings.save': { guard: 'maySave', target: 'saving' },
      },
    },
    saving: {
      invoke: {
        id: 'saveOrganization',
        src: 'saveOrganization',
        input: ({ context }) => ({ slug: context.slug, body: changesOf(context.organization!, context.draft)! }),
        onDone: {
          target: 'saved',
          actions: [{ type: 'storeOrganization', params: ({ event }) => ({ organization: event.output }) }, 'refreshOrganizations'],
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save settings') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    saved: {
      on: { 'draft.edit': { guard: 'mayEdit', target: 'idle', actions: { type: 'editDraft', params: ({ event }) => ({ draft: event.draft }) } } },
    },
    failed: {
      on: {
        'draft.edit': { guard: 'mayEdit', target: 'idle', actions: { type: 'editDraft', params: ({ event }) => ({ draft: event.draft }) } },
        'settings.save': { guard: 'maySave', target: 'saving' },
      },
    },
  },
})

type Snapshot = SnapshotFrom<typeof organizationSettingsMachine>

export type OrganizationSettingsView =
  | { phase: 'loading' }
  | { phase: 'loadFailed'; error: string }
  | {
      phase: 'ready'
      organization: Organization
      draft: SettingsDraft
      canEdit: boolean
      saving: boolean
      nameError: string | null
      /** The outcome line under the form: saved, or the failure's message. */
      outcome: { kind: 'saved'; text: string } | { kind: 'failed'; text: string } | null
    }

export function selectOrganizationSettingsView(snapshot: Snapshot): OrganizationSettingsView {
  const { organization, draft, error, permissions } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('loadFailed') || organization === null) return { phase: 'loadFailed', error: error ?? 'Failed to load organization' }
  return {
    phase: 'ready',
    organization,
    draft,
    canEdit: permissions.includes(ORGANIZATION_WRITE),
    saving: snapshot.matches('saving'),
    nameError: nameError(draft.name),
    outcome: snapshot.matches('saved') ? { kind: 'saved', text: SAVED_TEXT } : snapshot.matches('failed') ? { kind: 'failed', text: `Failed to save settings: ${error ?? ''}` } : null,
  }
}

export const selectCanSaveSettings = (snapshot: Snapshot) => snapshot.can({ type: 'settings.save' })
