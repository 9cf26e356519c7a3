/**
 * Each project's REST API, PostgREST-compatible, on the platform's origin:
 *   {origin}/p/{ref}/rest/v1/               the OpenAPI document (as the key's role)
 *   {origin}/p/{ref}/rest/v1/{relation}     GET HEAD POST PATCH DELETE
 *   {origin}/p/{ref}/rest/v1/rpc/{function} GET HEAD POST
 * `{origin}/p/{ref}` is the project URL a client library takes as its base. Authorized by the project's keys
 * (auth.ts), never by the dashboard's cookie; answered with CORS for browser clients on any origin (restCors,
 * mounted by app.ts before the guards so that their refusals carry it too). An unknown ref is 404, a project that
 * is not ACTIVE_HEALTHY (or whose API server is OFFLINE) 503, before any key is looked at.
 * And for the dashboard (session): GET /platform/projects/{ref}/api/rest, the same document as the owner sees it.
 */
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import type { RestSchemaResponse } from '../../../contracts/rest'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, type AppEnv } from '../../core/http'
import type { UsageMeter } from '../../core/meter'
import { ProjectDbError } from '../../projectdb/types'
import { memberProject, refParam } from '../projects/access'
import { errorResponse, handleRest, type RestResponse, type RestTarget } from './api'
import { identify } from './auth'
import { introspect } from './catalog'
import { RestError } from './errors'
import { buildOpenApi, type DocumentTarget, type OpenApiDocument } from './openapi'
import { databaseFailureStatus } from '../../core/domainErrors'

/**
 * CORS of the REST API: any origin (its callers are browser apps on their own origins; the keys, not cookies,
 * authorize, so there is nothing a foreign page could ride on), the headers supabase-js and PostgREST clients send,
 * and the answer headers they read.
 */
export const restCors = cors({
  origin: '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
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
  ],
  exposeHeaders: ['Content-Range', 'Content-Location', 'Location', 'Preference-Applied', 'Range-Unit', 'Retry-After'],
  maxAge: 86_400,
})

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

interface ProjectKeyRow {
  id: number
  status: string
  postgrest_status: string
  jwt_secret: string | null
}

function send(res: RestResponse) {
  return new Response(res.body, { status: res.status, headers: res.headers })
}

/**
 * `meter` counts every request that reaches a known project (its status, duration and answer body bytes) for the
 * usage pages, the Reports page and the request log; counting is in memory, written to the store by the meter.
 */
export function restRoutes(deps: Deps, meter?: UsageMeter) {
  const { db, projectDbs } = deps
  const app = new Hono<AppEnv>()

  const serve = (target: (c: Context) => RestTarget) => async (c: Context) => {
    const started = performance.now()
    let project: ProjectKeyRow | undefined
    let status = 500
    let bytes = 0
    const measured = (res: RestResponse) => {
      status = res.status
      bytes = res.body === null || c.req.method === 'HEAD' ? 0 : Buffer.byteLength(res.body)
      return send(res)
    }
    try {
      return await answer(c, target, measured, (row) => (project = row))
    } finally {
      if (project && meter) {
        meter.record({ projectId: project.id, ref: c.req.param('ref') as string, method: c.req.method, url: new URL(c.req.url), status, durationMs: performance.now() - started, bytes })
      }
    }
  }

  const answer = async (
    c: Context,
    target: (c: Context) => RestTarget,
    send: (res: RestResponse) => Response,
    found: (row: ProjectKeyRow) => void,
  ) => {
    const ref = c.req.param('ref') as string
    try {
      const { rows } = await db.query<ProjectKeyRow>(
        `select p.id, p.status, p.postgrest_status, k.jwt_secret from projects p
         left join project_api_keys k on k.project_id = p.id where p.ref = $1`,
        [ref],
      )
      const project = rows[0]
      if (project) found(project)
      if (!project) throw new RestError(404, 'PGRST125', 'Project not found', { details: `No project has the ref ${ref}` })
      if (project.status !== 'ACTIVE_HEALTHY' || project.postgrest_status !== 'ONLINE') {
        throw new RestError(503, 'PGRST001', 'The project is not available', {
          details: project.status !== 'ACTIVE_HEALTHY' ? `The project is ${project.status}` : 'The project API server is offline',
          hint: project.status === 'INACTIVE' ? 'Restore the project from the dashboard' : 'Try again in a moment',
        })
      }
      const identity = await identify(
        { apikey: c.req.header('apikey'), authorization: c.req.header('authorization') },
        project.jwt_secret ?? undefined,
        ref,
      )
      const url = new URL(c.req.url)
      const res = await handleRest(
        {
          method: c.req.method,
          target: target(c),
          query: url.searchParams,
          headers: (name) => c.req.header(name),
          body: c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text(),
        },
        {
          role: identity.role,
          claims: identity.claims,
          transaction: (opts, fn) => projectDbs.transaction(ref, opts, fn),
          document: documentTarget(deps, ref),
          maxRows: deps.config.restMaxRows,
        },
      )
      return send(res)
    } catch (err) {
      if (err instanceof RestError) return send(errorResponse(err))
      if (err instanceof ProjectDbError && err.code === 'database_unavailable') {
        return send(errorResponse(new RestError(databaseFailureStatus(err.code), 'PGRST001', 'The project is not available', { details: err.message })))
      }
      throw err
    }
  }

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

  const root = serve(() => ({ kind: 'root' }))
  app.all('/p/:ref/rest/v1', refParam, root)
  app.all('/p/:ref/rest/v1/', refParam, root)
  app.all('/p/:ref/rest/v1/rpc/:fn', refParam, serve((c) => ({ kind: 'rpc', name: c.req.param('fn') as string })))
  app.all('/p/:ref/rest/v1/:relation', refParam, serve((c) => ({ kind: 'relation', name: c.req.param('relation') as string })))
  return app
}
