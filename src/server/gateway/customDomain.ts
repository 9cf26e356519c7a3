/**
 * A project's API under its custom domain, once the domain is active (status 5_services_reconfigured, as the
 * Management API's custom-hostname endpoints report it): `{custom domain}/{product}/v1/…` is served exactly as
 * `{origin}/p/{ref}/{product}/v1/…`, with the same gateway, keys and metering, as the platform serves a project's
 * API on both its own URL and its custom domain. A domain that is not active, or claimed by more than one project,
 * is not served (the Host check answers 421); on an active one, anything but a product's path is a 404 in the shape
 * the platform's API gateway uses, so the dashboard and the platform's own API are never reached through it.
 *
 * The request is handed to the app again under its `/p/{ref}` path, without the custom Host, so every guard runs
 * once on it as on any project request. The platform's own hosts never pay for the lookup.
 */
import type { MiddlewareHandler } from 'hono'
import type { ServerConfig } from '../config'
import type { Queryable } from '../db'
import type { OwnUrl } from '../core/http'
import { hostAllowed, splitHost } from '../core/guards'

export const ACTIVE_HOSTNAME_STATUS = '5_services_reconfigured'

/**
 * Marks a request handed on from a custom domain, with the domain's origin: a key of the inner request's env, so only
 * this middleware can set it (a header could be sent by anyone). The gateway reads it (`reachedAt`), so an answer
 * that names a URL of the API (a resumable upload's Location) names the one the client used.
 */
export const VIA_CUSTOM_DOMAIN = Symbol('via custom domain')

/** The ref of the one project whose active custom domain is `hostname`, if exactly one claims it. */
export async function projectOfCustomDomain(db: Queryable, hostname: string): Promise<string | undefined> {
  const { rows } = await db.query<{ ref: string }>(
    `select p.ref from project_custom_hostnames h join projects p on p.id = h.project_id
      where lower(h.hostname) = $1 and h.status = $2 limit 2`,
    [hostname, ACTIVE_HOSTNAME_STATUS],
  )
  return rows.length === 1 ? rows[0].ref : undefined
}

/**
 * The origin a project's API has under its custom domain: the platform's own scheme and port (what terminates TLS
 * for the platform's URL does for the domain too).
 */
export function customDomainOrigin(own: OwnUrl, hostname: string): string {
  const url = new URL(own.origin)
  return `${url.protocol}//${hostname}${url.port ? `:${url.port}` : ''}`
}

export function customDomains(
  deps: { db: Queryable; config: Pick<ServerConfig, 'publicUrl' | 'allowedHosts' | 'host'>; ownUrl: OwnUrl },
  productNames: readonly string[],
  dispatch: (request: Request, env: unknown) => Response | Promise<Response>,
): MiddlewareHandler {
  const ownHost = hostAllowed(deps.config)
  const productPath = new RegExp(`^/(?:${productNames.map((n) => n.replace(/[^a-z0-9-]/g, '')).join('|')})/v1(?:/|$)`)
  return async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host
    if (ownHost(host)) return next()
    const hostname = splitHost(host)?.hostname
    const ref = hostname ? await projectOfCustomDomain(deps.db, hostname) : undefined
    if (!ref) return next()
    const url = new URL(c.req.url)
    if (!productPath.test(url.pathname)) return c.json({ message: 'no Route matched with those values' }, 404)
    const headers = new Headers(c.req.raw.headers)
    // Without a Host, the inner request's URL (the platform's own) is its host.
    headers.delete('host')
    const method = c.req.method
    const inner = new Request(new URL(`/p/${ref}${url.pathname}${url.search}`, deps.ownUrl.origin), {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : c.req.raw.body,
      signal: c.req.raw.signal,
      // A streamed body (Node's fetch asks for it to be said).
      ...({ duplex: 'half' } as object),
    })
    // The env is passed on: Node's request in it gives the client's address (throttles) and the socket's body and
    // raw path (storage reads object keys from it undecoded), and a WebSocket upgrade's socket travels in it. Its
    // raw path becomes the inner one, as a mounted app's is (Express does the same).
    const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming
    if (incoming?.url?.startsWith('/')) incoming.url = `/p/${ref}${incoming.url}`
    return dispatch(inner, { ...(c.env as object), [VIA_CUSTOM_DOMAIN]: customDomainOrigin(deps.ownUrl, hostname!) })
  }
}
