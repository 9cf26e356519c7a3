/** What a login to the Postgres port needs to know of a project (its password's verifier: projectdb/password.ts). */
import type { Queryable } from '../../db'

export interface WireProject {
  id: number
  ref: string
  status: string
  organization_id: number
  verifier: string | null
  /** For the functions' login, whose password derives from it (projectdb/password.ts). */
  jwt_secret: string | null
}

export async function findWireProject(db: Queryable, ref: string): Promise<WireProject | undefined> {
  const { rows } = await db.query<WireProject>(
    `select p.id, p.ref, p.status, p.organization_id, pw.verifier, k.jwt_secret
       from projects p left join project_db_passwords pw on pw.project_id = p.id
       left join project_api_keys k on k.project_id = p.id
      where p.ref = $1`,
    [ref],
  )
  return rows[0]
}
