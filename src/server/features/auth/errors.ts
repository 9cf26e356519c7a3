/**
 * The auth service's refusals in the platform's shape, `{ code, error_code, msg }` (code: the HTTP status), which
 * auth-js reads as `error.code` (its error_code) and `error.message` (msg). No secret ever goes into a message.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export class AuthApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errorCode: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AuthApiError'
  }
}

export const authError = (status: ContentfulStatusCode, errorCode: string, message: string, headers?: Record<string, string>) =>
  new AuthApiError(status, errorCode, message, headers)

export function authErrorResponse(c: Context, err: AuthApiError): Response {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
  return c.json({ code: err.status, error_code: err.errorCode, msg: err.message }, err.status)
}

export const invalidCredentials = () => authError(400, 'invalid_credentials', 'Invalid login credentials')
export const otpInvalid = () => authError(403, 'otp_expired', 'Token has expired or is invalid')
export const notAdmin = () => authError(403, 'not_admin', 'User not allowed')
export const noAuthorization = () =>
  authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
