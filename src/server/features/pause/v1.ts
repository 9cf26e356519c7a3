/**
 * The Management API's read of what a restore brings back, for any member of the project's organization:
 *   GET /v1/projects/{ref}/restore   GetProjectAvailableRestoreVersionsResponse: a paused (INACTIVE)
 *                                    project is restored onto the Postgres it ran before (POST …/restore offers no
 *                                    choice), so that one version, on the general release channel; any other status
 *                                    has nothing to restore, and neither has an engine the contract cannot name (its
 *                                    postgres_engine lists 13, 14, 15 and 17: PGlite's 18 is not among them)
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1RestoreEngine, V1RestoreVersions } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, type AppEnv } from '../../core/http'
import { memberProject, refParam } from '../projects/access'

const v1ListRestoreVersions = endpoint('GET', 'v1', '/projects/:ref/restore', { response: V1RestoreVersions })

export function pauseV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1ListRestoreVersions), refParam, project, (c) => {
    const { status, db_version: version } = c.var.project
    const engine = V1RestoreEngine.safeParse(version.split('.')[0])
    const available_versions = status === 'INACTIVE' && engine.success ? [{ version, release_channel: 'ga' as const, postgres_engine: engine.data }] : []
    return c.json({ available_versions } satisfies V1RestoreVersions)
  })

  return app
}
