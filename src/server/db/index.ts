import type { ServerConfig } from '../config'
import { openPglite } from './pglite'
import { openPostgres } from './postgres'
import type { Db } from './types'

export type { Db, Queryable } from './types'

/** PGlite in DATA_DIR, or PostgreSQL when DATABASE_URL is set. */
export async function openDb(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<Db> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir)
}
