/**
 * Schema auth in a project database made before the template carried it: created the first time the auth service
 * opens that database (the statements are idempotent; a database from the template already has everything).
 */
import { AUTH_SCHEMA_SQL } from '../../projectdb/authSchema'
import { schemaOnce } from '../../projectdb/schemaOnce'
import { authSchemaPresent } from './store'

export const ensureAuthSchema = schemaOnce(authSchemaPresent, AUTH_SCHEMA_SQL)
