/**
 * What the server's logs must never print: JWTs (the projects' API keys are JWTs, and so are the tokens signed with
 * their secrets) and personal access tokens, wherever they appear in a logged path, query or message; and the values
 * of query parameters whose names say they hold a secret.
 */

export const REDACTED = '[redacted]'

/** A dot as it may appear in a path or query: plain or percent-encoded. */
const DOT = String.raw`(?:\.|%2[Ee])`
const B64URL = '[A-Za-z0-9_-]'
/**
 * A JWT: three base64url segments. One whose header is JSON (`eyJ`, as every JWT's is) may have an empty signature
 * (alg none); any other run of three long segments is taken for one too, since a token's shape is all a log can see.
 */
const JWT = new RegExp(
  `eyJ${B64URL}*${DOT}${B64URL}+${DOT}${B64URL}*|${B64URL}{10,}${DOT}${B64URL}{10,}${DOT}${B64URL}{10,}`,
  'g',
)
/** The platform's personal access tokens (core/secrets.ts). */
const ACCESS_TOKEN = /(?:sbp_|kpat_)[0-9a-f]{40}/g

/** The text with every JWT- or access-token-shaped value replaced by [redacted]. */
export function redactSecrets(text: string): string {
  return text.replace(JWT, REDACTED).replace(ACCESS_TOKEN, REDACTED)
}

/** A query parameter whose name says its value is a secret (case-insensitive): apikey, access_token, x-auth … */
const SECRET_NAME = /key|token|secret|password|auth|signature|jwt/i
export const isSecretName = (name: string) => SECRET_NAME.test(name)
