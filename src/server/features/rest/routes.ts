/**
 * Each project's REST API, PostgREST-compatible, behind the gateway (src/server/gateway):
 *   {origin}/p/{ref}/rest/v1/               the OpenAPI document (as the key's role)
 *   {origin}/p/{ref}/rest/v1/{relation}     GET HEAD POST PATCH DELETE
 *   {origin}/p/{ref}/rest/v1/rpc/{function} GET HEAD POST
 * `{origin}/p/{ref}` is the project URL a client library takes as its base. The gateway resolves the project,
 * refuses one that is not serving, and verifies the key; a key is required here, and the caller's role and claims
 * are what each statement runs as. Refusals are in PostgREST's shape and codes.
 * And for the dashboard (session): GET /platform/projects/{ref}/api/rest, the same document as the owner sees it.
 */
import { Hono, type Context } from 'hono'
import type { RestSchemaResponse } from '../../../contracts/rest'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, type AppEnv } from '../../core/http'
import { ProjectDbError } from '../../projectdb/types'
import type { GatewayEnv, GatewayRefusal, Product, RefusalReason } from '../../gateway'
import { memberProject } from '../projects/access'
import { errorResponse, handleRest, type RestResponse, type RestTarget } from './api'
import { introspect } from './catalog'
import { restSettings } from './store'
import { RestError } from './errors'
import { buildOpenApi, type DocumentTarget, type OpenApiDocument } from './openapi'
import { databaseFailureStatus } from '../../core/domainErrors'

export function documentTarget(deps: Pick<Deps, 'ownUrl'>, ref: string): DocumentTarget {
  const url = new URL(baseUrl(deps.ownUrl))
  return { host: url.host, basePath: `/p/${ref}/rest/v1`, scheme: url.protocol === 'https:' ? 'https' : 'http' }
}

/**
 * The OpenAPI document of a project's API as its owner sees it (the dashboard's /platform/projects/{ref}/api/rest).
 * Throws ProjectDbError 'database_unavailable' while the project's database cannot be used.
 */
export async function ownerRestDocument(deps: Pick<Deps, 'projectDbs' | 'ownUrl'>, ref: string): Promise<OpenApiDocument> {
  const catalog = await deps.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, introspect)
  return buildOpenApi(catalog, documentTarget(deps, ref))
}

/** PostgREST's code for each refusal of the gateway. */
const REFUSAL_CODES: Record<RefusalReason, string> = {
  project_not_found: 'PGRST125',
  project_unavailable: 'PGRST001',
  no_key: 'PGRST302',
  bad_authorization_header: 'PGRST301',
  invalid_token: 'PGRST301',
  other_project: 'PGRST301',
  token_expired: 'PGRST303',
  bad_role: 'PGRST303',
  no_secret: 'PGRST300',
}

function send(res: RestResponse) {
  return new Response(res.body, { status: res.status, headers: res.headers })
}

/** The REST API as a product of the gateway. */
export function restProduct(deps: Pick<Deps, 'ownUrl' | 'config' | 'db'>): Product {
  const app = new Hono<GatewayEnv>()

  const serve = (target: (c: Context<GatewayEnv>) => RestTarget) => async (c: Context<GatewayEnv>) => {
    const gateway = c.var.gateway
    const caller = gateway.caller!
    const measured = (res: RestResponse) => {
      gateway.egressBytes = res.body === null ? 0 : Buffer.byteLength(res.body)
      return send(res)
    }
    const url = new URL(c.req.url)
    try {
      const settings = await restSettings(deps, gateway.project.id)
      return measured(
        await handleRest(
          {
            method: c.req.method,
            target: target(c),
            query: url.searchParams,
            headers: (name) => c.req.header(name),
            body: c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text(),
          },
          {
            role: caller.role,
            claims: caller.claims,
            transaction: gateway.transaction,
            document: documentTarget(deps, gateway.project.ref),
            maxRows: settings.maxRows,
            schemas: settings.schemas,
          },
        ),
      )
    } catch (err) {
      if (err instanceof ProjectDbError && err.code === 'database_unavailable') {
        return measured(errorResponse(new RestError(databaseFailureStatus(err.code), 'PGRST001', 'The project is not available', { details: err.message })))
      }
      throw err
    }
  }

  const root = serve(() => ({ kind: 'root' }))
  app.all('/', root)
  app.all('/rpc/:fn', serve((c) => ({ kind: 'rpc', name: c.req.param('fn') ?? '' })))
  app.all('/:relation', serve((c) => ({ kind: 'relation', name: c.req.param('relation') ?? '' })))

  return {
    name: 'rest',
    app,
    keys: 'required',
    refuse: (_c, refusal: GatewayRefusal) =>
      send(
        errorResponse(
          new RestError(refusal.status, REFUSAL_CODES[refusal.reason], refusal.message, {
            details: refusal.details,
            hint: refusal.hint,
            headers: refusal.headers,
          }),
        ),
      ),
  }
}

/** The dashboard's read of a project's REST schema (session). */
export function restRoutes(deps: Deps) {
  const { db } = deps
  const app = new Hono<AppEnv>()
  // The project's OpenAPI document as PostgREST serves it, introspected as the owner (the connecting screen's test).
  app.on(...at(endpoints.getProjectRestSchema), memberProject(db), async (c) => {
    if (c.var.project.postgrest_status !== 'ONLINE') return errorJson(c, 503, 'The project API server is offline')
    try {
      const document: RestSchemaResponse = await ownerRestDocument(deps, c.var.project.ref)
      return c.json(document)
    } catch (err) {
      if (err instanceof ProjectDbError && err.code === 'database_unavailable') {
        return errorJson(c, databaseFailureStatus(err.code), "The project's database is not available")
      }
      throw err
    }
  })

  return app
}
