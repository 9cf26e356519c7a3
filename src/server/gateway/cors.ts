/**
 * CORS of every project's API: any origin (its callers are browser apps on their own origins; the keys, not cookies,
 * authorize, so there is nothing a foreign page could ride on), the headers the platform's client libraries send,
 * and the answer headers they read. Mounted app-wide before the guards, so that their refusals carry it too.
 * An edge function answers its own preflight, as on the platform: its OPTIONS requests pass through.
 */
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import type { AppEnv } from '../core/http'

const gatewayCors = cors({
  origin: '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: [
    'apikey',
    'authorization',
    'content-type',
    'prefer',
    'range',
    'range-unit',
    'x-client-info',
    'accept-profile',
    'content-profile',
    'x-supabase-api-version',
    'x-upsert',
    'cache-control',
    'x-region',
  ],
  exposeHeaders: [
    'Content-Range',
    'Content-Location',
    'Location',
    'Preference-Applied',
    'Range-Unit',
    'Retry-After',
    'Content-Length',
    'Content-Disposition',
    'ETag',
    'X-Total-Count',
    'Link',
  ],
  maxAge: 86_400,
})

const FUNCTIONS = /^\/p\/[^/]+\/functions\/v1(\/|$)/

export const projectCors: MiddlewareHandler<AppEnv> = (c, next) =>
  FUNCTIONS.test(c.req.path) ? next() : gatewayCors(c, next)
