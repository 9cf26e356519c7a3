/**
 * Saved queries (contracts: src/contracts/snippets.ts), on the dashboard's routes and the Management API's:
 *   GET/POST /platform/projects/{ref}/snippets, PATCH/DELETE /platform/projects/{ref}/snippets/{id}
 *   GET /v1/snippets (keyset-paged: `cursor` is the last row's sort value and id), GET /v1/snippets/{id}
 * Any member of the project's organization keeps snippets of their own and sees those shared with the project; only
 * the author renames, edits, shares or deletes one (403), a favourite is each reader's own mark. A snippet the
 * person may not see answers 404, as an unknown one does.
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import { SnippetIdParam, type Snippet, type SnippetList, type V1SnippetList } from '../../../contracts/snippets'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { memberProject, refParam } from '../projects/access'
import * as store from './store'

const NOT_FOUND = 'Snippet not found'
const ProjectSnippetParam = z.object({ ref: ProjectRef, id: SnippetIdParam.shape.id })

/** The cursor of the next page: the last row's sort value and id, opaque to the caller. */
const Cursor = z.object({ value: z.string().max(100), id: z.uuid() })
function readCursor(cursor: string | undefined): { value: string; id: string } | undefined | null {
  if (cursor === undefined || cursor === '') return undefined
  try {
    const parsed = Cursor.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
const writeCursor = (value: string, id: string) => Buffer.from(JSON.stringify({ value, id })).toString('base64url')

export function snippetRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.listSnippets), refParam, project, async (c) => {
    const rows = await store.listProjectSnippets(db, c.get('account').id, c.var.project.id)
    return c.json({ data: rows.map(store.toSnippet) } satisfies SnippetList)
  })

  app.on(...at(endpoints.createSnippet), validate('json', endpoints.createSnippet.body), refParam, project, async (c) => {
    const body = c.req.valid('json')
    const id = randomUUID()
    const account = c.get('account')
    await store.insertSnippet(db, {
      id,
      projectId: c.var.project.id,
      ownerId: account.id,
      name: body.name,
      description: body.description ?? null,
      visibility: body.visibility ?? 'user',
      sql: body.sql,
      now: clock.now(),
    })
    const row = await store.findSnippet(db, account.id, id)
    if (!row) throw new Error('A snippet just kept could not be read back')
    return c.json(store.toSnippet(row) satisfies Snippet, 201)
  })

  app.on(
    ...at(endpoints.updateSnippet),
    validate('param', ProjectSnippetParam),
    validate('json', endpoints.updateSnippet.body),
    project,
    async (c) => {
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      const account = c.get('account')
      const found = await store.findSnippet(db, account.id, id)
      if (!found || found.project_id !== c.var.project.id) return errorJson(c, 404, NOT_FOUND)
      const { favorite, ...change } = body
      const edits = Object.values(change).some((v) => v !== undefined)
      if (edits && found.owner_id !== account.id) {
        return errorJson(c, 403, "Only the snippet's author can rename, edit, share or delete it (a favourite is yours to set)")
      }
      await db.transaction(async (tx) => {
        if (edits) await store.updateSnippet(tx, id, account.id, change, clock.now())
        if (favorite !== undefined) await store.setFavorite(tx, id, account.id, favorite)
      })
      const row = await store.findSnippet(db, account.id, id)
      if (!row) return errorJson(c, 404, NOT_FOUND)
      return c.json(store.toSnippet(row) satisfies Snippet)
    },
  )

  app.on(...at(endpoints.deleteSnippet), validate('param', ProjectSnippetParam), project, async (c) => {
    const { id } = c.req.valid('param')
    const account = c.get('account')
    const found = await store.findSnippet(db, account.id, id)
    if (!found || found.project_id !== c.var.project.id) return errorJson(c, 404, NOT_FOUND)
    if (found.owner_id !== account.id) return errorJson(c, 403, "Only the snippet's author can rename, edit, share or delete it")
    await store.deleteSnippet(db, id)
    return c.body(null, 204)
  })

  app.on(...at(endpoints.v1ListSnippets), validate('query', endpoints.v1ListSnippets.query), async (c) => {
    const query = c.req.valid('query')
    const after = readCursor(query.cursor)
    if (after === null) return errorJson(c, 400, 'cursor: not a cursor this API gave')
    const sortBy = query.sort_by ?? 'inserted_at'
    const limit = query.limit ? Number(query.limit) : 100
    const rows = await store.listVisibleSnippets(db, c.get('account').id, {
      projectRef: query.project_ref,
      sortBy,
      sortOrder: query.sort_order ?? 'desc',
      limit: limit + 1,
      after,
    })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const body: V1SnippetList = { data: page.map(store.toSummary) }
    if (rows.length > limit && last) body.cursor = writeCursor(sortBy === 'name' ? last.name : iso(last.inserted_at), last.id)
    return c.json(body)
  })

  app.on(...at(endpoints.v1GetSnippet), validate('param', SnippetIdParam), async (c) => {
    const row = await store.findSnippet(db, c.get('account').id, c.req.valid('param').id)
    if (!row) return errorJson(c, 404, NOT_FOUND)
    return c.json(store.toSnippet(row) satisfies Snippet)
  })

  return app
}
