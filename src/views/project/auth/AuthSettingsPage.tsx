import { useId } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectAuthSettingsView, type AuthSettingsDraft, type authSettingsMachine } from '../../../../machines/authSettings.machine'

type SwitchKey = { [K in keyof AuthSettingsDraft]: AuthSettingsDraft[K] extends boolean ? K : never }[keyof AuthSettingsDraft]
type RateLimitKey = 'rateLimitEmails' | 'rateLimitSms' | 'rateLimitSignIns' | 'rateLimitOtp' | 'rateLimitRefresh'

/** The rate limits as the page words them, each with what it counts. */
const RATE_LIMITS: Array<[RateLimitKey, string, string]> = [
  ['rateLimitEmails', 'Rate limit for sending emails', 'E-mails the project may send per hour.'],
  ['rateLimitSms', 'Rate limit for sending SMS messages', 'Text messages the project may send per hour.'],
  ['rateLimitSignIns', 'Rate limit for sign-ups and sign-ins', 'Sign-ups and password sign-ins per 5 minutes from one IP address.'],
  ['rateLimitOtp', 'Rate limit for token verifications', 'Requests for a magic link or code, and their verifications, per 5 minutes from one IP address.'],
  ['rateLimitRefresh', 'Rate limit for token refreshes', 'Session refreshes per 5 minutes from one IP address.'],
]
import { Field, fieldAria } from '../../shell/Field'
import { useAppLogic } from '../../shell/logic'
import { Card, inputClass } from '../../shell/ui'
import { SettingSwitch, SettingsForm, useSettingsForm, type SettingsFormTexts } from '../SettingsForm'
import { AuthMachinePage } from './AuthMachinePage'

export type AuthSettingsActorRef = ActorRefFrom<typeof authSettingsMachine>

const HEADING = { title: 'Auth settings', description: 'How the project’s users sign up and sign in, and where their e-mail links lead.' }

/** /project/{ref}/settings/auth */
export function AuthSettingsPage() {
  const logic = useAppLogic()
  return (
    <AuthMachinePage
      machine={logic.authSettings}
      heading={HEADING}
      loadingLabel="Loading auth settings…"
      input={(ref, canManage) => ({ ref, canManage })}
      render={(actor) => <AuthSettings actor={actor} />}
    />
  )
}

const TEXTS: SettingsFormTexts = {
  heading: HEADING,
  loading: 'Loading auth settings…',
  loadFailed: 'Failed to load the auth settings',
  form: 'Auth settings',
  readOnly: 'Your role can see the auth settings but not change them.',
}

export function AuthSettings({ actor }: { actor: AuthSettingsActorRef }) {
  const { edit, ...form } = useSettingsForm(actor, selectAuthSettingsView)
  const id = useId()
  return (
    <SettingsForm {...form} texts={TEXTS}>
      {({ draft, errors }, readOnly) => {
        const toggle = (key: SwitchKey, label: string, hint: string, disabled = false) => (
          <SettingSwitch id={`${id}-${key}`} label={label} hint={hint} checked={draft[key]} disabled={readOnly || disabled} onChange={(checked) => edit({ [key]: checked })} />
        )
        return (
          <>
            <Card className="space-y-5 p-5">
              <h2 className="text-base font-semibold">User signups</h2>
              {toggle('allowSignups', 'Allow new users to sign up', 'If this is disabled, new users will not be able to sign up to your application.')}
              {toggle('confirmEmail', 'Confirm email', 'Users will need to confirm their email address before signing in for the first time.')}
              <Field id={`${id}-minpw`} label="Minimum password length" hint="Passwords shorter than this are refused (6 to 72 characters)." error={errors.minPasswordLength}>
                <input {...fieldAria(`${id}-minpw`, { hint: true, error: errors.minPasswordLength })} inputMode="numeric" className={inputClass} value={draft.minPasswordLength} readOnly={readOnly} onChange={(e) => edit({ minPasswordLength: e.target.value })} />
              </Field>
              <Field id={`${id}-jwt`} label="JWT expiry limit" hint="How long access tokens are valid for, in seconds (at least 30, at most 604,800 — one week)." error={errors.jwtExpiry}>
                <input {...fieldAria(`${id}-jwt`, { hint: true, error: errors.jwtExpiry })} inputMode="numeric" className={inputClass} value={draft.jwtExpiry} readOnly={readOnly} onChange={(e) => edit({ jwtExpiry: e.target.value })} />
              </Field>
              {toggle('preventLeakedPasswords', 'Prevent use of leaked passwords', 'New passwords found among commonly breached passwords are refused (checked on this server against a list of about 49,000).')}
            </Card>
            <Card className="space-y-5 p-5">
              <h2 className="text-base font-semibold">Phone provider</h2>
              {toggle('phoneProvider', 'Enable Phone provider', 'Users can sign up and sign in with a phone number and a code sent by text message. Text messages land in Authentication › Emails: no SMS provider is connected.')}
              {toggle('confirmPhone', 'Enable phone confirmations', 'Users will need to confirm a new phone number with the code sent to it before it is theirs.', !draft.phoneProvider)}
            </Card>
            <Card className="space-y-5 p-5">
              <h2 className="text-base font-semibold">Rate limits</h2>
              {RATE_LIMITS.map(([key, label, hint]) => (
                <Field key={key} id={`${id}-${key}`} label={label} hint={hint} error={errors[key]}>
                  <input {...fieldAria(`${id}-${key}`, { hint: true, error: errors[key] })} inputMode="numeric" className={inputClass} value={draft[key]} readOnly={readOnly} onChange={(e) => edit({ [key]: e.target.value })} />
                </Field>
              ))}
            </Card>
            <Card className="space-y-5 p-5">
              <h2 className="text-base font-semibold">URL Configuration</h2>
              <Field id={`${id}-site`} label="Site URL" hint="The default URL e-mail links send your users back to." error={errors.siteUrl}>
                <input {...fieldAria(`${id}-site`, { hint: true, error: errors.siteUrl })} type="url" className={inputClass} value={draft.siteUrl} readOnly={readOnly} onChange={(e) => edit({ siteUrl: e.target.value })} />
              </Field>
              <Field id={`${id}-redirects`} label="Redirect URLs" hint="Other URLs a link may send users back to, one per line; * matches within a path segment, ** across segments." error={errors.redirectUrls}>
                <textarea {...fieldAria(`${id}-redirects`, { hint: true, error: errors.redirectUrls })} rows={4} className={inputClass} value={draft.redirectUrls} readOnly={readOnly} onChange={(e) => edit({ redirectUrls: e.target.value })} />
              </Field>
            </Card>
          </>
        )
      }}
    </SettingsForm>
  )
}
