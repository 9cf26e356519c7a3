/**
 * The Database section's objects and Policies, for a project's members.
 *   GET  /platform/projects/{ref}/database/objects/schemas            the schemas (Postgres's own left out)
 *   GET  /platform/projects/{ref}/database/objects/{kind}?schema=     functions, triggers, types (enums), indexes,
 *        policies (each table's RLS state and policies) of one schema (public unless told); extensions, roles,
 *        publications of the database
 *   POST /platform/projects/{ref}/database/objects/preview            a described change → the SQL it runs
 *   POST /platform/projects/{ref}/database/objects/apply              the same SQL, run by the SQL runner
 * Reads run in a read-only transaction as the project's own role. A change runs through the SQL Editor's guarded
 * runner (one transaction, the project's own role, its time-out) and takes `projects:write`: a Read-only member gets
 * 403. Failures answer as the SQL Editor's do (400 with the Postgres error, 408 past the time-out, 409 when the
 * project is not ACTIVE_HEALTHY).
 */
import { Hono, type Context } from 'hono'
import type { ChangeApplied, ChangePreview, ObjectChange, ObjectKind } from '../../../../contracts/databaseObjects'
import * as endpoints from '../../../../contracts/endpoints/databaseObjects'
import type { Deps } from '../../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../../core/http'
import { can } from '../../../core/permissions'
import type { ProjectTx } from '../../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../../projects/access'
import { failure } from '../routes'
import { runProjectQuery } from '../run'
import { ChangeRefused, changeSql } from './sql'
import {
  functionSignature, listExtensions, listFunctions, listIndexes, listPolicies, listPublications, listRoles, listSchemas,
  listTriggers, listTypes,
} from './store'

const PER_SCHEMA = {
  functions: [endpoints.listDatabaseFunctions, listFunctions],
  triggers: [endpoints.listDatabaseTriggers, listTriggers],
  types: [endpoints.listDatabaseTypes, listTypes],
  indexes: [endpoints.listDatabaseIndexes, listIndexes],
  policies: [endpoints.listDatabasePolicies, listPolicies],
} as const satisfies Partial<Record<ObjectKind, unknown>>

const WHOLE_DATABASE = {
  extensions: [endpoints.listDatabaseExtensions, listExtensions],
  roles: [endpoints.listDatabaseRoles, listRoles],
  publications: [endpoints.listDatabasePublications, listPublications],
} as const satisfies Partial<Record<ObjectKind, unknown>>

export function databaseObjectRoutes({ db, projectDbs, config }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const timeoutMs = config.projectDb.queryTimeoutMs

  /** A read of the catalog: its answer, or the answer to its failure. */
  async function read<T>(c: Context<MemberProjectEnv>, fn: (tx: ProjectTx) => Promise<T>) {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      return c.json(await projectDbs.transaction(c.var.project.ref, { readOnly: true }, fn))
    } catch (err) {
      return failure(c, err, timeoutMs)
    }
  }

  app.on(...at(endpoints.listDatabaseSchemas), refParam, project, (c) => read(c, listSchemas))

  for (const [e, list] of Object.values(PER_SCHEMA)) {
    app.on(...at(e), refParam, validate('query', e.query), project, (c) => {
      const schema = c.req.valid('query').schema ?? 'public'
      return read(c, (tx) => (list as (tx: ProjectTx, schema: string) => Promise<unknown>)(tx, schema))
    })
  }
  for (const [e, list] of Object.values(WHOLE_DATABASE)) {
    app.on(...at(e), refParam, project, (c) => read(c, list as (tx: ProjectTx) => Promise<unknown>))
  }

  /** The change's SQL, or the answer refusing it (a routine to drop is looked up by its id first). */
  async function sqlOf(c: Context<MemberProjectEnv>, change: ObjectChange): Promise<{ sql: string } | { response: Response }> {
    try {
      const routine =
        change.action === 'function.drop'
          ? await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) => functionSignature(tx, change.id))
          : undefined
      return { sql: changeSql(change, routine) }
    } catch (err) {
      if (err instanceof ChangeRefused) return { response: errorJson(c, err.status, err.message) }
      return { response: failure(c, err, timeoutMs) }
    }
  }

  app.on(...at(endpoints.previewDatabaseChange), refParam, validate('json', endpoints.previewDatabaseChange.body), project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    const built = await sqlOf(c, c.req.valid('json'))
    if ('response' in built) return built.response
    return c.json({ sql: built.sql } satisfies ChangePreview)
  })

  app.on(...at(endpoints.applyDatabaseChange), refParam, validate('json', endpoints.applyDatabaseChange.body), project, async (c) => {
    if (!can(c.var.project.role, 'projects:write')) {
      return errorJson(c, 403, 'A Read-only member cannot change the database')
    }
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    const built = await sqlOf(c, c.req.valid('json'))
    if ('response' in built) return built.response
    try {
      const ran = await runProjectQuery(projectDbs, c.var.project.ref, built.sql, { readOnly: false })
      return c.json({ sql: built.sql, command: ran.command } satisfies ChangeApplied)
    } catch (err) {
      return failure(c, err, timeoutMs)
    }
  })

  return app
}
