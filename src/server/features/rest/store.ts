/** The REST feature's SQL on the platform's store. */
import type { Deps } from '../../core/deps'

/**
 * The project's REST settings (the Management API's PATCH /v1/projects/{ref}/postgrest writes them): the schemas
 * served and the row cap; without a row, schema public and REST_MAX_ROWS.
 */
export async function restSettings(deps: Pick<Deps, 'db' | 'config'>, projectId: number): Promise<{ schemas: string[]; maxRows: number }> {
  const { rows } = await deps.db.query<{ db_schema: string; max_rows: number }>(
    'select db_schema, max_rows from project_postgrest_config where project_id = $1',
    [projectId],
  )
  if (!rows[0]) return { schemas: ['public'], maxRows: deps.config.restMaxRows }
  return { schemas: rows[0].db_schema.split(',').filter(Boolean), maxRows: rows[0].max_rows }
}
