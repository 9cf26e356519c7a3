/**
 * A project's own database, for its members.
 *   POST /v1/projects/{ref}/database/query            run SQL as the project owner → 201 rows of the last statement
 *   POST /v1/projects/{ref}/database/query/read-only  the same in a read-only transaction (any member)
 *   POST /platform/projects/{ref}/database/query      the SQL Editor: columns with their types, rows, time
 *   GET  /platform/projects/{ref}/database/tables     tables and views of schema public
 *   GET  /platform/projects/{ref}/database/tables/{table}/rows   a page of a table's rows
 *   GET  /v1/projects/{ref}/types/typescript          TypeScript types (@supabase/postgrest-typegen)
 * Writing takes `projects:write`: a Read-only member gets 403 from the v1 write endpoint (unless read_only: true) and
 * has every SQL Editor query run read-only. A script the SQL parser refuses answers 400 with the parser's message (and
 * position), and is never run. A failed query answers 400 with the Postgres error (message, SQLSTATE,
 * position in the person's script, detail, hint); past the time-out 408 `query_timeout` (the database layer stops
 * it and the next query works); a project that is not ACTIVE_HEALTHY 409.
 */
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import type { DatabaseTableList, QueryError, QueryResult, TableRows, TypescriptResponse, V1QueryResult } from '../../../contracts/database'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { ProjectDbError } from '../../projectdb/types'
import { QueryRefused, runProjectQuery } from './run'
import { listTables, tablePage } from './tables'
import { generateTypes } from './typescript'
import { answerDatabaseFailure } from '../../core/domainErrors'

const SQLSTATE = /^[0-9A-Z]{5}$/

/** The answer to a failed query or an unavailable database. */
export function failure(c: Context, err: unknown, timeoutMs: number) {
  if (err instanceof QueryRefused) {
    const body: QueryError = { message: err.message }
    if (err.code) body.code = err.code
    if (err.position !== undefined && err.position > 0) body.position = err.position
    return c.json(body, 400)
  }
  if (!(err instanceof ProjectDbError)) throw err
  if (err.code === 'query_timeout') {
    const body: QueryError = {
      message: `The query ran past the time-out of ${timeoutMs} ms and was stopped; the database is ready for the next query`,
      code: 'query_timeout',
    }
    return c.json(body, 408)
  }
  if (err.code === 'database_unavailable' || err.code === 'database_busy') {
    return answerDatabaseFailure(c, err, "The project's database is not available right now")
  }
  if (!SQLSTATE.test(err.code)) return answerDatabaseFailure(c, err, "The project's database failed")
  const body: QueryError = { message: err.message, code: err.code }
  if (err.position !== undefined && err.position > 0) body.position = err.position
  if (err.detail) body.detail = err.detail
  if (err.hint) body.hint = err.hint
  return c.json(body, 400)
}

const notActive = (c: Context<MemberProjectEnv>) => refuseUnlessActive(c, DATABASE_UNAVAILABLE)

const TableParam = z.object({ ref: ProjectRef, table: z.string().min(1, 'table is required').max(256) })

const schemaList = (value: string | undefined) =>
  (value ?? 'public')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export function databaseRoutes({ db, projectDbs, config }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const timeoutMs = config.projectDb.queryTimeoutMs
  // The introspection of a large schema (1,000 tables, 200 functions) takes seconds on PGlite, more on a busy machine:
  // it gets at least a minute, whatever the time-out of a person's query.
  const typesTimeoutMs = Math.max(timeoutMs, 60_000)

  /** Runs the body's SQL, read-only when `readOnly`; the QueryRun, or the answer to its failure. */
  async function run(c: Context<MemberProjectEnv>, body: { query: string; parameters?: unknown[] }, readOnly: boolean) {
    try {
      return { ok: true as const, result: await runProjectQuery(projectDbs, c.var.project.ref, body.query, { parameters: body.parameters, readOnly }) }
    } catch (err) {
      return { ok: false as const, response: failure(c, err, timeoutMs) }
    }
  }

  app.on(...at(endpoints.v1RunQuery), refParam, validate('json', endpoints.v1RunQuery.body), project, async (c) => {
    const body = c.req.valid('json')
    const readOnly = body.read_only === true
    if (!readOnly && !can(c.var.project.role, 'projects:write')) {
      return errorJson(c, 403, 'A Read-only member may run read-only queries only (read_only: true, or /database/query/read-only)')
    }
    const refused = notActive(c)
    if (refused) return refused
    const ran = await run(c, body, readOnly)
    if (!ran.ok) return ran.response
    return c.json(ran.result.rows satisfies V1QueryResult, 201)
  })

  app.on(...at(endpoints.v1RunReadOnlyQuery), refParam, validate('json', endpoints.v1RunReadOnlyQuery.body), project, async (c) => {
    const refused = notActive(c)
    if (refused) return refused
    const ran = await run(c, c.req.valid('json'), true)
    if (!ran.ok) return ran.response
    return c.json(ran.result.rows satisfies V1QueryResult, 201)
  })

  app.on(...at(endpoints.runQuery), refParam, validate('json', endpoints.runQuery.body), project, async (c) => {
    const body = c.req.valid('json')
    const refused = notActive(c)
    if (refused) return refused
    // A Read-only member's query always runs read-only; the answer says so.
    const readOnly = body.read_only === true || !can(c.var.project.role, 'projects:write')
    const ran = await run(c, body, readOnly)
    if (!ran.ok) return ran.response
    const { columns, rows, rowCount, command, durationMs } = ran.result
    return c.json({ columns, rows, rowCount, command, durationMs, readOnly } satisfies QueryResult)
  })

  app.on(...at(endpoints.listTables), project, async (c) => {
    const refused = notActive(c)
    if (refused) return refused
    try {
      const tables = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, listTables)
      return c.json(tables satisfies DatabaseTableList)
    } catch (err) {
      return failure(c, err, timeoutMs)
    }
  })

  app.on(
    ...at(endpoints.getTableRows),
    validate('param', TableParam),
    validate('query', endpoints.getTableRows.query),
    project,
    async (c) => {
      const { table } = c.req.valid('param')
      const { offset, limit } = c.req.valid('query')
      const refused = notActive(c)
      if (refused) return refused
      try {
        const page = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) => tablePage(tx, table, offset, limit))
        if (!page) return errorJson(c, 404, `No table or view named '${table}' in schema public`)
        return c.json({ ...page, offset, limit } satisfies TableRows)
      } catch (err) {
        return failure(c, err, timeoutMs)
      }
    },
  )

  app.on(...at(endpoints.getTypescriptTypes), refParam, validate('query', endpoints.getTypescriptTypes.query), project, async (c) => {
    const schemas = schemaList(c.req.valid('query').included_schemas)
    if (schemas.length === 0) return errorJson(c, 400, 'included_schemas: name at least one schema')
    const refused = notActive(c)
    if (refused) return refused
    try {
      const types = await projectDbs.transaction(c.var.project.ref, { readOnly: true, timeoutMs: typesTimeoutMs }, (tx) =>
        generateTypes(tx, schemas),
      )
      return c.json({ types } satisfies TypescriptResponse)
    } catch (err) {
      return failure(c, err, typesTimeoutMs)
    }
  })

  return app
}
