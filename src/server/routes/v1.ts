/** /v1: the Management API subset, shaped like ../shared/reference/management-api.openapi.json. */
import type { Hono } from 'hono'
import * as z from 'zod'
import type { ProjectStatus } from '../../contracts/common'
import { ProjectRef } from '../../contracts/common'
import type { V1ProjectWithDatabase } from '../../contracts/v1'
import type { Deps } from '../deps'
import { errorJson, validate, type AppEnv } from '../http'
import { findMemberProject, iso, listMemberProjects, type ProjectRow } from '../store'

const v1Status = (s: ProjectStatus): V1ProjectWithDatabase['status'] => (s === 'RESTORATION_FAILED' ? 'RESTORE_FAILED' : s)

export function toV1Project(row: ProjectRow, host: string): V1ProjectWithDatabase {
  return {
    id: row.ref,
    ref: row.ref,
    organization_id: String(row.organization_id),
    organization_slug: row.organization_slug,
    name: row.name,
    region: row.region,
    created_at: iso(row.inserted_at),
    status: v1Status(row.status),
    database: {
      host: `db.${row.ref}.${host}`,
      version: row.db_version,
      postgres_engine: row.db_version.split('.')[0],
      release_channel: 'ga',
    },
  }
}

export function registerV1Routes(app: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps
  // Informational host; a bare IP would read oddly after the ref.
  const hostOf = (url: string) => {
    const host = new URL(deps.config.publicUrl ?? url).hostname
    return /^[\d.]+$|:/.test(host) ? 'localhost' : host
  }

  app.get('/v1/projects', async (c) => {
    const rows = await listMemberProjects(db, c.get('account').id)
    const host = hostOf(c.req.url)
    return c.json(rows.map((r) => toV1Project(r, host)))
  })

  app.get('/v1/projects/:ref', validate('param', z.object({ ref: ProjectRef })), async (c) => {
    const row = await findMemberProject(db, c.get('account').id, c.req.valid('param').ref)
    if (!row) return errorJson(c, 404, 'Project not found')
    return c.json(toV1Project(row, hostOf(c.req.url)))
  })
}
