/** A project in the Management API's shape (../shared/reference/management-api.openapi.json). */
import type { ProjectStatus } from '../../../contracts/common'
import type { V1ProjectWithDatabase } from '../../../contracts/v1'
import { iso } from '../../core/rows'
import type { ProjectRow } from './store'

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
