/**
 * Global setup of the `server-postgres` vitest project: a real PostgreSQL server for the server tests.
 * DATABASE_URL set → used as is (each test file creates its own database on it).
 * Otherwise a throw-away cluster from Debian's PostgreSQL 15 binaries on a free port, deleted afterwards.
 * Then the run's seeded store (storeSnapshot.ts), a database the test files copy.
 */
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { hasPostgres, PG_BIN, startPgCluster } from './pgCluster'
import { snapshotBuilders } from './snapshotBuilders'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL
    project.provide('databaseUrl', url)
    const { postgresSnapshot } = await snapshotBuilders()
    const snapshot = await postgresSnapshot(url)
    project.provide('storeSnapshot', snapshot)
    return async () => {
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`drop database if exists ${snapshot.database} with (force)`)
      await admin.end()
    }
  }
  if (!hasPostgres()) {
    throw new Error(
      `server-postgres: no DATABASE_URL and no PostgreSQL binaries in ${PG_BIN}. ` +
        'Install them (apt-get install -y postgresql-15) or set DATABASE_URL to a server where the user may CREATE DATABASE.',
    )
  }
  // The builders load (if no other setup has loaded them yet) while the cluster starts in processes of its own.
  const builders = snapshotBuilders()
  builders.catch(() => {}) // awaited below, once the cluster is up
  const cluster = await startPgCluster().catch((err: Error) => {
    throw new Error(`server-postgres: ${err.message}`)
  })
  try {
    const { postgresSnapshot } = await builders
    project.provide('databaseUrl', cluster.url)
    project.provide('storeSnapshot', await postgresSnapshot(cluster.url))
  } catch (err) {
    // No teardown is registered for a setup that failed: the cluster's processes would outlive the run.
    await cluster.stop()
    throw err
  }
  return async () => cluster.stop()
}
