/**
 * Settings › Authentication: the project's auth settings the service obeys (Site URL, redirect URLs, 'Allow new users
 * to sign up', 'Confirm email', JWT expiry, minimum password length, the leaked-password rule, the phone provider and
 * its confirmations, the rate limits), read from and saved through the Management API's config/auth. Invariants: one request at a time; only a member who may manage auth (input.canManage) edits
 * or saves — the others see the settings read-only, and the server refuses them too; what was typed survives a
 * failed save; a request unanswered after requestTimeout is abandoned and reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { UpdateAuthConfigBody, type AuthConfig } from '../src/contracts/auth'

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

interface Context {
  ref: string
  canManage: boolean
  saved: AuthConfig | null
  draft: AuthSettingsDraft | null
  loadError: string | null
  saveError: string | null
  notice: string | null
}

type AuthSettingsEvent =
  | { type: 'settings.retry' }
  | { type: 'settings.edit'; draft: Partial<AuthSettingsDraft> }
  | { type: 'settings.save' }
  | { type: 'settings.reset' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const authSettingsMachine = setup({
  types: {
    input: {} as { ref: string; canManage: boolean },
    context: {} as Context,
    events: {} as AuthSettingsEvent,
    children: {} as { getAuthConfig: 'getAuthConfig'; updateAuthConfig: 'updateAuthConfig' },
  },
  actors: {
    getAuthConfig: fromPromise<AuthConfig, { ref: string }>(async () => {
      throw new Error('getAuthConfig not provided')
    }),
    updateAuthConfig: fromPromise<AuthConfig, { ref: string; body: UpdateAuthConfigBody }>(async () => {
      throw new Error('updateAuthConfig not provided')
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
  id: 'authSettings',
  context: ({ input }) => ({ ref: input.ref, canManage: input.canManage, saved: null, draft: null, loadError: null, saveError: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'getAuthConfig',
        src: 'getAuthConfig',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ saved: event.output, draft: draftOf(event.output), loadError: null })) },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load the auth settings') }) } },
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
              actions: assign(({ context, event }) => ({ draft: { ...context.draft!, ...event.draft }, notice: null, saveError: null })),
            },
            'settings.save': { guard: 'isChangedAndValid', target: 'saving', actions: assign({ saveError: null, notice: null }) },
            'settings.reset': { guard: 'isChanged', actions: assign(({ context }) => ({ draft: draftOf(context.saved!), saveError: null })) },
          },
        },
        saving: {
          invoke: {
            id: 'updateAuthConfig',
            src: 'updateAuthConfig',
            input: ({ context }) => {
              const made = patchOf(context.draft!)
              return { ref: context.ref, body: made.ok ? made.body : {} }
            },
            onDone: { target: 'editing', actions: assign(({ event }) => ({ saved: event.output, draft: draftOf(event.output), notice: 'Auth settings saved' })) },
            onError: { target: 'editing', actions: { type: 'storeSaveError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save the auth settings') }) } },
          },
          after: { requestTimeout: { target: 'editing', actions: { type: 'storeSaveError', params: { error: TIMED_OUT } } } },
        },
      },
    },
  },
})

function isChanged(saved: AuthConfig, draft: AuthSettingsDraft) {
  const before = draftOf(saved)
  return (Object.keys(before) as Array<keyof AuthSettingsDraft>).some((key) => before[key] !== draft[key])
}

export type AuthSettingsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'ready'; canManage: boolean; draft: AuthSettingsDraft; errors: SettingsErrors; changed: boolean; saving: boolean; error: string | null; notice: string | null }

export function selectAuthSettingsView(snapshot: SnapshotFrom<typeof authSettingsMachine>): AuthSettingsView {
  const c = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || !c.draft || !c.saved) return { phase: 'failed', error: c.loadError ?? 'Failed to load the auth settings' }
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
