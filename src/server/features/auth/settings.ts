/**
 * A project's auth settings, kept in the platform's store (project_auth_settings; no row: the defaults; store.ts
 * reads and writes them). Read on every request, so a saved change applies at once.
 */
export interface AuthSettings {
  site_url: string
  /** Allowed redirect URLs, comma-separated, each possibly with `*` / `**` wildcards, as the platform stores them. */
  uri_allow_list: string
  disable_signup: boolean
  mailer_autoconfirm: boolean
  jwt_exp: number
  password_min_length: number
  rate_limit_verify: number
  rate_limit_token_refresh: number
  rate_limit_otp: number
  rate_limit_email_sent: number
  /** Refuse passwords found in breaches (leaked.ts says which). */
  password_hibp_enabled: boolean
  /** Sign-up and sign-in by phone (codes sent as text messages to the local mailbox: there is no SMS provider here). */
  external_phone_enabled: boolean
  /** Phone sign-ups get a session at once, without a code. */
  sms_autoconfirm: boolean
  /** Per project and hour: text messages sent. */
  rate_limit_sms_sent: number
}

export const AUTH_DEFAULTS: AuthSettings = {
  site_url: 'http://localhost:3000',
  uri_allow_list: '',
  disable_signup: false,
  mailer_autoconfirm: false,
  jwt_exp: 3600,
  password_min_length: 6,
  rate_limit_verify: 30,
  rate_limit_token_refresh: 150,
  rate_limit_otp: 30,
  rate_limit_email_sent: 30,
  password_hibp_enabled: false,
  external_phone_enabled: false,
  sms_autoconfirm: false,
  rate_limit_sms_sent: 30,
}

export const SETTING_COLUMNS = Object.keys(AUTH_DEFAULTS) as (keyof AuthSettings)[]

function wildcard(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')
  return new RegExp(`^${escaped}$`)
}

/**
 * Where a flow may send the browser back to: the redirect URL asked for when the Site URL's origin or an allowed
 * redirect URL matches it, else the Site URL (an URL not allowed is never followed).
 */
export function redirectTarget(settings: AuthSettings, asked: string | undefined | null): string {
  if (!asked) return settings.site_url
  let url: URL
  try {
    url = new URL(asked)
  } catch {
    return settings.site_url
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return settings.site_url
  try {
    if (new URL(settings.site_url).origin === url.origin) return asked
  } catch {
    // a Site URL that is not an URL matches nothing
  }
  const allowed = settings.uri_allow_list.split(',').map((s) => s.trim()).filter(Boolean)
  return allowed.some((pattern) => wildcard(pattern).test(asked)) ? asked : settings.site_url
}
