/**
 * Settings › Authentication: the project's auth settings the service obeys (Site URL, redirect URLs, 'Allow new users
 * to sign up', 'Confirm email', JWT expiry, minimum password length, the leaked-password rule, the phone provider and
 * its confirmations, the rate limits), read from and saved through the Management API's config/auth. The flow is the
 * settings form (settingsForm.machine.ts); this file describes its draft and patch. Only a member who may manage
 * auth edits or saves.
 */
import { UpdateAuthConfigBody, type AuthConfig } from '../src/contracts/auth'
import { settingsFormMachine, settingsFormView, type SettingsFormDescription, type SettingsFormView } from './settingsForm.machine'

/** The form as typed: switches as the page words them, numbers as text. */
export interface AuthSettingsDraft {
  siteUrl: string
  /** One URL per line. */
  redirectUrls: string
  allowSignups: boolean
  confirmEmail: boolean
  jwtExpiry: string
  minPasswordLength: string
  /** password_hibp_enabled */
  preventLeakedPasswords: boolean
  /** external_phone_enabled */
  phoneProvider: boolean
  /** !sms_autoconfirm: a phone sign-up or change waits for its code. */
  confirmPhone: boolean
  /** rate_limit_email_sent: per hour, for the project. */
  rateLimitEmails: string
  /** rate_limit_sms_sent: per hour, for the project. */
  rateLimitSms: string
  /** rate_limit_verify: sign-ups and password sign-ins per 5 minutes and address. */
  rateLimitSignIns: string
  /** rate_limit_otp: code and link requests and verifications per 5 minutes and address. */
  rateLimitOtp: string
  /** rate_limit_token_refresh: per 5 minutes and address. */
  rateLimitRefresh: string
}

/** The rate limits of the form, each with the contract's field. */
export const RATE_LIMIT_FIELDS = {
  rateLimitEmails: 'rate_limit_email_sent',
  rateLimitSms: 'rate_limit_sms_sent',
  rateLimitSignIns: 'rate_limit_verify',
  rateLimitOtp: 'rate_limit_otp',
  rateLimitRefresh: 'rate_limit_token_refresh',
} as const satisfies Partial<Record<keyof AuthSettingsDraft, keyof AuthConfig>>
type RateLimitKey = keyof typeof RATE_LIMIT_FIELDS
const RATE_LIMIT_KEYS = Object.keys(RATE_LIMIT_FIELDS) as RateLimitKey[]
/** The platform's defaults, for a config that does not say. */
const RATE_LIMIT_DEFAULTS: Record<RateLimitKey, number> = { rateLimitEmails: 30, rateLimitSms: 30, rateLimitSignIns: 30, rateLimitOtp: 30, rateLimitRefresh: 150 }

export function draftOf(config: AuthConfig): AuthSettingsDraft {
  return {
    siteUrl: config.site_url ?? '',
    redirectUrls: (config.uri_allow_list ?? '').split(',').map((u) => u.trim()).filter(Boolean).join('\n'),
    allowSignups: !(config.disable_signup ?? false),
    confirmEmail: !(config.mailer_autoconfirm ?? false),
    jwtExpiry: String(config.jwt_exp ?? 3600),
    minPasswordLength: String(config.password_min_length ?? 6),
    preventLeakedPasswords: config.password_hibp_enabled ?? false,
    phoneProvider: config.external_phone_enabled ?? false,
    confirmPhone: !(config.sms_autoconfirm ?? false),
    ...(Object.fromEntries(RATE_LIMIT_KEYS.map((key) => [key, String(config[RATE_LIMIT_FIELDS[key]] ?? RATE_LIMIT_DEFAULTS[key])])) as Record<RateLimitKey, string>),
  }
}

const FIELD_OF: Record<string, keyof AuthSettingsDraft> = {
  site_url: 'siteUrl',
  uri_allow_list: 'redirectUrls',
  jwt_exp: 'jwtExpiry',
  password_min_length: 'minPasswordLength',
  ...Object.fromEntries(RATE_LIMIT_KEYS.map((key) => [RATE_LIMIT_FIELDS[key], key])),
}
const NUMBER_FIELDS = new Set<keyof AuthSettingsDraft>(['jwtExpiry', 'minPasswordLength', ...RATE_LIMIT_KEYS])
export type SettingsErrors = Partial<Record<keyof AuthSettingsDraft, string>>

const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN)

/** The PATCH body a draft makes, or what is wrong with it (the contract's bounds, so the server would refuse it too). */
export function patchOf(draft: AuthSettingsDraft): { ok: true; body: UpdateAuthConfigBody } | { ok: false; errors: SettingsErrors } {
  const body = {
    site_url: draft.siteUrl.trim(),
    uri_allow_list: draft.redirectUrls.split('\n').map((u) => u.trim()).filter(Boolean).join(','),
    disable_signup: !draft.allowSignups,
    mailer_autoconfirm: !draft.confirmEmail,
    jwt_exp: wholeNumber(draft.jwtExpiry),
    password_min_length: wholeNumber(draft.minPasswordLength),
    password_hibp_enabled: draft.preventLeakedPasswords,
    external_phone_enabled: draft.phoneProvider,
    sms_autoconfirm: !draft.confirmPhone,
    ...(Object.fromEntries(RATE_LIMIT_KEYS.map((key) => [RATE_LIMIT_FIELDS[key], wholeNumber(draft[key])])) as Record<(typeof RATE_LIMIT_FIELDS)[RateLimitKey], number>),
  }
  const parsed = UpdateAuthConfigBody.safeParse(body)
  if (parsed.success) return { ok: true, body: parsed.data }
  const errors: SettingsErrors = {}
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0])]
    if (!field) continue
    const value = body[issue.path[0] as keyof typeof body]
    errors[field] ??= !NUMBER_FIELDS.has(field)
      ? issue.message
      : Number.isNaN(value)
        ? 'Enter a whole number'
        : field in RATE_LIMIT_FIELDS
          ? 'Enter a whole number from 1 to 2,147,483,647'
          : issue.message
  }
  return { ok: false, errors }
}

/** A change to the draft: the fields typed or switched. */
export type AuthSettingsChange = Partial<AuthSettingsDraft>

function isChanged(saved: AuthConfig, draft: AuthSettingsDraft) {
  const before = draftOf(saved)
  return (Object.keys(before) as Array<keyof AuthSettingsDraft>).some((key) => before[key] !== draft[key])
}

const description = {
  id: 'authSettings',
  load: 'getAuthConfig',
  save: 'updateAuthConfig',
  texts: { loadFailed: 'Failed to load the auth settings', saveFailed: 'Failed to save the auth settings', saved: 'Auth settings saved' },
  draftOf,
  applied: (draft, change) => ({ ...draft, ...change }),
  patchOf,
  isChanged,
} satisfies SettingsFormDescription<AuthConfig, AuthSettingsDraft, AuthSettingsChange, UpdateAuthConfigBody, keyof AuthSettingsDraft, 'authSettings', 'getAuthConfig', 'updateAuthConfig'>

export const authSettingsMachine = settingsFormMachine(description)

export type AuthSettingsView = SettingsFormView<AuthSettingsDraft, keyof AuthSettingsDraft>

export const selectAuthSettingsView = settingsFormView(description)
