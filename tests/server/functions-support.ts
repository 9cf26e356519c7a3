/** What the function tests share: a function put straight into the store, replacing one of the same slug. */
import { insertFunction } from '../../src/server/features/functions/store'
import type { Queryable } from '../../src/server/db'

export async function deployFunction(db: Queryable, projectId: number, slug: string, body: string, options: { verifyJwt?: boolean; now?: Date } = {}) {
  await db.query('delete from edge_functions where project_id = $1 and slug = $2', [projectId, slug])
  const row = await insertFunction(db, {
    projectId,
    slug,
    name: slug,
    body,
    verifyJwt: options.verifyJwt ?? false,
    importMap: false,
    entrypointPath: 'index.ts',
    importMapPath: null,
    now: options.now ?? new Date(),
  })
  if (!row) throw new Error(`could not insert ${slug}`)
  return row
}
