/**
 * A project's migration history where the CLI keeps it (`supabase db push` writes the same table over the Postgres
 * port): supabase_migrations.schema_migrations (version, statements, name), made as the CLI makes it.
 */
import type { ProjectTx } from '../../projectdb/types'

const HISTORY_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
alter table supabase_migrations.schema_migrations add column if not exists statements text[];
alter table supabase_migrations.schema_migrations add column if not exists name text;
`

export async function listMigrations(tx: ProjectTx): Promise<{ version: string; name?: string }[]> {
  const { rows: exists } = await tx.query<{ t: string | null }>(`select to_regclass('supabase_migrations.schema_migrations')::text as t`)
  if (!exists[0].t) return []
  const { rows } = await tx.query<{ version: string; name: string | null }>(
    `select version, name from supabase_migrations.schema_migrations order by version`,
  )
  return rows.map((r) => (r.name === null ? { version: r.version } : { version: r.version, name: r.name }))
}

/** `yyyymmddhhmmss` in UTC, the CLI's version format. */
function versionAt(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
}

/**
 * Runs the migration and records it in one transaction (a failure records nothing and leaves nothing); the version
 * is the time, moved on a second past the newest when that is taken.
 */
export async function applyMigration(tx: ProjectTx, m: { query: string; name?: string }, now: Date): Promise<string> {
  await tx.exec(HISTORY_SQL)
  await tx.exec(m.query)
  const { rows } = await tx.query<{ v: string | null }>(`select max(version) as v from supabase_migrations.schema_migrations`)
  let version = versionAt(now)
  const newest = rows[0].v
  if (newest && /^\d{14}$/.test(newest) && newest >= version) {
    const n = newest
    const next = new Date(Date.UTC(+n.slice(0, 4), +n.slice(4, 6) - 1, +n.slice(6, 8), +n.slice(8, 10), +n.slice(10, 12), +n.slice(12, 14)) + 1000)
    version = versionAt(next)
  }
  await tx.query(`insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)`, [
    version,
    [m.query],
    m.name ?? '',
  ])
  return version
}

/** One recorded migration with its statements; undefined when there is no such version (or no history at all). */
export async function findMigration(tx: ProjectTx, version: string): Promise<{ version: string; name?: string; statements: string[] } | undefined> {
  const { rows: exists } = await tx.query<{ t: string | null }>(`select to_regclass('supabase_migrations.schema_migrations')::text as t`)
  if (!exists[0].t) return undefined
  const { rows } = await tx.query<{ version: string; name: string | null; statements: string[] | null }>(
    `select version, name, statements from supabase_migrations.schema_migrations where version = $1`,
    [version],
  )
  const row = rows[0]
  if (!row) return undefined
  return { version: row.version, ...(row.name === null ? {} : { name: row.name }), statements: row.statements ?? [] }
}
