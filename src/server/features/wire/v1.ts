/**
 * The Management API's read of one migration of the CLI's history, for any member of the project's organization:
 *   GET /v1/projects/{ref}/database/migrations/{version}   V1GetMigrationResponse: its version, name and statements
 *                                                          (the history the CLI and POST …/database/migrations keep)
 *   GET /v1/projects/{ref}/database/jit/list               JitListAccessResponse: the Postgres port grants no
 *                                                          temporary access (its logins are the project's own roles,
 *                                                          by the database password), so there is none to list
 *   GET /v1/projects/{ref}/jit-access                      JitAccessResponse: `disabled`, for the same reason
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import { endpoint } from '../../../contracts/endpoint'
import { V1JitAccessConfig, V1JitAccessList, V1Migration } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { ProjectDbError } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive } from '../projects/access'
import { findMigration } from './migrations'

const v1GetMigration = endpoint('GET', 'v1', '/projects/:ref/database/migrations/:version', { response: V1Migration })
const v1ListJitAccess = endpoint('GET', 'v1', '/projects/:ref/database/jit/list', { response: V1JitAccessList })
const v1GetJitAccess = endpoint('GET', 'v1', '/projects/:ref/jit-access', { response: V1JitAccessConfig })
const VersionParam = z.object({ ref: ProjectRef, version: z.string().regex(/^\d{1,32}$/, 'version must be digits (the CLI writes yyyymmddhhmmss)') })

export function wireV1Routes({ db, projectDbs }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1GetMigration), validate('param', VersionParam), project, async (c) => {
    const { version } = c.req.valid('param')
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const found = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) => findMigration(tx, version))
      if (!found) return errorJson(c, 404, `Migration not found: the project's history has no version ${version}`)
      return c.json(found satisfies V1Migration)
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  })

  app.on(...at(v1ListJitAccess), refParam, project, (c) => c.json({ items: [] } satisfies V1JitAccessList))
  app.on(...at(v1GetJitAccess), refParam, project, (c) => c.json({ state: 'disabled' } satisfies V1JitAccessConfig))

  return app
}
