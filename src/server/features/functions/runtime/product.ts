/**
 * Edge functions as a product of the gateway: `{origin}/p/{ref}/functions/v1/{slug}[/…]`, any method, bodies and
 * answers streamed (server-sent events pass through as they are written). Keys are optional at the gateway: a
 * function with verify_jwt off takes calls without any key; with it on, a call with no valid key of this project is
 * refused here (a bad key the gateway refuses already). OPTIONS reaches the function, which answers its own
 * preflight. It is served while the project's API server is OFFLINE. Refusals and failures are in the platform's shapes (`{ code, message }`).
 */
import { Hono, type Context } from 'hono'
import type { GatewayEnv, GatewayRefusal, Product } from '../../../gateway'
import type { Deps } from '../../../core/deps'
import type { FunctionRuntime } from './index'
import { findRunnable } from './store'

/** A slug as the platform takes it: a letter, then letters, digits, - and _ (no dots, no unicode). */
const SLUG = /^[A-Za-z][A-Za-z0-9_-]{0,127}$/

const json = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

export function functionsProduct(deps: Pick<Deps, 'db'>, runtime: FunctionRuntime): Product {
  const app = new Hono<GatewayEnv>()

  const invoke = async (c: Context<GatewayEnv>) => {
    const gateway = c.var.gateway
    const slug = c.req.param('slug') ?? ''
    if (!SLUG.test(slug)) return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })
    const fn = await findRunnable(deps.db, gateway.project.id, slug)
    if (!fn || fn.status !== 'ACTIVE') return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })
    if (fn.verify_jwt && gateway.caller === undefined && c.req.method !== 'OPTIONS') {
      return json(401, { code: 401, message: 'Missing authorization header' })
    }
    // Every call that reaches the function counts, whatever it answers (as the platform bills them).
    runtime.usage.invoked(gateway.project.id)
    const url = new URL(c.req.url)
    const base = `/p/${gateway.project.ref}/functions/v1`
    const rest = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : `/${slug}`
    const pathAndQuery = `${rest}${url.search}`
    const bundle = await runtime.bundleFor(gateway.project.id, gateway.project.ref, gateway.projectUrl, fn)
    const res = await runtime.supervisor.invoke(bundle, {
      method: c.req.method,
      pathAndQuery,
      // As on the platform, the function sees its own path from its slug on (a router inside uses basePath('/{slug}')).
      publicUrl: `${new URL(gateway.projectUrl).origin}${pathAndQuery}`,
      headers: c.req.raw.headers,
      // A guard may have read a small body already (Hono keeps it); otherwise it streams on unread.
      body: c.req.method === 'GET' || c.req.method === 'HEAD' ? null : c.req.raw.bodyUsed ? new Response(await c.req.arrayBuffer()).body : c.req.raw.body,
    })
    return res
  }

  app.all('/:slug', invoke)
  app.all('/:slug/*', invoke)
  app.all('/', () => json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' }))

  return {
    name: 'functions',
    app,
    keys: 'optional',
    // Functions run on their own runtime, not behind the API server: a project whose API server is OFFLINE still
    // serves them (a project not ACTIVE_HEALTHY does not).
    servedWithoutApiServer: true,
    refuse: (_c, refusal: GatewayRefusal) => {
      if (refusal.status === 401) return json(401, { code: 401, message: refusal.message }, refusal.headers)
      if (refusal.status === 404) return json(404, { code: 'NOT_FOUND', message: refusal.message })
      return json(refusal.status, { code: 'SERVICE_UNAVAILABLE', message: refusal.message })
    },
  }
}
