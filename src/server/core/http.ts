/** Shared pieces of the HTTP layer: the Hono env type, request validation, error answers, routes from descriptors. */
import { zValidator } from '@hono/zod-validator'
import type { Context, ValidationTargets } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { z } from 'zod'
import { routeOf, type Endpoint } from '../../contracts/endpoint'
import { EmptyBody } from '../../contracts/pause'
import type { ServerConfig } from '../config'
import type { AccountRow } from './rows'

export type AppEnv = {
  Variables: {
    account: AccountRow
    /** How this request was authenticated. */
    authVia: 'cookie' | 'bearer'
  }
}

/** Turns zod issues into one readable sentence. Path parameters speak for themselves ('Project ref is required'). */
export function formatIssues(issues: readonly z.core.$ZodIssue[], target: keyof ValidationTargets): string {
  return issues
    .map((issue) => {
      const where = issue.path.map(String).join('.')
      return target === 'param' || !where ? issue.message : `${where}: ${issue.message}`
    })
    .join('; ')
}

/** zod validation of one part of the request; a failure answers 400 `{ message }`. */
export function validate<Target extends keyof ValidationTargets, Schema extends z.core.$ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json({ message: formatIssues(result.error.issues, target) }, 400)
  })
}

/**
 * The method and route pattern of an endpoint descriptor, for `app.on(...at(endpoints.x), ...handlers)`:
 * every path is written once, in src/contracts/endpoints.ts, and the method comes with it.
 */
export function at<E extends Pick<Endpoint, 'method' | 'base' | 'path'>>(endpoint: E): [E['method'], string] {
  return [endpoint.method, routeOf(endpoint)]
}

export function errorJson(c: Context, status: ContentfulStatusCode, message: string, code?: string) {
  return c.json(code ? { message, code } : { message }, status)
}

/**
 * Paths whose answers are the API's (no-store, JSON 404s, JSON-or-no-body writes), not the dashboard's files.
 * `/p` holds each project's own API (`/p/{ref}/rest/v1`): a client library's answers, keys in its requests.
 */
const API_PREFIXES = ['/platform', '/v1', '/dev', '/p'] as const
export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))
}

/**
 * Where this server is reached, for the URLs it hands out (restUrl, the v1 database host, the REST schema's host):
 * PUBLIC_URL, else the address it listens on. Never a request's Host header, which a DNS-rebound page chooses.
 * Until start.ts reports the listening address (an app used through `app.request()` never listens), it is
 * `http://localhost`.
 */
export interface OwnUrl {
  origin: string
}

export function initialOwnUrl(config: Pick<ServerConfig, 'publicUrl'>): OwnUrl {
  return { origin: config.publicUrl ?? 'http://localhost' }
}

/** The origin project URLs are built on. */
export function baseUrl(own: OwnUrl): string {
  return own.origin
}

/** The body of a call that takes none (EmptyBody): empty, or an empty JSON object; anything else is a 400. */
export const emptyBody = createMiddleware(async (c, next) => {
  const text = (await c.req.text()).trim()
  if (text !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return errorJson(c, 400, 'The body must be empty or an empty JSON object')
    }
    const result = EmptyBody.safeParse(parsed)
    if (!result.success) return errorJson(c, 400, formatIssues(result.error.issues, 'json'))
  }
  await next()
})
