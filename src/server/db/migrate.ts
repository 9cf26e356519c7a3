import type { Db, Queryable } from './types'
import m001 from './migrations/001_initial'
import m002 from './migrations/002_status_changed_at'
import m003 from './migrations/003_pause_restore'
import m004 from './migrations/004_upgrades_usage'
import m005 from './migrations/005_api_keys'
import m006 from './migrations/006_dev_switches'
import m007 from './migrations/007_accounts_hardening'
import m008 from './migrations/008_sessions'
import m009 from './migrations/009_project_databases'
import m010 from './migrations/010_storage_functions'
import m011 from './migrations/011_github'
import m012 from './migrations/012_members'
import m013 from './migrations/013_org_settings_ai'
import m014 from './migrations/014_usage_measured'
import m015 from './migrations/015_project_settings_support'
import m016 from './migrations/016_branching'
import m017 from './migrations/017_verified_emails_token_expiry'
import m018 from './migrations/018_transition_claims'
import m019 from './migrations/019_project_auth'
import m020 from './migrations/020_database_password'
import m021 from './migrations/021_function_runtime'
import m022 from './migrations/022_realtime'
import m023 from './migrations/023_snippets'
import m024 from './migrations/024_project_auth_more'
import m026 from './migrations/026_database_settings'
import m027 from './migrations/027_realtime_presence_keys'
import m028 from './migrations/028_postgres_settings'
import m031 from './migrations/031_platform_processes'
import m032 from './migrations/032_function_usage'
import m033 from './migrations/033_wire_processes'
import m035 from './migrations/035_auth_mailbox_whatsapp'
import m037 from './migrations/037_demo_functions_fixed'
import m039 from './migrations/039_usage_hourly'
import m042 from './migrations/042_function_logs'

/** Ordered; never edit an applied one, add the next. */
export const migrations: { id: string; sql: string }[] = [
  { id: '001_initial', sql: m001 },
  { id: '002_status_changed_at', sql: m002 },
  { id: '003_pause_restore', sql: m003 },
  { id: '004_upgrades_usage', sql: m004 },
  { id: '005_api_keys', sql: m005 },
  { id: '006_dev_switches', sql: m006 },
  { id: '007_accounts_hardening', sql: m007 },
  { id: '008_sessions', sql: m008 },
  { id: '009_project_databases', sql: m009 },
  { id: '010_storage_functions', sql: m010 },
  { id: '011_github', sql: m011 },
  { id: '012_members', sql: m012 },
  { id: '013_org_settings_ai', sql: m013 },
  { id: '014_usage_measured', sql: m014 },
  { id: '015_project_settings_support', sql: m015 },
  { id: '016_branching', sql: m016 },
  { id: '017_verified_emails_token_expiry', sql: m017 },
  { id: '018_transition_claims', sql: m018 },
  { id: '019_project_auth', sql: m019 },
  { id: '020_database_password', sql: m020 },
  { id: '021_function_runtime', sql: m021 },
  { id: '022_realtime', sql: m022 },
  { id: '023_snippets', sql: m023 },
  { id: '024_project_auth_more', sql: m024 },
  { id: '026_database_settings', sql: m026 },
  { id: '027_realtime_presence_keys', sql: m027 },
  { id: '028_postgres_settings', sql: m028 },
  { id: '031_platform_processes', sql: m031 },
  { id: '032_function_usage', sql: m032 },
  { id: '033_wire_processes', sql: m033 },
  { id: '035_auth_mailbox_whatsapp', sql: m035 },
  { id: '037_demo_functions_fixed', sql: m037 },
  { id: '039_usage_hourly', sql: m039 },
  { id: '042_function_logs', sql: m042 },
]

/** Arbitrary constant: serialises concurrent starts of several processes on one database. */
const MIGRATION_LOCK_KEY = 7_262_021_001

/**
 * Applies pending migrations inside one transaction under an advisory lock, then runs `after`
 * (the demo data) in the same transaction with the ids just applied, so a second process starting at the
 * same time waits and then finds everything done.
 */
export async function migrate(db: Db, after?: (tx: Queryable, applied: string[]) => Promise<void>): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY])
    await tx.exec(`create table if not exists schema_migrations (
      id text primary key, applied_at timestamptz not null default now())`)
    const { rows } = await tx.query<{ id: string }>('select id from schema_migrations')
    const done = new Set(rows.map((r) => r.id))
    const applied: string[] = []
    for (const m of migrations) {
      if (done.has(m.id)) continue
      await tx.exec(m.sql)
      await tx.query('insert into schema_migrations (id) values ($1)', [m.id])
      applied.push(m.id)
    }
    if (after) await after(tx, applied)
    return applied
  })
}
