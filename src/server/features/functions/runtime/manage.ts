/**
 * Deploying and configuring functions through the Management API, in the contract's shapes:
 *   POST   /v1/projects/{ref}/functions/deploy?slug=   multipart: `metadata` (JSON) + `file` parts, as the CLI's
 *                                                      `functions deploy --use-api` sends them → 201 FunctionResponse
 *   PATCH  /v1/projects/{ref}/functions/{slug}         JSON { name?, body?, verify_jwt? } → FunctionResponse
 *   GET    /v1/projects/{ref}/secrets                  [{ name, value: sha256 hex of the value, updated_at }]
 *   POST   /v1/projects/{ref}/secrets                  [{ name, value }] → 201
 *   DELETE /v1/projects/{ref}/secrets                  [name] → 200
 *   GET    /platform/projects/{ref}/functions/{slug}/logs   { result: entries } (last 1,000)
 * A deploy is one transaction (files replaced, version bumped): a deploy cut off half-way changes nothing and the old
 * version keeps serving. Changes need project_edge_function:all and an ACTIVE_HEALTHY project; workers of a changed
 * function are retired, so the next call runs the new version with the current secrets.
 */
import { createHash, randomUUID } from 'node:crypto'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../../contracts/common'
import * as endpoints from '../../../../contracts/endpoints'
import { DeployMetadata, FunctionSlug, type FunctionResponse, type FunctionLogs, type SecretList } from '../../../../contracts/functions'
import type { Deps } from '../../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../../core/http'
import { can } from '../../../core/permissions'
import { secretBoxFor } from '../../../core/sealed'
import { iso } from '../../../core/rows'
import { memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../../projects/access'
import { findFunction, toFunctionResponse } from '../store'
import type { FunctionRuntime } from './index'
import { deleteSecrets, findRunnable, secretRows, upsertSecrets } from './store'

const SlugParam = z.object({ ref: ProjectRef, slug: z.string().regex(/^[A-Za-z0-9_-]+$/, 'function_slug: letters, digits, - and _ only').max(128) })
const DeployQuery = z.object({ slug: z.optional(FunctionSlug), bundleOnly: z.enum(['true', 'false']).optional() })

/** The most source a deploy may carry (the request itself is capped by the app's body guard). */
export const MAX_DEPLOY_BYTES = 10 * 1024 * 1024

const mayChange = (c: Context<MemberProjectEnv>) =>
  can(c.var.project.role, 'project_edge_function:all')
    ? undefined
    : errorJson(c, 403, "You need the project_edge_function:all permission to change this project's edge functions")

const notActive = (c: Context<MemberProjectEnv>) =>
  refuseUnlessActive(c, { restoreTo: 'change its edge functions', onceActive: 'its edge functions can be changed' })

const digest = (value: string) => createHash('sha256').update(value).digest('hex')

/** A path as the CLI names it (absolute, `file://`, or relative), in POSIX form. */
const plain = (name: string) => name.replace(/^file:\/\//, '').replace(/\\/g, '/')

/**
 * The files of a deploy relative to their common folder, and the entrypoint among them; undefined when a name leaves
 * the folder or the entrypoint is not one of the files.
 */
export function layout(entrypoint: string, files: { name: string; content: string }[]) {
  const names = files.map((f) => plain(f.name))
  const entry = plain(entrypoint)
  const absolute = names.every((n) => n.startsWith('/')) && entry.startsWith('/')
  const root = absolute ? commonFolder([...names, entry]) : '/'
  const rel = (n: string) => path.posix.normalize(absolute ? path.posix.relative(root, n) : n)
  const placed = files.map((f, i) => ({ name: rel(names[i]), content: f.content }))
  const entryRel = rel(entry)
  const bad = (n: string) => n === '' || n.startsWith('../') || n === '..' || n.startsWith('/') || n.includes('\0')
  if (placed.some((f) => bad(f.name)) || bad(entryRel)) return undefined
  if (!placed.some((f) => f.name === entryRel)) return undefined
  return { files: placed, entrypoint: entryRel }
}

function commonFolder(paths: string[]): string {
  const split = paths.map((p) => path.posix.dirname(p).split('/'))
  const first = split[0]
  let n = first.length
  for (const parts of split) {
    let i = 0
    while (i < n && parts[i] === first[i]) i++
    n = i
  }
  return first.slice(0, n).join('/') || '/'
}

export function functionManageRoutes(deps: Deps, runtime: FunctionRuntime) {
  const { db, clock } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.deployFunction), refParam, validate('query', DeployQuery), project, async (c) => {
    const refused = mayChange(c) ?? notActive(c)
    if (refused) return refused
    const type = (c.req.header('content-type') ?? '').toLowerCase()
    if (!type.startsWith('multipart/form-data')) return errorJson(c, 415, 'A deploy is multipart/form-data: a metadata part and file parts')
    let form: Record<string, string | File | (string | File)[]>
    try {
      form = await c.req.parseBody({ all: true })
    } catch {
      return errorJson(c, 400, 'The multipart body could not be read (cut off, or not multipart)')
    }
    const rawMeta = form.metadata
    if (typeof rawMeta !== 'string') return errorJson(c, 400, 'metadata: a JSON part is required')
    let metaJson: unknown
    try {
      metaJson = JSON.parse(rawMeta)
    } catch {
      return errorJson(c, 400, 'metadata: not valid JSON')
    }
    const meta = DeployMetadata.safeParse(metaJson)
    if (!meta.success) return errorJson(c, 400, `metadata: ${meta.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`)
    const parts = ([] as (string | File)[]).concat(form.file ?? [])
    const uploads = parts.filter((p): p is File => typeof p !== 'string')
    if (uploads.length === 0) return errorJson(c, 400, 'file: at least one source file is required')
    const total = uploads.reduce((sum, f) => sum + f.size, 0)
    if (total > MAX_DEPLOY_BYTES) return errorJson(c, 413, `The function's files are larger than ${MAX_DEPLOY_BYTES} bytes`)
    const files = await Promise.all(uploads.map(async (f) => ({ name: f.name, content: await f.text() })))
    const placed = layout(meta.data.entrypoint_path, files)
    if (!placed) return errorJson(c, 400, 'entrypoint_path must be one of the files sent, and no file may lie outside the function folder')
    const slug = c.req.valid('query').slug ?? meta.data.name
    if (slug === undefined || !FunctionSlug.safeParse(slug).success) {
      return errorJson(c, 400, 'slug: a query parameter starting with a letter, then letters, digits, - and _')
    }
    const now = clock.now().toISOString()
    const entryBody = placed.files.find((f) => f.name === placed.entrypoint)!.content
    const id = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into edge_functions (id, project_id, slug, name, verify_jwt, import_map, entrypoint_path, import_map_path, body, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
         on conflict (project_id, slug) do update set
           name = coalesce($11, edge_functions.name),
           verify_jwt = coalesce($12, edge_functions.verify_jwt),
           import_map = excluded.import_map, entrypoint_path = excluded.entrypoint_path,
           import_map_path = excluded.import_map_path, body = excluded.body, status = 'ACTIVE',
           version = edge_functions.version + 1, updated_at = excluded.updated_at
         returning id::text as id`,
        [
          randomUUID(),
          c.var.project.id,
          slug,
          meta.data.name ?? slug,
          meta.data.verify_jwt ?? true,
          meta.data.import_map_path !== undefined,
          placed.entrypoint,
          meta.data.import_map_path === undefined ? null : plain(meta.data.import_map_path),
          entryBody,
          now,
          meta.data.name ?? null,
          meta.data.verify_jwt ?? null,
        ],
      )
      const fnId = rows[0].id
      await tx.query('delete from edge_function_files where function_id = $1', [fnId])
      for (const file of placed.files) {
        await tx.query('insert into edge_function_files (function_id, name, content) values ($1, $2, $3) on conflict (function_id, name) do update set content = excluded.content', [fnId, file.name, file.content])
      }
      return fnId
    })
    await runtime.supervisor.retire(id)
    const row = (await findFunction(db, c.var.project.id, slug))!
    return c.json(toFunctionResponse(row) satisfies FunctionResponse, 201)
  })

  app.on(...at(endpoints.updateFunction), validate('param', SlugParam), validate('json', endpoints.updateFunction.body), project, async (c) => {
    const refused = mayChange(c) ?? notActive(c)
    if (refused) return refused
    const { slug } = c.req.valid('param')
    const body = c.req.valid('json')
    const { rows } = await db.query<{ id: string }>(
      `update edge_functions set name = coalesce($3, name), verify_jwt = coalesce($4, verify_jwt), body = coalesce($5, body),
         version = version + case when $5::text is null then 0 else 1 end, updated_at = $6
       where project_id = $1 and slug = $2 returning id::text as id`,
      [c.var.project.id, slug, body.name ?? null, body.verify_jwt ?? null, body.body ?? null, clock.now().toISOString()],
    )
    if (!rows[0]) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    // A new body replaces the deployed files: it is the whole function now.
    if (body.body !== undefined) await db.query('delete from edge_function_files where function_id = $1', [rows[0].id])
    await runtime.supervisor.retire(rows[0].id)
    return c.json(toFunctionResponse((await findFunction(db, c.var.project.id, slug))!) satisfies FunctionResponse)
  })

  app.on(...at(endpoints.listSecrets), refParam, project, async (c) => {
    if (!can(c.var.project.role, 'project_edge_function:all')) return errorJson(c, 403, "You need the project_edge_function:all permission to read this project's secrets")
    const rows = await secretRows(db, c.var.project.id, await secretBoxFor(deps.config))
    return c.json(rows.map((r) => ({ name: r.name, value: digest(r.value), updated_at: iso(r.updated_at) })) satisfies SecretList)
  })

  app.on(...at(endpoints.createSecrets), refParam, validate('json', endpoints.createSecrets.body), project, async (c) => {
    const refused = mayChange(c) ?? notActive(c)
    if (refused) return refused
    const secrets = c.req.valid('json')
    if (secrets.length === 0) return errorJson(c, 400, 'At least one secret is required')
    const box = await secretBoxFor(deps.config)
    await db.transaction((tx) => upsertSecrets(tx, c.var.project.id, secrets, clock.now(), box))
    return c.body(null, 201)
  })

  app.on(...at(endpoints.deleteSecrets), refParam, validate('json', endpoints.deleteSecrets.body), project, async (c) => {
    const refused = mayChange(c) ?? notActive(c)
    if (refused) return refused
    await deleteSecrets(db, c.var.project.id, c.req.valid('json'))
    return c.body(null, 200)
  })

  app.on(...at(endpoints.functionLogs), validate('param', SlugParam), project, async (c) => {
    const { slug } = c.req.valid('param')
    const fn = await findRunnable(db, c.var.project.id, slug)
    if (!fn) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    return c.json({ result: await runtime.logs.list(fn.id) } satisfies FunctionLogs)
  })

  return app
}
