/**
 * The SQL Editor's own routes (contracts: src/contracts/sqlEditor.ts):
 *   POST /platform/projects/{ref}/sql/run          each statement's result (capped at the row limit), or the plan
 *   GET  /platform/projects/{ref}/sql/history      the person's last runs on the project
 *   GET  /platform/projects/{ref}/sql/completions  schemas, tables with their columns, functions (for completion)
 *   GET  /platform/projects/{ref}/sql/users        the project's users a run can take the claims of
 * A run goes through the one runner (run.ts: one transaction, its guards, the time-out). As `anon` or `authenticated`
 * it runs as REST runs a request: the role switched, request.jwt.claims set (an anon key's, or the chosen user's, as
 * the project's auth would sign them), so row level security decides. A Read-only member's runs are read-only, and
 * so is every Explain. Each run, failed or not, is kept in the person's history.
 */
import { Hono, type Context } from 'hono'
import type { SqlCompletions, SqlRunResult, SqlRunRole, SqlUsers } from '../../../contracts/sqlEditor'
import { ROW_LIMIT_DEFAULT, type PlanNode } from '../../../contracts/sqlEditor'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { splitStatements } from '../../projectdb/statements'
import type { ProjectTx } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { failure } from './routes'
import { QueryRefused, runProjectScript } from './run'
import { listRuns, recordRun } from './sqlHistory'

const notActive = (c: Context<MemberProjectEnv>) => refuseUnlessActive(c, DATABASE_UNAVAILABLE)

/** What an API role's token carries, as the gateway hands REST the claims of a verified key or access token. */
async function claimsFor(c: Context<MemberProjectEnv>, deps: Deps, role: SqlRunRole, userId: string | undefined) {
  const ref = c.var.project.ref
  if (role === 'postgres') return { claims: undefined }
  if (role === 'anon') return { claims: { iss: 'supabase', ref, role: 'anon' } }
  const user = await deps.projectDbs.transaction(ref, { readOnly: true }, async (tx) => {
    const { rows } = await tx.query<{ id: string; email: string | null; phone: string | null; aud: string | null; app: unknown; meta: unknown; is_anonymous: boolean }>(
      `select id::text, email, phone, aud, raw_app_meta_data as app, raw_user_meta_data as meta, is_anonymous
       from auth.users where id = $1 and deleted_at is null`,
      [userId],
    )
    return rows[0]
  })
  if (!user) return { missing: true as const }
  return {
    claims: {
      aud: user.aud ?? 'authenticated',
      sub: user.id,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.app ?? {},
      user_metadata: user.meta ?? {},
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: user.is_anonymous,
      ref,
    },
  }
}

/** The root of `explain (format json)`'s answer, whichever way the driver handed the json value. */
function planOf(value: unknown): PlanNode | undefined {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value
  const first = Array.isArray(parsed) ? (parsed[0] as { Plan?: PlanNode } | undefined) : undefined
  return first?.Plan
}

async function completions(tx: ProjectTx): Promise<SqlCompletions> {
  const hidden = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`
  const schemas = await tx.query<{ name: string }>(`select n.nspname as name from pg_namespace n where ${hidden} order by 1`)
  const tables = await tx.query<{ schema: string; name: string; columns: string }>(
    `select n.nspname as schema, c.relname as name,
       coalesce(json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
         filter (where a.attnum is not null), '[]')::text as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.relkind in ('r', 'v', 'm', 'f', 'p') and ${hidden}
     group by n.nspname, c.relname order by 1, 2 limit 5000`,
  )
  const functions = await tx.query<{ schema: string; name: string; args: string; returns: string }>(
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
       coalesce(pg_get_function_result(p.oid), '') as returns
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${hidden} order by 1, 2 limit 5000`,
  )
  return {
    schemas: schemas.rows.map((r) => r.name),
    tables: tables.rows.map((r) => ({ schema: r.schema, name: r.name, columns: JSON.parse(r.columns) as { name: string; type: string }[] })),
    functions: functions.rows.map((r) => ({ schema: r.schema, name: r.name, args: r.args, returns: r.returns })),
  }
}

export function sqlEditorRoutes(deps: Deps) {
  const { db, projectDbs, config, clock } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const timeoutMs = config.projectDb.queryTimeoutMs

  app.on(...at(endpoints.runSql), validate('json', endpoints.runSql.body), refParam, project, async (c) => {
    const body = c.req.valid('json')
    const refused = notActive(c)
    if (refused) return refused
    const role = body.role ?? 'postgres'
    const rowLimit = body.row_limit ?? ROW_LIMIT_DEFAULT
    const explain = body.explain === true
    const readOnly = explain || !can(c.var.project.role, 'projects:write')
    const ranAt = clock.now()
    try {
      const who = await claimsFor(c, deps, role, body.user_id)
      if ('missing' in who) return errorJson(c, 404, `No user with id ${body.user_id} in this project's auth.users`)
      let query = body.query
      if (explain) {
        const split = await splitStatements(body.query)
        if (!split.ok) throw new QueryRefused(split.error.message, { code: split.error.code, position: split.error.position })
        if (split.statements.length !== 1) return errorJson(c, 400, 'Explain takes one statement: select the statement to explain')
        query = `explain (format json) ${split.statements[0].text}`
      }
      const ran = await runProjectScript(projectDbs, c.var.project.ref, query, { readOnly, role, claims: who.claims, rowLimit })
      if (explain) {
        const plan = planOf(ran.results[0]?.rows[0]?.['QUERY PLAN'])
        return c.json({ results: [], plan, durationMs: ran.durationMs, readOnly, role, rowLimit } satisfies SqlRunResult)
      }
      await recordRun(db, { projectId: c.var.project.id, accountId: c.get('account').id, query, role, ranAt, durationMs: ran.durationMs, error: null })
      return c.json({ ...ran, role, rowLimit } satisfies SqlRunResult)
    } catch (err) {
      const answer = failure(c, err, timeoutMs)
      if (!explain) {
        const error = err instanceof Error ? err.message : 'The query failed'
        await recordRun(db, { projectId: c.var.project.id, accountId: c.get('account').id, query: body.query, role, ranAt, durationMs: null, error })
      }
      return answer
    }
  })

  app.on(...at(endpoints.sqlHistory), refParam, project, async (c) => {
    return c.json({ runs: await listRuns(db, c.var.project.id, c.get('account').id) })
  })

  app.on(...at(endpoints.sqlCompletions), refParam, project, async (c) => {
    const refused = notActive(c)
    if (refused) return refused
    try {
      return c.json((await projectDbs.transaction(c.var.project.ref, { readOnly: true }, completions)) satisfies SqlCompletions)
    } catch (err) {
      return failure(c, err, timeoutMs)
    }
  })

  app.on(...at(endpoints.sqlUsers), refParam, validate('query', endpoints.sqlUsers.query), project, async (c) => {
    const refused = notActive(c)
    if (refused) return refused
    const search = (c.req.valid('query').search ?? '').trim()
    try {
      const users = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, async (tx) => {
        const { rows } = await tx.query<{ id: string; email: string | null }>(
          `select id::text as id, email from auth.users
           where deleted_at is null and ($1 = '' or strpos(lower(coalesce(email, '')), lower($1)) > 0)
           order by created_at desc, id limit 50`,
          [search],
        )
        return rows
      })
      return c.json({ users } satisfies SqlUsers)
    } catch (err) {
      return failure(c, err, timeoutMs)
    }
  })

  return app
}
