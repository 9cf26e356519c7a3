/**
 * A project's database password (the one the Postgres port checks, features/wire): kept only as a SCRAM-SHA-256
 * verifier (RFC 5803, `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, as PostgreSQL keeps one in
 * pg_authid), from which the password cannot be read back. Set when a project is created with one, replaced by a reset.
 */
import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import type { Queryable } from '../db'

const pbkdf2Async = promisify(pbkdf2)

/** PostgreSQL's default (scram_iterations). */
export const SCRAM_ITERATIONS = 4096

export async function scramVerifier(password: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const salted = await pbkdf2Async(password.normalize('NFKC'), salt, SCRAM_ITERATIONS, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}

/** Sets (or replaces) the project's database password; only its verifier is kept. */
export async function setDatabasePassword(db: Queryable, projectId: number, password: string, now: Date): Promise<void> {
  const verifier = await scramVerifier(password)
  await db.query(
    `insert into project_db_passwords (project_id, verifier, updated_at) values ($1, $2, $3)
     on conflict (project_id) do update set verifier = excluded.verifier, updated_at = excluded.updated_at`,
    [projectId, verifier, now.toISOString()],
  )
}

/**
 * The login name and password a project's edge functions reach its database with (their SUPABASE_DB_URL): the
 * project owner's rights, under a name of its own so the password the port checks is not the one a person sets.
 * The password is derived from the project's JWT secret, so it needs no storage of its own, is never shown, and
 * changes when the secret is rotated (the functions' workers restart with the new one).
 */
export const FUNCTIONS_DB_LOGIN = 'edge_functions'

export function functionsDbPassword(jwtSecret: string, ref: string): string {
  return createHmac('sha256', jwtSecret).update(`functions-database\0${ref}`).digest('base64url')
}

/** The SCRAM verifier of that password; its salt is derived too, so the same secret always gives the same one. */
export async function functionsDbVerifier(jwtSecret: string, ref: string): Promise<string> {
  const salt = createHmac('sha256', jwtSecret).update(`functions-database-salt\0${ref}`).digest().subarray(0, 16)
  return scramVerifier(functionsDbPassword(jwtSecret, ref), salt)
}
