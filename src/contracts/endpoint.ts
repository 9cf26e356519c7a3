/**
 * What an endpoint descriptor is (src/contracts/endpoints.ts holds them all): method, base, path with `:params`,
 * request and response schema. The server registers `routeOf(endpoint)`; the dashboard's client calls
 * `pathOf(endpoint, params)` under the base it was built with and parses the answer with `endpoint.response`.
 * The contracts are written with `zod/mini` (functions instead of methods): the dashboard's bundle then holds only the
 * parts of zod its schemas use, not the whole library.
 */
import type * as z from 'zod/mini'

export type ApiBase = 'platform' | 'v1' | 'dev' | 'storage'
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export interface Endpoint<
  Path extends string = string,
  Body extends z.ZodMiniType | null = z.ZodMiniType | null,
  Response extends z.ZodMiniType | null = z.ZodMiniType | null,
  Query extends z.ZodMiniType | null = z.ZodMiniType | null,
> {
  method: HttpMethod
  base: ApiBase
  /** Relative to the base, parameters as `:name`. */
  path: Path
  body: Body
  response: Response
  query: Query
}

export function endpoint<
  Path extends string,
  Body extends z.ZodMiniType | null = null,
  Response extends z.ZodMiniType | null = null,
  Query extends z.ZodMiniType | null = null,
>(method: HttpMethod, base: ApiBase, path: Path, schemas: { body?: Body; response?: Response; query?: Query } = {}) {
  return {
    method,
    base,
    path,
    body: (schemas.body ?? null) as Body,
    response: (schemas.response ?? null) as Response,
    query: (schemas.query ?? null) as Query,
  } satisfies Endpoint<Path, Body, Response, Query>
}

/** The names of a path's `:params`: '/projects/:ref/status' → 'ref'. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never

/** The route pattern the server registers: '/platform/projects/:ref/status'. */
export function routeOf(e: Pick<Endpoint, 'base' | 'path'>): string {
  return `/${e.base}${e.path}`
}

const missing: Record<string, string> = { ref: 'Project ref is required', slug: 'slug is required' }

/**
 * The path with its parameters filled in and encoded, relative to the base: ('/projects/:ref', { ref }) →
 * '/projects/abc…'. A missing or empty parameter throws (the call is never sent to a half-built URL).
 */
export function pathOf<Path extends string>(
  e: { path: Path },
  params: { [K in ParamsOf<Path>]: string | number | undefined },
): string {
  const values = params as Record<string, string | number | undefined>
  return e.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined || value === '') throw new Error(missing[name] ?? `${name} is required`)
    return encodeURIComponent(String(value))
  })
}
