/** Fixtures of the Authentication pages: a project's auth settings as `GET /v1/projects/{ref}/config/auth` answers them. */
import type { AuthConfig } from '../src/contracts/auth'

/** The platform's defaults for a new project. */
export const AUTH_CONFIG: AuthConfig = {
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
