import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { authSettingsMachine, draftOf, type AuthSettingsDraft } from '../machines/authSettings.machine'
import type { AuthConfig, UpdateAuthConfigBody } from '../src/contracts/auth'
import { AuthSettings } from '../src/views/project/auth/AuthSettingsPage'
import { REF } from '../tests/fixtures'
import { AUTH_CONFIG } from '../tests/fixtures.projectAuth'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(authSettingsMachine)
const REQUEST_TIMEOUT = 10_000

const CONFIG: AuthConfig = { ...AUTH_CONFIG, uri_allow_list: 'http://localhost:3000/**,https://app.example.com/callback' }
/**
 * What a person changes: sign-ups off, a shorter expiry, the leaked-password rule and the phone provider on (phone
 * numbers taken without a code), a lower sign-in limit; or an expiry that is not a number.
 */
const CHANGE: Partial<AuthSettingsDraft> = {
  allowSignups: false,
  jwtExpiry: '120',
  preventLeakedPasswords: true,
  phoneProvider: true,
  confirmPhone: false,
  rateLimitSignIns: '10',
}
const INVALID: Partial<AuthSettingsDraft> = { jwtExpiry: 'soon' }
const SAVED: AuthConfig = { ...CONFIG, disable_signup: true, jwt_exp: 120, password_hibp_enabled: true, external_phone_enabled: true, sms_autoconfirm: true, rate_limit_verify: 10 }
const SWITCHES = {
  allowSignups: 'Allow new users to sign up',
  confirmEmail: 'Confirm email',
  preventLeakedPasswords: 'Prevent use of leaked passwords',
  phoneProvider: 'Enable Phone provider',
  confirmPhone: 'Enable phone confirmations',
} as const
const RATE_LIMITS = {
  rateLimitEmails: 'Rate limit for sending emails',
  rateLimitSms: 'Rate limit for sending SMS messages',
  rateLimitSignIns: 'Rate limit for sign-ups and sign-ins',
  rateLimitOtp: 'Rate limit for token verifications',
  rateLimitRefresh: 'Rate limit for token refreshes',
} as const

const contextOf = (snapshot: SnapshotFrom<typeof authSettingsMachine>) => snapshot.context

const model = modelOf(authSettingsMachine, {
  input: { ref: REF, canManage: true },
  events: (snapshot) => {
    const { draft, saved, saveError } = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.getAuthConfig', output: CONFIG },
        { type: 'xstate.error.actor.getAuthConfig', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.authSettings.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'settings.retry' })]
    if (snapshot.matches({ ready: 'editing' })) {
      // One save per path, from the settings first read.
      if (saved !== CONFIG) return []
      const fresh = draft!.jwtExpiry === '3600'
      const edits = saveError !== null ? [] : fresh ? [CHANGE, INVALID] : draft!.jwtExpiry === INVALID.jwtExpiry ? [CHANGE] : []
      // Save and Cancel only when their buttons are enabled (a disabled button sends nothing).
      const buttons = (['settings.save', 'settings.reset'] as const).filter((type) => snapshot.can({ type })).map((type) => ev({ type }))
      return [...edits.map((edit) => ev({ type: 'settings.edit', draft: edit })), ...buttons]
    }
    if (snapshot.matches({ ready: 'saving' })) {
      return [
        { type: 'xstate.done.actor.updateAuthConfig', output: SAVED },
        { type: 'xstate.error.actor.updateAuthConfig', error: apiError("Your role may not change this project's auth settings", 403) },
        { type: 'xstate.after.requestTimeout.authSettings.ready.saving' },
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

const form = () => within(screen.getByRole('form', { name: 'Auth settings' }))

function expectDraft(draft: AuthSettingsDraft) {
  for (const [key, name] of Object.entries(SWITCHES)) {
    expect(form().getByRole('switch', { name }), name).toHaveProperty('checked', draft[key as keyof typeof SWITCHES])
  }
  // Phone confirmations mean nothing while the phone provider is off.
  expect(form().getByRole('switch', { name: SWITCHES.confirmPhone })).toHaveProperty('disabled', !draft.phoneProvider)
  for (const [key, name] of Object.entries(RATE_LIMITS)) expect(form().getByLabelText(name)).toHaveValue(draft[key as keyof typeof RATE_LIMITS])
  expect(form().getByLabelText('JWT expiry limit')).toHaveValue(draft.jwtExpiry)
  expect(form().getByLabelText('Minimum password length')).toHaveValue(draft.minPasswordLength)
  expect(form().getByLabelText('Site URL')).toHaveValue(draft.siteUrl)
  expect(form().getByLabelText('Redirect URLs')).toHaveValue(draft.redirectUrls)
}

describe('auth settings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(authSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const get = deferredActor<AuthConfig, { ref: string }>('getAuthConfig')
      const update = deferredActor<AuthConfig, { ref: string; body: UpdateAuthConfigBody }>('updateAuthConfig')
      const actor = runPath(
        createActor(authSettingsMachine.provide({ actors: { getAuthConfig: get.logic, updateAuthConfig: update.logic } }), { input: { ref: REF, canManage: true } }).start(),
      )
      render(<AuthSettings actor={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading auth settings…')
            expect(screen.queryByRole('form')).toBeNull()
            expect(get.pending.map((run) => run.input)).toEqual([{ ref: REF }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load the auth settings')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'ready.editing': (snapshot) => {
            const { draft, saved, saveError, notice } = contextOf(snapshot)
            expectDraft(draft!)
            const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(saved!))
            const invalid = draft!.jwtExpiry === INVALID.jwtExpiry
            expect(form().getByRole('button', { name: 'Save' })).toHaveProperty('disabled', !changed || invalid)
            expect(form().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', !changed)
            if (invalid) expect(form().getByText('Enter a whole number')).toBeInTheDocument()
            if (saveError) expect(form().getByRole('alert')).toHaveTextContent(saveError)
            else expect(form().queryByRole('alert')).toBeNull()
            if (notice) expect(form().getByRole('status')).toHaveTextContent('Auth settings saved')
            else expect(form().queryByRole('status')).toBeNull()
            expect(update.pending).toHaveLength(0)
          },
          'ready.saving': () => {
            expect(form().getByRole('button', { name: 'Saving…' })).toBeDisabled()
            expect(form().getByLabelText('JWT expiry limit')).toHaveAttribute('readonly')
            expect(update.pending.map((run) => run.input)).toEqual([
              {
                ref: REF,
                body: {
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
                },
              },
            ])
          },
        },
        events: {
          'xstate.done.actor.getAuthConfig': async (step) => get.resolve(outputOf<AuthConfig>(step)),
          'xstate.error.actor.getAuthConfig': async (step) => get.reject(errorOf(step)),
          'xstate.after.requestTimeout.authSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            get.pending.splice(0)
          },
          'settings.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'settings.edit': async (step) => {
            const draft = step.event.draft
            // In the order of the page: the phone provider before its confirmations, which it enables.
            for (const [key, name] of Object.entries(SWITCHES) as Array<[keyof typeof SWITCHES, string]>) {
              if (draft[key] !== undefined && draft[key] !== contextOf(actor.getSnapshot()).draft![key]) fireEvent.click(form().getByRole('switch', { name }))
            }
            if (draft.jwtExpiry !== undefined) fireEvent.change(form().getByLabelText('JWT expiry limit'), { target: { value: draft.jwtExpiry } })
            for (const [key, name] of Object.entries(RATE_LIMITS) as Array<[keyof typeof RATE_LIMITS, string]>) {
              if (draft[key] !== undefined) fireEvent.change(form().getByLabelText(name), { target: { value: draft[key] } })
            }
          },
          'settings.save': async () => {
            fireEvent.click(form().getByRole('button', { name: 'Save' }))
          },
          'settings.reset': async () => {
            fireEvent.click(form().getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.updateAuthConfig': async (step) => update.resolve(outputOf<AuthConfig>(step)),
          'xstate.error.actor.updateAuthConfig': async (step) => update.reject(errorOf(step)),
          'xstate.after.requestTimeout.authSettings.ready.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            update.pending.splice(0)
          },
        },
      })
    })
  }

  it('refuses a rate limit that is not a whole number from 1 up, naming the field, and saves nothing', async () => {
    const get = deferredActor<AuthConfig, { ref: string }>('getAuthConfig')
    const update = deferredActor<AuthConfig, { ref: string; body: UpdateAuthConfigBody }>('updateAuthConfig')
    const actor = runPath(
      createActor(authSettingsMachine.provide({ actors: { getAuthConfig: get.logic, updateAuthConfig: update.logic } }), { input: { ref: REF, canManage: true } }).start(),
    )
    render(<AuthSettings actor={actor} />)
    await get.resolve(CONFIG)
    for (const [value, message] of [['0', 'Enter a whole number from 1 to 2,147,483,647'], ['many', 'Enter a whole number']]) {
      fireEvent.change(form().getByLabelText(RATE_LIMITS.rateLimitSms), { target: { value } })
      expect(form().getByLabelText(RATE_LIMITS.rateLimitSms)).toHaveAccessibleDescription(expect.stringContaining(message))
      expect(form().getByRole('button', { name: 'Save' })).toBeDisabled()
    }
    fireEvent.change(form().getByLabelText(RATE_LIMITS.rateLimitSms), { target: { value: '5' } })
    fireEvent.click(form().getByRole('button', { name: 'Save' }))
    expect(update.pending.map((run) => run.input.body.rate_limit_sms_sent)).toEqual([5])
  })

  it('shows a member without project_auth:all the settings read-only, with nothing to save', async () => {
    const get = deferredActor<AuthConfig, { ref: string }>('getAuthConfig')
    const actor = runPath(createActor(authSettingsMachine.provide({ actors: { getAuthConfig: get.logic } }), { input: { ref: REF, canManage: false } }).start())
    render(<AuthSettings actor={actor} />)
    await get.resolve(CONFIG)
    expect(screen.getByText('Your role can see the auth settings but not change them.')).toBeInTheDocument()
    expectDraft(draftOf(CONFIG))
    expect(form().getByRole('switch', { name: 'Allow new users to sign up' })).toBeDisabled()
    expect(form().getByLabelText('Site URL')).toHaveAttribute('readonly')
    expect(form().queryByRole('button', { name: 'Save' })).toBeNull()
    actor.send({ type: 'settings.edit', draft: { allowSignups: false } })
    actor.send({ type: 'settings.save' })
    expect(actor.getSnapshot().context.draft).toEqual(draftOf(CONFIG))
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true)
  })
})
