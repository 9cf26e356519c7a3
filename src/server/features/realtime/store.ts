/**
 * The SQL of the realtime service. In the platform store: each project's limits (project_realtime_config) and its
 * daily figures (realtime_usage_daily). In the project's own database, each in the transaction it is given (the
 * caller decides its role and claims): the tables a postgres_changes subscription covers and their change capture
 * trigger, and the probes that ask row level security whether a caller may see a changed row or use a private
 * channel.
 */
import type { RealtimeConfig, RealtimeConfigUpdate } from '../../../contracts/realtime'
import { quoteIdent } from '../../core/sql'
import type { Queryable } from '../../db'
import type { ProjectTx } from '../../projectdb/types'
import { REALTIME_DEFAULTS } from './limits'

// ---- the platform store --------------------------------------------------------------------------------------------

const CONFIG_COLUMNS = Object.keys(REALTIME_DEFAULTS) as (keyof RealtimeConfig)[]

export async function readRealtimeConfig(db: Queryable, projectId: number): Promise<RealtimeConfig> {
  const { rows } = await db.query<Partial<Record<keyof RealtimeConfig, unknown>>>(
    `select ${CONFIG_COLUMNS.join(', ')} from project_realtime_config where project_id = $1`,
    [projectId],
  )
  const row = rows[0] ?? {}
  const out = { ...REALTIME_DEFAULTS } as Record<string, unknown>
  for (const k of CONFIG_COLUMNS) if (row[k] !== null && row[k] !== undefined) out[k] = row[k]
  return out as RealtimeConfig
}

export async function saveRealtimeConfig(db: Queryable, projectId: number, patch: RealtimeConfigUpdate): Promise<void> {
  const keys = CONFIG_COLUMNS.filter((k) => k in patch)
  if (keys.length === 0) return
  const values = keys.map((k) => (patch as Record<string, unknown>)[k] ?? null)
  await db.query(
    `insert into project_realtime_config (project_id, ${keys.join(', ')}, updated_at) values ($1, ${keys.map((_, i) => `$${i + 2}`).join(', ')}, now())
     on conflict (project_id) do update set ${keys.map((k) => `${k} = excluded.${k}`).join(', ')}, updated_at = now()`,
    [projectId, ...values],
  )
}

/** Adds a day's messages to the project's figure and raises its peak of open sockets. */
export async function addDailyUsage(db: Queryable, u: { projectId: number; day: string; messages: number; peak: number }): Promise<void> {
  await db.query(
    `insert into realtime_usage_daily (project_id, day, messages, peak_connections) values ($1, $2, $3, $4)
     on conflict (project_id, day) do update set messages = realtime_usage_daily.messages + excluded.messages,
       peak_connections = greatest(realtime_usage_daily.peak_connections, excluded.peak_connections)`,
    [u.projectId, u.day, u.messages, u.peak],
  )
}

// ---- postgres_changes: tables and their change capture --------------------------------------------------------------

const CAPTURE_TRIGGER = 'supabase_realtime_capture'

/**
 * The tables a subscription covers: `table` in `schema` ('*': any), or without a table every table there (the
 * trigger announces a change only while its table is in the publication `supabase_realtime`, so a table published
 * later is covered from that moment). With `missingOnly`, only those without the capture trigger yet. The
 * platform's own schemas never; the project role's own tables only (it cannot put a trigger on another's).
 */
export async function subscribedTables(tx: ProjectTx, schema: string, table: string | null, missingOnly = false): Promise<{ schema: string; table: string }[]> {
  const { rows } = await tx.query<{ schema: string; table: string }>(
    `select n.nspname as schema, c.relname as table from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and ($1 = '*' or n.nspname = $1) and ($2::text is null or c.relname = $2)
       and n.nspname not in ('pg_catalog', 'information_schema', 'realtime', 'auth', 'storage') and n.nspname not like 'pg\\_%'
       and ($2::text is not null or pg_catalog.pg_has_role(c.relowner, 'USAGE'))
       and (not $3 or not exists (select from pg_catalog.pg_trigger tg where tg.tgrelid = c.oid and tg.tgname = '${CAPTURE_TRIGGER}'))`,
    [schema, table, missingOnly],
  )
  return rows
}

/** Puts the change capture trigger on the table (kept when there: `create or replace`). */
export async function installCaptureTrigger(tx: ProjectTx, schema: string, table: string): Promise<void> {
  await tx.query(
    `create or replace trigger ${CAPTURE_TRIGGER} after insert or update or delete on ${quoteIdent(schema)}.${quoteIdent(table)} for each row execute function realtime.capture_change()`,
  )
}

export interface TableColumn {
  name: string
  type: string
  /** The table is under row level security (the same on every column). */
  rls: boolean
  generated: boolean
}

/** The table's columns in order (none: no such table). */
export async function tableColumns(tx: ProjectTx, schema: string, table: string): Promise<TableColumn[]> {
  const { rows } = await tx.query<TableColumn>(
    `select a.attname as name, t.typname as type, c.relrowsecurity as rls, a.attgenerated <> '' as generated
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     join pg_catalog.pg_type t on t.oid = a.atttypid
     where n.nspname = $1 and c.relname = $2 order by a.attnum`,
    [schema, table],
  )
  return rows
}

// ---- postgres_changes: may a subscriber see a changed row ------------------------------------------------------------

/** One changed row, as the probes below look for it: by its primary key when the change has one, else whole. */
export class ChangedRow {
  readonly rel: string
  private readonly where: string
  private readonly keyJson: string
  private readonly row: string

  constructor(schema: string, table: string, keys: Record<string, unknown> | undefined, record: Record<string, unknown> | null) {
    this.rel = `${quoteIdent(schema)}.${quoteIdent(table)}`
    const names = Object.keys(keys ?? {})
    this.row = JSON.stringify(record)
    this.where = names.length
      ? names.map((k) => `t.${quoteIdent(k)} = (jsonb_populate_record(null::${this.rel}, $1::jsonb)).${quoteIdent(k)}`).join(' and ')
      : `to_jsonb(t) = $1::jsonb`
    this.keyJson = JSON.stringify(names.length ? keys : record)
  }

  /** Whether the transaction's role may SELECT from the table at all. */
  async selectable(tx: ProjectTx): Promise<boolean> {
    const { rows } = await tx.query<{ ok: boolean }>(`select has_table_privilege(current_user, $1, 'SELECT') as ok`, [this.rel])
    return rows[0]?.ok === true
  }

  /** Whether the table holds the row as the change left it (no later change has replaced it). */
  async asCommitted(tx: ProjectTx): Promise<boolean> {
    const { rows } = await tx.query<{ same: boolean }>(`select to_jsonb(t) = $2::jsonb as same from ${this.rel} t where ${this.where}`, [this.keyJson, this.row])
    return rows.length === 1 && rows[0].same
  }

  /** Whether the transaction's role and claims see the row (row level security decides). */
  async seen(tx: ProjectTx): Promise<boolean> {
    const { rows } = await tx.query<{ seen: boolean }>(`select exists (select 1 from ${this.rel} t where ${this.where}) as seen`, [this.keyJson])
    return rows[0]?.seen === true
  }

  /**
   * Writes the row back as the change left it, then asks as `role` whether it is seen. The table owner's
   * transaction must be rolled back after: the row is put back only to be looked at.
   */
  async seenAfterReplay(tx: ProjectTx, writable: string[], role: string): Promise<boolean> {
    const cols = writable.map(quoteIdent).join(', ')
    await tx.query(`delete from ${this.rel} t where ${this.where}`, [this.keyJson])
    await tx.query(`insert into ${this.rel} (${cols}) overriding system value select ${cols} from jsonb_populate_record(null::${this.rel}, $1::jsonb)`, [this.row])
    await tx.query(`select set_config('role', $1, true)`, [role])
    return this.seen(tx)
  }
}

// ---- private channels ----------------------------------------------------------------------------------------------

/**
 * Whether `role` sees a probe row of the topic in `realtime.messages`: written past RLS by the table's owner (the
 * transaction's role at first), then looked for as `role`. The transaction must be rolled back after.
 */
export async function topicReadable(tx: ProjectTx, topic: string, role: string): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(`select realtime.authorization_probe($1, 'broadcast')::text as id`, [topic])
  await tx.query(`select set_config('realtime.topic', $1, true), set_config('role', $2, true)`, [topic, role])
  const seen = await tx.query<{ seen: boolean }>(`select exists (select 1 from realtime.messages where id = $1::uuid) as seen`, [rows[0].id])
  return seen.rows[0].seen
}

/** Inserts a row of the topic as the transaction's role (a policy refuses it by throwing); to be rolled back after. */
export async function writeTopicProbe(tx: ProjectTx, topic: string): Promise<void> {
  await tx.query(`select set_config('realtime.topic', $1, true)`, [topic])
  await tx.query(`insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true)`, [topic])
}
