/**
 * The settings form machine (machines/settingsForm.machine.ts), walked on every page made from it: each page's
 * paths come from its machine's graph (the same states and transitions, its own actor ids and delays' names), and
 * each path drives that page's real view — its texts, its fields, the patch it sends.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import type { ReactElement } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type ActorRefFrom } from 'xstate'
import * as authForm from '../machines/authSettings.machine'
import * as postgrestForm from '../machines/postgrestSettings.machine'
import * as realtimeForm from '../machines/realtimeSettings.machine'
import type { SettingsFormContext } from '../machines/settingsForm.machine'
import type { AuthConfig } from '../src/contracts/auth'
import type { RealtimeConfig } from '../src/contracts/realtime'
import type { PostgrestConfig } from '../src/contracts/wire'
import { AuthSettings } from '../src/views/project/auth/AuthSettingsPage'
import { DATA_API_FIELDS, DataApiSettings } from '../src/views/project/settings/DataApiSettings'
import { LIMIT_TEXT, RealtimeSettings } from '../src/views/project/realtime/RealtimeSettingsPage'
import { REF } from '../tests/fixtures'
import { AUTH_CONFIG } from '../tests/fixtures.projectAuth'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf, type ModelEvent } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

type FormMachine = typeof realtimeForm.realtimeSettingsMachine | typeof authForm.authSettingsMachine | typeof postgrestForm.postgrestSettingsMachine

/** One page made from the settings form: its machine, what it reads and is changed to, and how its view shows it. */
interface FormPage<Saved, Draft, Change> {
  name: string
  machine: FormMachine
  /** The machine's id and its load and save actors' ids, as its edges name them. */
  id: string
  load: string
  save: string
  /** How long its requests may go unanswered. */
  timeout: number
  config: Saved
  /** What the server answers a save with. */
  saved: Saved
  draftOf(saved: Saved): Draft
  /** A change a person makes, and one the form refuses (its field and message). */
  change: Change
  invalid: { change: Change; label: string; message: string }
  isInvalid(draft: Draft): boolean
  /** The first change's edits are in the draft. */
  isChanged(draft: Draft): boolean
  view(actor: ActorRefFrom<FormMachine>): ReactElement
  texts: { loading: string; loadFailed: string; saved: string; form: string; readOnly: string }
  /** A field the form shows read-only while saving or to a member who may not manage the settings. */
  field: string
  expectDraft(draft: Draft): void
  edit(change: Change, draft: Draft): void
  /** The PATCH a save of `draft` sends. */
  body(draft: Draft): unknown
}

const form = (name: string) => within(screen.getByRole('form', { name }))

/** A project whose limits are not the defaults, so the patch is seen to carry what was read. */
const REALTIME_CONFIG: RealtimeConfig = {
  private_only: false,
  connection_pool: 3,
  max_concurrent_users: 500,
  max_events_per_second: 100,
  max_bytes_per_second: 250_000,
  max_channels_per_client: 50,
  max_joins_per_second: 40,
  max_presence_events_per_second: 30,
  max_presence_keys_per_object: 12,
  max_payload_size_in_kb: 512,
  suspend: false,
  presence_enabled: true,
}

const realtimePage: FormPage<RealtimeConfig, realtimeForm.RealtimeSettingsDraft, realtimeForm.DraftChange> = {
  name: 'realtime settings',
  machine: realtimeForm.realtimeSettingsMachine,
  id: 'realtimeSettings',
  load: 'getRealtimeConfig',
  save: 'saveRealtimeConfig',
  timeout: 10_000,
  config: REALTIME_CONFIG,
  saved: { ...REALTIME_CONFIG, private_only: true, max_events_per_second: 20 },
  draftOf: realtimeForm.draftOf,
  // Public channels off and fewer events per second; or an event limit that is not a number.
  change: { allowPublic: false, limit: { key: 'max_events_per_second', text: '20' } },
  invalid: { change: { limit: { key: 'max_events_per_second', text: 'many' } }, label: 'Max events per second', message: 'Enter a whole number' },
  isInvalid: (draft) => draft.limits.max_events_per_second === 'many',
  isChanged: (draft) => !draft.allowPublic && draft.limits.max_events_per_second === '20',
  view: (actor) => <RealtimeSettings actor={actor as ActorRefFrom<typeof realtimeForm.realtimeSettingsMachine>} />,
  texts: {
    loading: 'Loading realtime settings…',
    loadFailed: 'Failed to load the realtime settings',
    saved: realtimeForm.SAVED_NOTICE,
    form: 'Realtime settings',
    readOnly: 'Your role can see the realtime settings but not change them.',
  },
  field: 'Max concurrent clients',
  expectDraft(draft) {
    const f = form('Realtime settings')
    expect(f.getByRole('switch', { name: 'Allow public access' })).toHaveProperty('checked', draft.allowPublic)
    expect(f.getByRole('switch', { name: 'Enable presence' })).toHaveProperty('checked', draft.presenceEnabled)
    for (const key of realtimeForm.LIMIT_KEYS) expect(f.getByLabelText(LIMIT_TEXT[key].label)).toHaveValue(draft.limits[key])
  },
  edit(change, draft) {
    const f = form('Realtime settings')
    if (change.allowPublic !== undefined && change.allowPublic !== draft.allowPublic) fireEvent.click(f.getByRole('switch', { name: 'Allow public access' }))
    if (change.limit) fireEvent.change(f.getByLabelText(LIMIT_TEXT[change.limit.key].label), { target: { value: change.limit.text } })
  },
  body: (draft) => ({
    private_only: !draft.allowPublic,
    presence_enabled: true,
    max_concurrent_users: 500,
    max_channels_per_client: 50,
    max_events_per_second: draft.limits.max_events_per_second === '20' ? 20 : 100,
    max_bytes_per_second: 250_000,
    max_joins_per_second: 40,
    max_presence_events_per_second: 30,
    max_presence_keys_per_object: 12,
    max_payload_size_in_kb: 512,
    connection_pool: 3,
  }),
}

const AUTH_SWITCHES = {
  allowSignups: 'Allow new users to sign up',
  confirmEmail: 'Confirm email',
  preventLeakedPasswords: 'Prevent use of leaked passwords',
  phoneProvider: 'Enable Phone provider',
  confirmPhone: 'Enable phone confirmations',
} as const
const AUTH_RATE_LIMITS = {
  rateLimitEmails: 'Rate limit for sending emails',
  rateLimitSms: 'Rate limit for sending SMS messages',
  rateLimitSignIns: 'Rate limit for sign-ups and sign-ins',
  rateLimitOtp: 'Rate limit for token verifications',
  rateLimitRefresh: 'Rate limit for token refreshes',
} as const
const AUTH = { ...AUTH_CONFIG, uri_allow_list: 'http://localhost:3000/**,https://app.example.com/callback' } satisfies AuthConfig

const authPage: FormPage<AuthConfig, authForm.AuthSettingsDraft, authForm.AuthSettingsChange> = {
  name: 'auth settings',
  machine: authForm.authSettingsMachine,
  id: 'authSettings',
  load: 'getAuthConfig',
  save: 'updateAuthConfig',
  timeout: 10_000,
  config: AUTH,
  saved: { ...AUTH, disable_signup: true, jwt_exp: 120, password_hibp_enabled: true, external_phone_enabled: true, sms_autoconfirm: true, rate_limit_verify: 10 },
  draftOf: authForm.draftOf,
  // Sign-ups off, a shorter expiry, the leaked-password rule and the phone provider on (numbers taken without a
  // code), a lower sign-in limit; or an expiry that is not a number.
  change: { allowSignups: false, jwtExpiry: '120', preventLeakedPasswords: true, phoneProvider: true, confirmPhone: false, rateLimitSignIns: '10' },
  invalid: { change: { jwtExpiry: 'soon' }, label: 'JWT expiry limit', message: 'Enter a whole number' },
  isInvalid: (draft) => draft.jwtExpiry === 'soon',
  isChanged: (draft) => draft.jwtExpiry === '120',
  view: (actor) => <AuthSettings actor={actor as ActorRefFrom<typeof authForm.authSettingsMachine>} />,
  texts: {
    loading: 'Loading auth settings…',
    loadFailed: 'Failed to load the auth settings',
    saved: 'Auth settings saved',
    form: 'Auth settings',
    readOnly: 'Your role can see the auth settings but not change them.',
  },
  field: 'Site URL',
  expectDraft(draft) {
    const f = form('Auth settings')
    for (const [key, name] of Object.entries(AUTH_SWITCHES)) expect(f.getByRole('switch', { name }), name).toHaveProperty('checked', draft[key as keyof typeof AUTH_SWITCHES])
    // Phone confirmations mean nothing while the phone provider is off.
    expect(f.getByRole('switch', { name: AUTH_SWITCHES.confirmPhone })).toHaveProperty('disabled', !draft.phoneProvider)
    for (const [key, name] of Object.entries(AUTH_RATE_LIMITS)) expect(f.getByLabelText(name)).toHaveValue(draft[key as keyof typeof AUTH_RATE_LIMITS])
    expect(f.getByLabelText('JWT expiry limit')).toHaveValue(draft.jwtExpiry)
    expect(f.getByLabelText('Minimum password length')).toHaveValue(draft.minPasswordLength)
    expect(f.getByLabelText('Site URL')).toHaveValue(draft.siteUrl)
    expect(f.getByLabelText('Redirect URLs')).toHaveValue(draft.redirectUrls)
  },
  edit(change, draft) {
    const f = form('Auth settings')
    // In the order of the page: the phone provider before its confirmations, which it enables.
    for (const [key, name] of Object.entries(AUTH_SWITCHES) as Array<[keyof typeof AUTH_SWITCHES, string]>) {
      if (change[key] !== undefined && change[key] !== draft[key]) fireEvent.click(f.getByRole('switch', { name }))
    }
    if (change.jwtExpiry !== undefined) fireEvent.change(f.getByLabelText('JWT expiry limit'), { target: { value: change.jwtExpiry } })
    for (const [key, name] of Object.entries(AUTH_RATE_LIMITS) as Array<[keyof typeof AUTH_RATE_LIMITS, string]>) {
      if (change[key] !== undefined) fireEvent.change(f.getByLabelText(name), { target: { value: change[key] } })
    }
  },
  body: () => ({
    site_url: 'http://localhost:3000',
    uri_allow_list: 'http://localhost:3000/**,https://app.example.com/callback',
    disable_signup: true,
    mailer_autoconfirm: false,
    jwt_exp: 120,
    password_min_length: 6,
    password_hibp_enabled: true,
    external_phone_enabled: true,
    sms_autoconfirm: true,
    rate_limit_email_sent: 30,
    rate_limit_sms_sent: 30,
    rate_limit_verify: 10,
    rate_limit_otp: 30,
    rate_limit_token_refresh: 150,
  }),
}

const POSTGREST: PostgrestConfig = { db_schema: 'public,graphql_public', max_rows: 1000, db_extra_search_path: '', db_pool: null }

const postgrestPage: FormPage<PostgrestConfig, postgrestForm.PostgrestSettingsDraft, postgrestForm.PostgrestSettingsChange> = {
  name: "API page's Data API settings",
  machine: postgrestForm.postgrestSettingsMachine,
  id: 'postgrestSettings',
  load: 'getPostgrestConfig',
  save: 'updatePostgrestConfig',
  // The save checks the schemas in the project's database: it waits as the project database's other reads do.
  timeout: 30_000,
  config: POSTGREST,
  saved: { ...POSTGREST, db_schema: 'public,api', max_rows: 250 },
  draftOf: postgrestForm.draftOf,
  // Another schema and fewer rows (the list typed with a repeat, kept once); or a row cap that is not a number.
  change: { schemas: 'public, api, public', maxRows: '250' },
  invalid: { change: { maxRows: 'many' }, label: DATA_API_FIELDS.maxRows.label, message: 'Enter a whole number' },
  isInvalid: (draft) => draft.maxRows === 'many',
  isChanged: (draft) => draft.maxRows === '250',
  view: (actor) => <DataApiSettings actor={actor as ActorRefFrom<typeof postgrestForm.postgrestSettingsMachine>} />,
  texts: {
    loading: 'Loading Data API settings…',
    loadFailed: 'Failed to load the Data API settings',
    saved: postgrestForm.SAVED_NOTICE,
    form: 'Data API settings',
    readOnly: 'Your role can see the Data API settings but not change them.',
  },
  field: DATA_API_FIELDS.schemas.label,
  expectDraft(draft) {
    const f = form('Data API settings')
    expect(f.getByLabelText(DATA_API_FIELDS.schemas.label)).toHaveValue(draft.schemas)
    expect(f.getByLabelText(DATA_API_FIELDS.maxRows.label)).toHaveValue(draft.maxRows)
  },
  edit(change) {
    const f = form('Data API settings')
    if (change.schemas !== undefined) fireEvent.change(f.getByLabelText(DATA_API_FIELDS.schemas.label), { target: { value: change.schemas } })
    if (change.maxRows !== undefined) fireEvent.change(f.getByLabelText(DATA_API_FIELDS.maxRows.label), { target: { value: change.maxRows } })
  },
  body: () => ({ db_schema: 'public,api', max_rows: 250 }),
}

const runPath = usePathClock()

/** The machine of a page, with deferred load and save actors the path resolves. */
function started<Saved>(page: FormPage<Saved, unknown, unknown>, canManage: boolean) {
  const load = deferredActor<Saved, { ref: string }>(page.load)
  const save = deferredActor<Saved, { ref: string; body: unknown }>(page.save)
  // Both pages' machines are the same machine: the same two actors, with the page's types.
  const machine = (page.machine as typeof realtimeForm.realtimeSettingsMachine).provide({ actors: { loadSettings: load.logic as never, saveSettings: save.logic as never } })
  const actor = runPath(createActor(machine, { input: { ref: REF, canManage } }).start()) as unknown as ActorRefFrom<FormMachine> & { stop(): void }
  return { load, save, actor }
}

function describePage<Saved, Draft, Change>(page: FormPage<Saved, Draft, Change>) {
  type Machine = typeof realtimeForm.realtimeSettingsMachine
  const machine = page.machine as Machine
  const contextOf = (snapshot: { context: unknown }) => snapshot.context as SettingsFormContext<Saved, Draft>
  const edit = (change: Change) => ({ type: 'settings.edit', change }) as unknown as ModelEvent<Machine>
  const model = modelOf(machine, {
    input: { ref: REF, canManage: true },
    events: (snapshot): Array<ModelEvent<Machine>> => {
      const { draft, saved, saveError } = contextOf(snapshot)
      if (snapshot.matches('loading')) {
        return [
          { type: `xstate.done.actor.${page.load}`, output: page.config },
          { type: `xstate.error.actor.${page.load}`, error: apiError('Project not found', 404) },
          { type: `xstate.after.requestTimeout.${page.id}.loading` },
        ]
      }
      if (snapshot.matches('failed')) return [{ type: 'settings.retry' }]
      if (snapshot.matches({ ready: 'editing' })) {
        // One save per path, from the settings first read: the change, or the refused one and then the change.
        if (saved !== page.config) return []
        const fresh = !page.isInvalid(draft!) && !page.isChanged(draft!)
        const edits = saveError !== null ? [] : fresh ? [page.change, page.invalid.change] : page.isInvalid(draft!) ? [page.change] : []
        // Save and Cancel only when their buttons are enabled (a disabled button sends nothing).
        const buttons = (['settings.save', 'settings.reset'] as const).filter((type) => snapshot.can({ type })).map((type) => ({ type }))
        return [...edits.map(edit), ...buttons]
      }
      if (snapshot.matches({ ready: 'saving' })) {
        return [
          { type: `xstate.done.actor.${page.save}`, output: page.saved },
          { type: `xstate.error.actor.${page.save}`, error: apiError('Your role may not change these settings', 403) },
          { type: `xstate.after.requestTimeout.${page.id}.ready.saving` },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => {
      const { saved, draft, loadError, saveError, notice } = contextOf(snapshot)
      return keyByIncomingEdge(snapshot, event, JSON.stringify({ saved: saved === page.config ? 'first' : saved === null ? null : 'saved', draft, loadError, saveError, notice }))
    },
  })
  const paths = model.getShortestPaths()
  const f = () => form(page.texts.form)
  /** The request is still awaited a moment before the page's time-out, and abandoned at it. */
  const waitsItsTimeout = async (actor: ActorRefFrom<FormMachine>, state: 'loading' | { ready: 'saving' }) => {
    await act(() => vi.advanceTimersByTimeAsync(page.timeout - 1))
    expect(actor.getSnapshot().matches(state as never)).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(1))
  }

  describe(`the settings form on the ${page.name} page`, () => {
    it('the paths reach every state and every transition', () => {
      expect(missingCoverage(machine, paths)).toEqual({ states: [], transitions: [] })
    })

    for (const path of paths) {
      it(describePath(path), async () => {
        const { load, save, actor } = started(page as FormPage<Saved, unknown, unknown>, true)
        render(page.view(actor))
        await path.test({
          states: {
            loading: () => {
              expect(screen.getByRole('status')).toHaveTextContent(page.texts.loading)
              expect(screen.queryByRole('form')).toBeNull()
              expect(load.pending.map((run) => run.input)).toEqual([{ ref: REF }])
            },
            failed: (snapshot) => {
              const alert = screen.getByRole('alert')
              expect(within(alert).getByRole('heading')).toHaveTextContent(page.texts.loadFailed)
              expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
              expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
            },
            'ready.editing': (snapshot) => {
              const { draft, saved, saveError, notice } = contextOf(snapshot)
              page.expectDraft(draft!)
              const changed = JSON.stringify(draft) !== JSON.stringify(page.draftOf(saved!))
              const invalid = page.isInvalid(draft!)
              expect(f().getByRole('button', { name: 'Save' })).toHaveProperty('disabled', !changed || invalid)
              expect(f().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', !changed)
              if (invalid) {
                expect(f().getByText(page.invalid.message)).toBeInTheDocument()
                expect(f().getByLabelText(page.invalid.label)).toHaveAttribute('aria-invalid', 'true')
              }
              if (saveError) expect(f().getByRole('alert')).toHaveTextContent(saveError)
              else expect(f().queryByRole('alert')).toBeNull()
              if (notice) expect(f().getByRole('status')).toHaveTextContent(page.texts.saved)
              else expect(f().queryByRole('status')).toBeNull()
              expect(save.pending).toHaveLength(0)
            },
            'ready.saving': (snapshot) => {
              expect(f().getByRole('button', { name: 'Saving…' })).toBeDisabled()
              expect(f().getByLabelText(page.field)).toHaveAttribute('readonly')
              expect(save.pending.map((run) => run.input)).toEqual([{ ref: REF, body: page.body(contextOf(snapshot).draft!) }])
            },
          },
          events: {
            [`xstate.done.actor.${page.load}`]: async (step: { event: { type: string } }) => load.resolve(outputOf<Saved>(step)),
            [`xstate.error.actor.${page.load}`]: async (step: { event: { type: string } }) => load.reject(errorOf(step)),
            [`xstate.after.requestTimeout.${page.id}.loading`]: async () => {
              await waitsItsTimeout(actor, 'loading')
            },
            'settings.retry': async () => {
              fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
            },
            'settings.edit': async (step: { event: { type: string } }) => {
              page.edit((step.event as unknown as { change: Change }).change, contextOf(actor.getSnapshot()).draft!)
            },
            'settings.save': async () => {
              fireEvent.click(f().getByRole('button', { name: 'Save' }))
            },
            'settings.reset': async () => {
              fireEvent.click(f().getByRole('button', { name: 'Cancel' }))
            },
            [`xstate.done.actor.${page.save}`]: async (step: { event: { type: string } }) => save.resolve(outputOf<Saved>(step)),
            [`xstate.error.actor.${page.save}`]: async (step: { event: { type: string } }) => save.reject(errorOf(step)),
            [`xstate.after.requestTimeout.${page.id}.ready.saving`]: async () => {
              await waitsItsTimeout(actor, { ready: 'saving' })
            },
          },
        })
      })
    }

    it('shows a member who may not manage the settings them read-only, with nothing to save', async () => {
      const { load, actor } = started(page as FormPage<Saved, unknown, unknown>, false)
      render(page.view(actor))
      await load.resolve(page.config)
      expect(screen.getByText(page.texts.readOnly)).toBeInTheDocument()
      page.expectDraft(page.draftOf(page.config))
      expect(f().getByLabelText(page.field)).toHaveAttribute('readonly')
      expect(f().queryByRole('button', { name: 'Save' })).toBeNull()
      actor.send({ type: 'settings.edit', change: page.change } as never)
      actor.send({ type: 'settings.save' })
      expect(contextOf(actor.getSnapshot()).draft).toEqual(page.draftOf(page.config))
      expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true)
    })
  })
}

describePage(realtimePage)
describePage(authPage)
describePage(postgrestPage)

describe('the auth settings page', () => {
  it('refuses a rate limit that is not a whole number from 1 up, naming the field, and saves nothing', async () => {
    const { load, save, actor } = started(authPage as FormPage<AuthConfig, unknown, unknown>, true)
    render(authPage.view(actor))
    await load.resolve(AUTH)
    const f = () => form('Auth settings')
    for (const [value, message] of [['0', 'Enter a whole number from 1 to 2,147,483,647'], ['many', 'Enter a whole number']]) {
      fireEvent.change(f().getByLabelText(AUTH_RATE_LIMITS.rateLimitSms), { target: { value } })
      expect(f().getByLabelText(AUTH_RATE_LIMITS.rateLimitSms)).toHaveAccessibleDescription(expect.stringContaining(message))
      expect(f().getByRole('button', { name: 'Save' })).toBeDisabled()
    }
    fireEvent.change(f().getByLabelText(AUTH_RATE_LIMITS.rateLimitSms), { target: { value: '5' } })
    fireEvent.click(f().getByRole('button', { name: 'Save' }))
    expect(save.pending.map((run) => (run.input.body as { rate_limit_sms_sent: number }).rate_limit_sms_sent)).toEqual([5])
  })
})
