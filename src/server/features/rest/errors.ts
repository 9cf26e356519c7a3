/**
 * Errors of the REST endpoint in PostgREST's shape `{ code, message, details, hint }`: its own PGRST codes for what
 * it refuses itself, and Postgres SQLSTATE codes passed through with PostgREST's mapping to HTTP statuses.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ProjectDbError, type DbRole } from '../../projectdb/types'
import { databaseFailureStatus } from '../../core/domainErrors'

export interface RestErrorBody {
  code: string
  message: string
  details: string | null
  hint: string | null
}

export class RestError extends Error {
  readonly status: ContentfulStatusCode
  readonly code: string
  readonly details: string | null
  readonly hint: string | null
  /** Extra answer headers (WWW-Authenticate on 401s). */
  readonly headers: Record<string, string>
  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    opts: { details?: string | null; hint?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.name = 'RestError'
    this.status = status
    this.code = code
    this.details = opts.details ?? null
    this.hint = opts.hint ?? null
    this.headers = opts.headers ?? {}
  }

  body(): RestErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint }
  }
}

/** PGRST100: a query parameter the parser cannot read (a bad filter, select, order, limit…). */
export const parseError = (message: string, details?: string, hint?: string) =>
  new RestError(400, 'PGRST100', message, { details, hint })

/** PostgREST's table from SQLSTATE to HTTP status (its "other" row: 400). */
export function statusForSqlState(code: string, role: DbRole): ContentfulStatusCode {
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === '42P17' || code === '53400') return 500
  if (code === 'P0001') return 400
  const cls = code.slice(0, 2)
  if (cls === '08' || cls === '53') return 503
  if (cls === '0L' || cls === '0P' || cls === '28') return 403
  if (cls === '54') return 413
  if (['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(cls)) return 500
  return 400
}

/**
 * Any failure of a request's transaction as a RestError: ours as they are, a Postgres error with its SQLSTATE,
 * message, detail and hint (never a stack), a time-out as 504 and an unavailable database as 503.
 */
export function toRestError(err: unknown, role: DbRole): RestError {
  if (err instanceof RestError) return err
  if (err instanceof ProjectDbError || isPgError(err)) {
    const e = err as { code: string; message: string; detail?: string; hint?: string }
    if (e.code === 'query_timeout') {
      return new RestError(504, '57014', 'canceling statement due to statement timeout', { hint: e.hint })
    }
    if (e.code === 'database_unavailable') return new RestError(databaseFailureStatus(e.code), 'PGRST001', e.message, { hint: e.hint })
    if (e.code === 'database_busy') {
      // PostgREST's PGRST003 (no connection from its pool in time), as a 503 that says when to come back.
      const retry = String((err as ProjectDbError).retryAfterSeconds ?? 1)
      return new RestError(databaseFailureStatus(e.code), 'PGRST003', 'Timed out acquiring connection from connection pool.', {
        details: e.message,
        hint: e.hint,
        headers: { 'retry-after': retry },
      })
    }
    return new RestError(statusForSqlState(e.code, role), e.code, e.message, { details: e.detail, hint: e.hint })
  }
  throw err
}

/** A driver's error carrying a five-character SQLSTATE (PGlite's and pg's errors, before a wrapper names them). */
function isPgError(err: unknown): boolean {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}
