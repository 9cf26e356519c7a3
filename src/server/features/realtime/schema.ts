/**
 * Schema realtime in a project database made before the template carried it: created the first time the realtime
 * service opens that database (the statements are idempotent; a database from the template already has everything).
 */
import { REALTIME_SCHEMA_SQL } from '../../projectdb/realtimeSchema'
import { schemaOnce } from '../../projectdb/schemaOnce'
import { realtimeSchemaPresent } from './store'

export const ensureRealtimeSchema = schemaOnce(realtimeSchemaPresent, REALTIME_SCHEMA_SQL)
