/**
 * A project's edge functions, in the Management API contract's shapes (FunctionResponse, V1CreateFunctionBody):
 *   GET    /v1/projects/{ref}/functions                 → FunctionResponse[] (oldest first)
 *   POST   /v1/projects/{ref}/functions                 JSON V1CreateFunctionBody (+ query slug, name, verify_jwt,
 *                                                       import_map, entrypoint_path, import_map_path) → 201
 *   GET    /v1/projects/{ref}/functions/{function_slug} → FunctionResponse (404 when absent)
 *   DELETE /v1/projects/{ref}/functions/{function_slug} → 200, no body (404 when absent)
 * Bearer (personal access token) or session cookie, as on every /v1 route. Any member reads; creating and deleting
 * need project_edge_function:all (a Read-only member gets 403). The functions live in the platform store, so they
 * are listed whatever the project's status; a change needs the project ACTIVE_HEALTHY (409 otherwise, as the
 * database endpoints answer). The source body is stored but never answered. Only JSON bodies are taken: an eszip
 * bundle (application/vnd.denoland.eszip) is refused with 415 by the app-wide guard, and a body past the API's JSON
 * limit (64 kB) with 413. Deploying (multipart), PATCH, the body, secrets and logs are in runtime/manage.ts;
 * running a function is runtime/ (the gateway's 'functions' product).
 */
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import { FunctionSlug, type FunctionList, type FunctionResponse } from '../../../contracts/functions'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import type { FunctionRuntime } from './runtime'
import { deleteFunction, findFunction, insertFunction, listFunctions, toFunctionResponse } from './store'

/** The path's slug, as the contract's path parameter allows it. */
const SlugParam = z.object({
  ref: ProjectRef,
  slug: z.string().regex(/^[A-Za-z0-9_-]+$/, 'function_slug: letters, digits, - and _ only').max(128),
})

/** "Boolean string, true or false" (the contract's words). */
const booleanString = z
  .enum(['true', 'false'], { error: 'a boolean string, true or false' })
  .transform((value) => value === 'true')
  .optional()

const path = z.string().min(1, 'must not be empty').max(1024).optional()

/** The query parameters of the contract's create; those not listed (ezbr_sha256 of an eszip bundle) are ignored. */
const CreateFunctionQuery = z.object({
  slug: z.optional(FunctionSlug),
  name: z.string().min(1, 'must not be empty').max(200).optional(),
  verify_jwt: booleanString,
  import_map: booleanString,
  entrypoint_path: path,
  import_map_path: path,
})

const ENTRYPOINT = 'index.ts'

const notActive = (c: Context<MemberProjectEnv>) =>
  refuseUnlessActive(c, { restoreTo: 'change its edge functions', onceActive: 'its edge functions can be changed' })

function mayChange(c: Context<MemberProjectEnv>) {
  if (can(c.var.project.role, 'project_edge_function:all')) return undefined
  return errorJson(c, 403, "You need the project_edge_function:all permission to change this project's edge functions")
}

/** A value given both in the query and in the body must agree. */
function disagreement<T>(name: string, query: T | undefined, body: T | undefined): string | undefined {
  if (query === undefined || body === undefined || query === body) return undefined
  return `${name}: the query says ${JSON.stringify(query)} and the body ${JSON.stringify(body)}`
}

export function functionRoutes({ db, clock }: Deps, runtime: Pick<FunctionRuntime, 'removeFunction'>) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.listFunctions), project, async (c) => {
    const rows = await listFunctions(db, c.var.project.id)
    return c.json(rows.map(toFunctionResponse) satisfies FunctionList)
  })

  app.on(...at(endpoints.getFunction), validate('param', SlugParam), project, async (c) => {
    const { slug } = c.req.valid('param')
    const row = await findFunction(db, c.var.project.id, slug)
    if (!row) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    return c.json(toFunctionResponse(row) satisfies FunctionResponse)
  })

  app.on(
    ...at(endpoints.createFunction),
    refParam,
    validate('query', CreateFunctionQuery),
    validate('json', endpoints.createFunction.body),
    project,
    async (c) => {
      const query = c.req.valid('query')
      const body = c.req.valid('json')
      const refused = mayChange(c) ?? notActive(c)
      if (refused) return refused
      const conflict =
        disagreement('slug', query.slug, body.slug) ??
        disagreement('name', query.name, body.name) ??
        disagreement('verify_jwt', query.verify_jwt, body.verify_jwt)
      if (conflict) return errorJson(c, 400, conflict)
      const row = await insertFunction(db, {
        projectId: c.var.project.id,
        slug: body.slug,
        name: body.name,
        body: body.body,
        verifyJwt: body.verify_jwt ?? query.verify_jwt ?? true,
        importMap: query.import_map ?? query.import_map_path !== undefined,
        entrypointPath: query.entrypoint_path ?? ENTRYPOINT,
        importMapPath: query.import_map_path ?? null,
        now: clock.now(),
      })
      if (!row) return errorJson(c, 409, `The resource already exists: this project has an edge function '${body.slug}'`, 'duplicate')
      return c.json(toFunctionResponse(row) satisfies FunctionResponse, 201)
    },
  )

  app.on(...at(endpoints.deleteFunction), validate('param', SlugParam), project, async (c) => {
    const { slug } = c.req.valid('param')
    const refused = mayChange(c) ?? notActive(c)
    if (refused) return refused
    const removed = await deleteFunction(db, c.var.project.id, slug)
    if (!removed) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    // Its warm worker would otherwise run on, with the project's secrets, until it went idle.
    await runtime.removeFunction(removed)
    return c.body(null, 200)
  })

  return app
}
