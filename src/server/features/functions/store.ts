/** The SQL of edge functions (table edge_functions, migration 010) and the mapping of a row to FunctionResponse. */
import { randomUUID } from 'node:crypto'
import type { FunctionResponse } from '../../../contracts/functions'
import type { Queryable } from '../../db'
import { iso } from '../../core/rows'

export interface FunctionRow {
  id: string
  slug: string
  name: string
  status: FunctionResponse['status']
  version: number
  verify_jwt: boolean
  import_map: boolean
  entrypoint_path: string
  import_map_path: string | null
  created_at: Date | string
  updated_at: Date | string
}

/** Every column but the source body, which no answer carries. */
const columns = `id::text as id, slug, name, status, version, verify_jwt, import_map, entrypoint_path, import_map_path,
  created_at, updated_at`

const ms = (value: Date | string) => new Date(iso(value)).getTime()

export function toFunctionResponse(row: FunctionRow): FunctionResponse {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status,
    version: row.version,
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
    verify_jwt: row.verify_jwt,
    import_map: row.import_map,
    entrypoint_path: row.entrypoint_path,
    ...(row.import_map_path === null ? {} : { import_map_path: row.import_map_path }),
  }
}

/** The project's functions, oldest first. */
export async function listFunctions(db: Queryable, projectId: number): Promise<FunctionRow[]> {
  const { rows } = await db.query<FunctionRow>(
    `select ${columns} from edge_functions where project_id = $1 order by created_at, slug`,
    [projectId],
  )
  return rows
}

export async function findFunction(db: Queryable, projectId: number, slug: string): Promise<FunctionRow | undefined> {
  const { rows } = await db.query<FunctionRow>(`select ${columns} from edge_functions where project_id = $1 and slug = $2`, [
    projectId,
    slug,
  ])
  return rows[0]
}

export interface NewFunction {
  projectId: number
  slug: string
  name: string
  body: string
  verifyJwt: boolean
  importMap: boolean
  entrypointPath: string
  importMapPath: string | null
  now: Date
}

/** Inserts version 1 of a function; undefined when the project already has one with this slug. */
export async function insertFunction(db: Queryable, f: NewFunction): Promise<FunctionRow | undefined> {
  const { rows } = await db.query<FunctionRow>(
    `insert into edge_functions (id, project_id, slug, name, verify_jwt, import_map, entrypoint_path, import_map_path, body,
       created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
     on conflict (project_id, slug) do nothing
     returning ${columns}`,
    [randomUUID(), f.projectId, f.slug, f.name, f.verifyJwt, f.importMap, f.entrypointPath, f.importMapPath, f.body, f.now.toISOString()],
  )
  return rows[0]
}

/** Deletes the function; its id, or undefined when there was none. */
export async function deleteFunction(db: Queryable, projectId: number, slug: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'delete from edge_functions where project_id = $1 and slug = $2 returning id::text as id',
    [projectId, slug],
  )
  return rows[0]?.id
}
