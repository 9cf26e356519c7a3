/**
 * A platform store already migrated and seeded with the demo data, made once per test run by the global setup and
 * copied by each test file that starts a server with the default settings: the migrations and the seed are the same
 * for every such file, and on PGlite they cost more than the rest of a short file.
 *
 * The seed writes its clock's time (creation dates, the due times of demo projects that are coming up or pausing), so
 * a file that starts from the snapshot gets a FakeClock set to the time the snapshot was seeded: its store and its
 * clock agree as they do for a freshly seeded one. That time lies at most one run in the past. Where real time still
 * meets the clock (the gateway reads a token's expiry against real time, the server signs it with its clock), a token
 * must outlive that: an auth session's hour does; a file whose server signs shorter ones brings a clock of its own.
 *
 * Only the settings the migrations and the seed read make a store differ (the lifecycle durations a demo project's
 * entry schedules, the password hash cost): a file whose settings differ there starts from an empty store as before.
 * storeSnapshot.test.ts seeds with every other lifecycle duration changed and finds the same store.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createApp } from '../../src/server/app'
import type { ServerConfig } from '../../src/server/config'
import type { Db } from '../../src/server/db'
import { createStorePglite, wrapPglite } from '../../src/server/db/pglite'
import { openPostgres } from '../../src/server/db/postgres'
import { FakeClock, pgliteTemplate, testConfig } from './testConfig'

export interface StoreSnapshot {
  /** The settings the snapshot was seeded with (snapshotKey). */
  key: string
  /** The seed's clock time, in ms: the FakeClock of a file that starts from it. */
  seededAt: number
  /**
   * PGlite: the seeded data folder, which a test file copies and opens where it lies. Loading a dump instead (PGlite
   * unpacks it into its in-memory file system) cost a third more of a core at each open: 0.9 s against 0.6.
   */
  folder?: string
  /** PostgreSQL: a database to copy with CREATE DATABASE … TEMPLATE. */
  database?: string
}

/**
 * The lifecycle durations the demo projects' entries schedule with: a project coming up, and the transitions of the
 * projects going down, pausing and restoring (held, so cancelled, but their due times stay in the store).
 */
export const SEEDED_DURATIONS = ['comingUpMs', 'goingDownMs', 'pausingMs', 'restoringMs'] as const

/** What the migrations and the seed read from the settings. */
export function snapshotKey(config: ServerConfig): string {
  const lifecycle = Object.fromEntries(SEEDED_DURATIONS.map((name) => [name, config.lifecycle[name]]))
  return createHash('sha256').update(JSON.stringify({ lifecycle, passwordHashCost: config.passwordHashCost })).digest('hex')
}

async function seed(open: () => Promise<Db>, dataDir: string, databaseUrl?: string) {
  const clock = new FakeClock()
  const config = testConfig({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) })
  const db = await open()
  const server = await createApp({ db, config, clock })
  await server.close()
  return { db, clock, config }
}

/** PGlite: seeds a store in the data folder `dir/store`. */
export async function pgliteSnapshot(dir: string): Promise<StoreSnapshot> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-snapshot-'))
  try {
    const folder = path.join(dir, 'store')
    const pglite = await createStorePglite(folder, { loadDataDir: await pgliteTemplate() })
    const { clock, config } = await seed(async () => wrapPglite(pglite), dataDir)
    await pglite.close()
    return { key: snapshotKey(config), seededAt: clock.ms, folder }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** PostgreSQL: seeds a database on the test server, left without connections so that it can be copied. */
export async function postgresSnapshot(baseUrl: string): Promise<StoreSnapshot> {
  const database = `kp_snapshot_${process.pid}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${database} with (force)`)
  await admin.query(`create database ${database}`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-snapshot-'))
  try {
    const { db, clock, config } = await seed(async () => openPostgres(url.toString(), 2), dataDir, url.toString())
    await db.close()
    return { key: snapshotKey(config), seededAt: clock.ms, database }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
