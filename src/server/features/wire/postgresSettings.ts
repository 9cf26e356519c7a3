/**
 * The Postgres settings a project may change through `PUT /v1/projects/{ref}/config/database/postgres`, the
 * platform's range for each, and how a change reaches the project's database.
 *
 * A change is a database-level setting (`ALTER DATABASE … SET`), which every new session of that database starts
 * with and a session may still override for itself:
 *  - PostgreSQL: run by the platform's own connection (DATABASE_URL's user, the database's owner). The project's
 *    login role owns no database, so it can neither undo it nor set one of its own; what it sets on its own role is
 *    reset each time the platform opens the database (projectdb/postgres.ts).
 *  - PGlite: its single-user start reads no database-level settings, so the platform keeps them in the project's
 *    folder and adds them to its configuration at each start (the project's SQL cannot write files there).
 * Either way the platform's open session of the database is closed, so its next use starts with them.
 * Only settings a database can take (context 'user') and that change something on that engine are offered; the rest
 * of the contract's list is server-wide (shared by every project), for replication (which a project's roles may not
 * do), or a superuser's. A body may still name those with the value the engine has (the CLI sends the whole config
 * back): only a different value is refused.
 */

import type { ProjectDatabases } from '../../projectdb/types'

/** How a setting's value is written: an amount of memory, a duration, or a plain count. */
type Family = 'memory' | 'time' | 'count'

export interface SettableSetting {
  family: Family
  /** The setting's base unit in kB (memory) or ms (time); 1 for counts. */
  base: number
  /** The platform's range, in base units (inclusive). */
  min: number
  max: number
  /** Why PGlite does not take it (undefined: it does). */
  notOnPglite?: string
}

const KB = 1
const MB = 1024
const GB = 1024 * 1024

export const SETTABLE: Record<string, SettableSetting> = {
  work_mem: { family: 'memory', base: KB, min: 64, max: 1 * GB },
  maintenance_work_mem: { family: 'memory', base: KB, min: 1 * MB, max: 1 * GB },
  // Counted in 8 kB pages: from 1 MB to 64 GB.
  effective_cache_size: { family: 'memory', base: 8 * KB, min: 128, max: 8 * 1024 * 1024 },
  // Never 0 (no time-out): every statement on the platform stays bounded.
  statement_timeout: {
    family: 'time',
    base: 1,
    min: 1,
    max: 60 * 60 * 1000,
    notOnPglite: 'PGlite cannot interrupt a statement: the platform stops one past its own query time-out by ending the session',
  },
  max_parallel_workers: { family: 'count', base: 1, min: 0, max: 8, notOnPglite: 'PGlite runs no background workers (max_worker_processes is 0)' },
  max_parallel_workers_per_gather: { family: 'count', base: 1, min: 0, max: 8, notOnPglite: 'PGlite runs no background workers (max_worker_processes is 0)' },
  max_parallel_maintenance_workers: { family: 'count', base: 1, min: 0, max: 8, notOnPglite: 'PGlite runs no background workers (max_worker_processes is 0)' },
}

/** Why a setting of the contract that is not in SETTABLE cannot be changed, on either engine. */
export function whyNotSettable(name: string, engine: 'pglite' | 'postgres'): string {
  if (name === 'logical_decoding_work_mem' || name === 'wal_sender_timeout') return "it applies to replication, which a project's roles may not do"
  if (name === 'session_replication_role') return "a superuser's setting: it would switch off the project's triggers and foreign keys"
  const setting = SETTABLE[name]
  if (setting?.notOnPglite && engine === 'pglite') return setting.notOnPglite
  return engine === 'pglite' ? "fixed by the platform's template for every project's engine" : 'set for the whole server, which every project shares'
}

/** The settings this engine takes, in the order of SETTABLE. */
export function settableOn(engine: 'pglite' | 'postgres'): string[] {
  return Object.entries(SETTABLE)
    .filter(([, s]) => engine === 'postgres' || !s.notOnPglite)
    .map(([name]) => name)
}

/** Units and their size in kB / ms, largest first (how Postgres picks the unit it prints). */
const UNITS: Record<'memory' | 'time', [string, number][]> = {
  memory: [
    ['TB', 1024 * GB],
    ['GB', GB],
    ['MB', MB],
    ['kB', KB],
    ['B', 1 / 1024],
  ],
  time: [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1000],
    ['ms', 1],
    ['us', 0.001],
  ],
}

const AMOUNT = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*$/

/** The value in the setting's base units (rounded as Postgres rounds), or why it is not one. */
export function parseSetting(name: string, value: unknown): { value: number } | { error: string } {
  const s = SETTABLE[name]
  if (s.family === 'count') {
    if (typeof value !== 'number' || !Number.isInteger(value)) return { error: `${name} must be an integer` }
    return { value }
  }
  const m = typeof value === 'string' ? AMOUNT.exec(value) : null
  if (!m) return { error: `${name} must be a number with an optional unit (${UNITS[s.family].map(([u]) => u).join(', ')})` }
  const [, amount, unit] = m
  const size = unit ? UNITS[s.family].find(([u]) => u === unit)?.[1] : s.base
  if (size === undefined) return { error: `${name}: unknown unit ${JSON.stringify(unit)} (one of ${UNITS[s.family].map(([u]) => u).join(', ')})` }
  return { value: Math.round((Number(amount) * size) / s.base) }
}

/** As SHOW prints it: the largest unit the amount is a whole number of. */
export function formatSetting(name: string, baseUnits: number): string | number {
  const s = SETTABLE[name]
  if (s.family === 'count') return baseUnits
  const amount = baseUnits * s.base
  if (amount === 0) return '0'
  for (const [unit, size] of UNITS[s.family]) {
    if (size >= 1 && amount % size === 0) return `${amount / size}${unit}`
  }
  return `${amount}${s.family === 'memory' ? 'kB' : 'ms'}`
}

/** The range as a sentence ("from 64kB to 1GB"). */
export function rangeOf(name: string): string {
  const s = SETTABLE[name]
  return `from ${formatSetting(name, s.min)} to ${formatSetting(name, s.max)}`
}

/** Sets them on the project's database (projectdb's setDatabaseSettings: on each engine, see there). */
export async function applyToDatabase(projectDbs: ProjectDatabases, ref: string, settings: Record<string, string | number>): Promise<void> {
  if (!projectDbs.setDatabaseSettings) throw new Error('this engine sets no database settings')
  await projectDbs.setDatabaseSettings(ref, Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, String(value)])))
}
