/** The app-wide layers around every feature: request log, development latency, unknown API paths, errors. */
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ProjectDbError } from '../projectdb/types'
import { errorJson, isApiPath, type AppEnv } from './http'
import { redactSecrets } from './redact'
import { answerDatabaseFailure } from './domainErrors'

/**
 * LOG_REQUESTS=1: method, path and status only; never headers, cookies, query strings or bodies, and a JWT or token
 * in the path (a link's token, a key pasted in a URL) is masked.
 */
export const logRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now()
  await next()
  console.log(`${c.req.method} ${redactSecrets(c.req.path)} ${c.res.status} ${Math.round(performance.now() - started)}ms`)
}

/** The latency development control: /platform and /v1 answers wait `latency.ms` (health never does). */
export function addedLatency(latency: { ms: number }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (latency.ms > 0 && c.req.path !== '/platform/health') {
      await new Promise((resolve) => setTimeout(resolve, latency.ms))
    }
    await next()
  }
}

/** An unknown API path answers 404 JSON; anything else (the dashboard's own 404) plain text. */
export const notFound: NotFoundHandler<AppEnv> = (c) =>
  isApiPath(c.req.path) ? errorJson(c, 404, `No route ${c.req.method} ${c.req.path}`) : c.text('Not found', 404)

export const onError: ErrorHandler<AppEnv> = (err, c: Context<AppEnv>) => {
  if (err instanceof ProjectDbError && err.code === 'database_busy') {
    // Every open-database slot is held by other projects past the wait bound: a retry later finds one.
    return answerDatabaseFailure(c, err, "The project's database is busy")
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (e.g. malformed JSON body) answered as JSON like every other error.
    return errorJson(c, err.status, err.message || 'Bad request')
  }
  // The message and stack only: never the request's headers or body; a token in the path or the message is masked.
  const what = err instanceof Error ? (err.stack ?? err.message) : String(err)
  console.error(`${c.req.method} ${redactSecrets(c.req.path)} failed: ${redactSecrets(what)}`)
  return errorJson(c, 500, 'Internal server error')
}
