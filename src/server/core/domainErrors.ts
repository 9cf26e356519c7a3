/**
 * One HTTP answer for each domain error a feature meets, whatever the feature: a project that is not ACTIVE_HEALTHY,
 * and a project database's failure (its ProjectDbError code). Every feature's catch of these answers through here, so
 * a client reads one status for one cause:
 *   project_not_active     409  the project's services wait until it is ACTIVE_HEALTHY (a paused project: a restore)
 *   database_unavailable   503  the project's database cannot be used now (the project is not up, or it cannot open)
 *   database_busy          503  every open-database slot is held by others past the wait bound; Retry-After says when
 *   any other code         500  the platform's own work on the database failed (a time-out, a Postgres error …)
 * Where the failure is the caller's own query (the SQL editor, the project's REST API), its SQLSTATE and its time-out
 * are that query's result and the feature answers them; unavailable and busy are still answered with these statuses.
 * The bodies keep the shape clients parse (ErrorBody: { message, code }; the REST API's its own).
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorJson } from './http'

export const DOMAIN_ERROR_STATUS = {
  project_not_active: 409,
  database_unavailable: 503,
  database_busy: 503,
  /** Any other code of a project database's failure. */
  database_failed: 500,
} as const satisfies Record<string, ContentfulStatusCode>

/** A project database's failure as the features catch it (a ProjectDbError's fields). */
export interface DatabaseFailure {
  code: string
  message: string
  /** 'database_busy': seconds after which a retry may find a slot. */
  retryAfterSeconds?: number
}

/** The status a project database's failure answers with (see the table above). */
export function databaseFailureStatus(code: string): ContentfulStatusCode {
  if (code === 'database_unavailable') return DOMAIN_ERROR_STATUS.database_unavailable
  if (code === 'database_busy') return DOMAIN_ERROR_STATUS.database_busy
  return DOMAIN_ERROR_STATUS.database_failed
}

/**
 * The answer to a project database's failure: `${what}: ${message}` with its code. A busy database answers the same
 * wherever it is met (also for the app-wide error handler): its own words and the Retry-After a client waits for.
 */
export function answerDatabaseFailure(c: Context, err: DatabaseFailure, what: string): Response {
  if (err.code === 'database_busy') {
    c.header('Retry-After', String(err.retryAfterSeconds ?? 1))
    return errorJson(c, DOMAIN_ERROR_STATUS.database_busy, `The project's database is busy: ${err.message}`, err.code)
  }
  return errorJson(c, databaseFailureStatus(err.code), `${what}: ${err.message}`, err.code)
}

/**
 * The answer to a request that needs the project up while it is `status`. `what` names what waits, in the words
 * of a paused project (`restoreTo`: "restore it to use its database") and of any other (`onceActive`).
 */
export function answerNotActive(c: Context, status: string, what: { restoreTo: string; onceActive: string }): Response {
  const why = status === 'INACTIVE' ? `is paused: restore it to ${what.restoreTo}` : `is ${status}: ${what.onceActive} once it is ACTIVE_HEALTHY`
  return errorJson(c, DOMAIN_ERROR_STATUS.project_not_active, `The project ${why}`, 'project_not_active')
}
