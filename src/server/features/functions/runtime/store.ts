/** The SQL the runtime needs: a function's runnable version (files or body) and the project's secrets. */
import type { Queryable } from '../../../db'
import type { SecretBox } from '../../../core/sealed'

export interface RunnableFunction {
  id: string
  slug: string
  version: number
  verify_jwt: boolean
  entrypoint_path: string
  status: string
  body: string
}

export async function findRunnable(db: Queryable, projectId: number, slug: string): Promise<RunnableFunction | undefined> {
  const { rows } = await db.query<RunnableFunction>(
    `select id::text as id, slug, version, verify_jwt, entrypoint_path, status, body
     from edge_functions where project_id = $1 and slug = $2`,
    [projectId, slug],
  )
  return rows[0]
}

export async function functionFiles(db: Queryable, functionId: string): Promise<{ name: string; content: string }[]> {
  const { rows } = await db.query<{ name: string; content: string }>(
    'select name, content from edge_function_files where function_id = $1 order by name',
    [functionId],
  )
  return rows
}

/** Where a secret's sealed value belongs: a value moved to another project or name does not open. */
const secretContext = (projectId: number, name: string) => `project_secrets:${projectId}:${name}`

/**
 * The project's secrets in clear. A value stored before secrets were sealed is read as it is and sealed now, so the
 * store keeps no clear value past a project's first read.
 */
async function openSecrets<R extends { name: string; value: string }>(db: Queryable, projectId: number, rows: R[], box: SecretBox): Promise<R[]> {
  const opened: R[] = []
  for (const row of rows) {
    if (!box.isSealed(row.value)) {
      await db.query('update project_secrets set value = $3 where project_id = $1 and name = $2 and value = $4', [
        projectId,
        row.name,
        box.seal(row.value, secretContext(projectId, row.name)),
        row.value,
      ])
    }
    opened.push({ ...row, value: box.open(row.value, secretContext(projectId, row.name)) })
  }
  return opened
}

export async function secretValues(db: Queryable, projectId: number, box: SecretBox): Promise<Record<string, string>> {
  const { rows } = await db.query<{ name: string; value: string }>(
    'select name, value from project_secrets where project_id = $1 order by name',
    [projectId],
  )
  return Object.fromEntries((await openSecrets(db, projectId, rows, box)).map((r) => [r.name, r.value]))
}

export async function upsertSecrets(db: Queryable, projectId: number, secrets: { name: string; value: string }[], now: Date, box: SecretBox) {
  for (const { name, value } of secrets) {
    await db.query(
      `insert into project_secrets (project_id, name, value, updated_at) values ($1, $2, $3, $4)
       on conflict (project_id, name) do update set value = excluded.value, updated_at = excluded.updated_at`,
      [projectId, name, box.seal(value, secretContext(projectId, name)), now.toISOString()],
    )
  }
}

export async function deleteSecrets(db: Queryable, projectId: number, names: string[]): Promise<number> {
  const { rows } = await db.query<{ name: string }>(
    'delete from project_secrets where project_id = $1 and name = any($2::text[]) returning name',
    [projectId, names],
  )
  return rows.length
}

export async function secretRows(db: Queryable, projectId: number, box: SecretBox): Promise<{ name: string; value: string; updated_at: Date | string }[]> {
  const { rows } = await db.query<{ name: string; value: string; updated_at: Date | string }>(
    'select name, value, updated_at from project_secrets where project_id = $1 order by name',
    [projectId],
  )
  return openSecrets(db, projectId, rows, box)
}

/**
 * The project's anon and service_role keys, given to its functions as SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY,
 * and the JWT secret their database password derives from.
 */
export async function projectApiKeys(
  db: Queryable,
  projectId: number,
): Promise<{ anon_key: string; service_role_key: string; jwt_secret: string } | undefined> {
  const { rows } = await db.query<{ anon_key: string; service_role_key: string; jwt_secret: string }>(
    'select anon_key, service_role_key, jwt_secret from project_api_keys where project_id = $1',
    [projectId],
  )
  return rows[0]
}
