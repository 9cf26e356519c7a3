/**
 * The one gateway in front of every project's API, `{origin}/p/{ref}/{product}/v1/…` (the role Kong plays on the
 * platform). For each request it resolves the project once, refuses one that is unknown (404) or not serving
 * (503: not ACTIVE_HEALTHY, or its API server put OFFLINE for a product the API server serves), verifies the `apikey` / `Authorization` JWT against the
 * project's current secret (identity.ts), meters the request for the usage pages and the request log, and then hands
 * over to the product's sub-app with `c.var.gateway` set. CORS for browser apps on any origin is mounted app-wide
 * before the guards (cors.ts) so that refusals carry it too. No product verifies keys on its own: a product only
 * says whether a request without any key may reach it (`keys: 'optional'`: a public storage object, a function that
 * does not verify JWTs) and how a refusal is worded in its own error shape.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { ProjectRef } from '../../contracts/common'
import type { Deps } from '../core/deps'
import { baseUrl, type AppEnv } from '../core/http'
import type { UsageMeter } from '../core/meter'
import type { ProjectTx, TransactionOptions } from '../projectdb/types'
import { ACTIVE_HOSTNAME_STATUS, customDomainOrigin, VIA_CUSTOM_DOMAIN } from './customDomain'
import { credentialsOf, GatewayRefusal, identify, VerifiedTokens, type Caller } from './identity'

export { credentialsOf, GatewayRefusal, identify, VerifiedTokens, type Caller, type RefusalReason } from './identity'

export interface GatewayProject {
  id: number
  ref: string
  /** The project's current JWT secret; undefined while it has none (still being set up). */
  jwtSecret: string | undefined
}

export interface GatewayContext {
  project: GatewayProject
  /** Who is calling; undefined only on a product with `keys: 'optional'` when no credential was sent. */
  caller: Caller | undefined
  /** The project URL client libraries take as their base: `{origin}/p/{ref}`. */
  projectUrl: string
  /** The project's API under its active custom domain (`{scheme}://{domain}[:port]`), when it has one (customDomain.ts). */
  customDomainUrl: string | undefined
  /**
   * The base the client reached the API at: the custom domain's origin when the request came through it, else the
   * project URL. A URL the client is to call next (a resumable upload's Location) is built on it.
   */
  reachedAt: string
  /** A transaction on the project's database (as `opts.role`, with `opts.claims` as request.jwt.claims). */
  transaction<T>(opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T>
  /**
   * The bytes of the answer's body, for the egress figure, when the product knows them and the answer has no
   * Content-Length (a streamed body): set by the product before it returns.
   */
  egressBytes?: number
}

export type GatewayEnv = AppEnv & { Variables: { gateway: GatewayContext } }

export interface Product {
  /** The path segment it is served under: 'rest' serves `/p/{ref}/rest/v1/…`. */
  name: string
  /** Its routes, relative to its base (`/` is `/p/{ref}/{name}/v1/`). */
  app: Hono<GatewayEnv>
  /** 'required': a request without any key is refused (401); 'optional': it reaches the product with no caller. */
  keys: 'required' | 'optional'
  /**
   * With `keys: 'required'`, the requests that may still come without any key (a link in an e-mail, opened by a
   * browser that has no key to send), by method and path relative to the product's base ('/verify').
   */
  keyless?: (method: string, path: string) => boolean
  /** Also take the key from the `apikey` query parameter (a WebSocket upgrade, which a browser sends with no headers). */
  keyInQuery?: boolean
  /**
   * true: a service of its own, not behind the project's API server (PostgREST), so it keeps serving while that server
   * is OFFLINE (edge functions run on their own runtime on the platform). Unset: refused with 503 then, as REST is.
   */
  servedWithoutApiServer?: boolean
  /** The gateway's refusal in the product's own error shape. */
  refuse(c: Context, refusal: GatewayRefusal): Response | Promise<Response>
}

interface ProjectKeyRow {
  id: number
  status: string
  postgrest_status: string
  jwt_secret: string | null
  custom_hostname: string | null
}

/** The base path of a product, as mounted. */
export const productBase = (name: string) => `/p/:ref/${name}/v1`

/** The bytes of an answer's body, for the egress figure: its Content-Length, else what the product said it sent. */
async function answerBytes(c: Context<GatewayEnv>, res: Response, refused: boolean): Promise<number> {
  if (c.req.method === 'HEAD') return 0
  const length = Number(res.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(length)) return length
  // A refusal is a short JSON text the product made: read from a copy.
  if (refused) return (await res.clone().arrayBuffer()).byteLength
  return c.var.gateway?.egressBytes ?? 0
}

/**
 * Marks a request the platform itself sends through the gateway: the dashboard's calls to a project's service (its
 * users, as the platform's dashboard reads them through its own API), made in process. It is verified and served as
 * any other, but it is not the project's traffic: the meter leaves it out of the usage and the request log. A symbol
 * in the request's env: only an in-process `app.request` can carry it, never a request from the network.
 */
const PLATFORM_CALL = Symbol('platform call')

/** A call of the platform's own through `gateway` (see PLATFORM_CALL), for the platform's routes that need one. */
export function platformCall(gateway: Hono<GatewayEnv>): (path: string, init: RequestInit) => Response | Promise<Response> {
  return (path, init) => gateway.request(path, init, { [PLATFORM_CALL]: true })
}

const isPlatformCall = (c: Context<GatewayEnv>) => (c.env as Record<symbol, unknown> | undefined)?.[PLATFORM_CALL] === true

function gate(deps: Deps, meter: UsageMeter | undefined, product: Product, verified: VerifiedTokens): MiddlewareHandler<GatewayEnv> {
  const { db, projectDbs, clock } = deps
  return async (c, next) => {
    const ref = c.req.param('ref') ?? ''
    if (!ProjectRef.safeParse(ref).success) {
      return product.refuse(c, new GatewayRefusal(404, 'project_not_found', 'Project not found', { details: 'A project ref is 20 lower-case letters' }))
    }
    const started = performance.now()
    const { rows } = await db.query<ProjectKeyRow>(
      `select p.id, p.status, p.postgrest_status, k.jwt_secret, h.hostname as custom_hostname from projects p
       left join project_api_keys k on k.project_id = p.id
       left join project_custom_hostnames h on h.project_id = p.id and h.status = $2
       where p.ref = $1`,
      [ref, ACTIVE_HOSTNAME_STATUS],
    )
    const row = rows[0]
    if (!row) {
      return product.refuse(c, new GatewayRefusal(404, 'project_not_found', 'Project not found', { details: `No project has the ref ${ref}` }))
    }
    let refused: Response | undefined
    try {
      const apiServerDown = row.postgrest_status !== 'ONLINE' && product.servedWithoutApiServer !== true
      if (row.status !== 'ACTIVE_HEALTHY' || apiServerDown) {
        return (refused = await product.refuse(
          c,
          new GatewayRefusal(503, 'project_unavailable', 'The project is not available', {
            details: row.status !== 'ACTIVE_HEALTHY' ? `The project is ${row.status}` : 'The project API server is offline',
            hint: row.status === 'INACTIVE' ? 'Restore the project from the dashboard' : 'Try again in a moment',
          }),
        ))
      }
      const jwtSecret = row.jwt_secret ?? undefined
      let caller: Caller | undefined
      try {
        caller = await identify(
          credentialsOf((name) => c.req.header(name), new URL(c.req.url), product.keyInQuery),
          jwtSecret,
          ref,
          product.keys === 'optional' || (product.keyless?.(c.req.method, c.req.path.slice(`/p/${ref}/${product.name}/v1`.length)) ?? false),
          clock.now(),
          verified,
        )
      } catch (err) {
        if (err instanceof GatewayRefusal) return (refused = await product.refuse(c, err))
        throw err
      }
      const projectUrl = `${baseUrl(deps.ownUrl)}/p/${ref}`
      const viaDomain = (c.env as Record<symbol, unknown> | undefined)?.[VIA_CUSTOM_DOMAIN]
      c.set('gateway', {
        project: { id: row.id, ref, jwtSecret },
        caller,
        projectUrl,
        reachedAt: typeof viaDomain === 'string' ? viaDomain : projectUrl,
        customDomainUrl: row.custom_hostname ? customDomainOrigin(deps.ownUrl, row.custom_hostname) : undefined,
        transaction: (opts, fn) => projectDbs.transaction(ref, opts, fn),
      })
      await next()
    } finally {
      // A refusal returned here is not yet the context's answer (Hono sets it once this middleware returns).
      if (meter && !isPlatformCall(c)) {
        const res = refused ?? c.res
        const bytes = await answerBytes(c, res, refused !== undefined)
        meter.record({ projectId: row.id, ref, method: c.req.method, url: new URL(c.req.url), status: res.status, durationMs: performance.now() - started, bytes })
      }
    }
  }
}

/**
 * Every product behind the gateway, each under `/p/{ref}/{name}/v1`. `meter` counts every request that reaches a
 * known project (its status, duration and answer bytes) for the usage pages, the Reports page and the request log.
 */
export function gatewayRoutes(deps: Deps, meter: UsageMeter | undefined, products: readonly Product[]): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>()
  // One for every product: an app's anon key is the same for its REST, auth and storage calls.
  const verified = new VerifiedTokens(deps.config.jwtCacheEntries)
  for (const product of products) {
    const base = productBase(product.name)
    const guard = gate(deps, meter, product, verified)
    // `base/*` matches the base itself too; the second mount serves the base with a trailing slash
    // (`/p/{ref}/rest/v1/`, where client libraries read the OpenAPI document).
    app.use(`${base}/*`, guard)
    app.route(base, product.app)
    app.route(`${base}/`, product.app)
  }
  return app
}
