/**
 * The Management API's read of what a project's database holds, for any member of the project's organization:
 *   GET /v1/projects/{ref}/database/context   GetProjectDbMetadataResponse: the database clients connect to
 *                                             (`postgres`, as the connection strings name it) and its schemas, by name,
 *                                             without Postgres's own (pg_*, information_schema)
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1DatabaseContext } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { at, type AppEnv } from '../../core/http'
import { ProjectDbError } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive } from '../projects/access'

const v1GetDatabaseContext = endpoint('GET', 'v1', '/projects/:ref/database/context', { response: V1DatabaseContext })

export function databaseV1Routes({ db, projectDbs }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1GetDatabaseContext), refParam, project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const { rows } = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) =>
        tx.query<{ name: string }>(
          `select nspname as name from pg_namespace
           where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by nspname`,
        ),
      )
      return c.json({ databases: [{ name: 'postgres', schemas: rows.map((r) => ({ name: r.name })) }] } satisfies V1DatabaseContext)
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  })

  return app
}
