/**
 * A project's realtime limits, as the Management API names them (/v1/projects/{ref}/config/realtime): stored in
 * project_realtime_config, a missing row or column taking the platform's default. The hub reads them when a socket
 * connects and keeps them a few seconds, so a change reaches every process of the platform soon after it is saved
 * (and the process that saved it at once).
 */
import type { RealtimeConfig, RealtimeConfigUpdate } from '../../../contracts/realtime'
import type { Queryable } from '../../db'

export const REALTIME_DEFAULTS: RealtimeConfig = {
  private_only: false,
  connection_pool: 2,
  max_concurrent_users: 200,
  max_events_per_second: 100,
  max_bytes_per_second: 100_000,
  max_channels_per_client: 100,
  max_joins_per_second: 100,
  max_presence_events_per_second: 100,
  max_payload_size_in_kb: 256,
  suspend: false,
  presence_enabled: true,
}

/** Server-wide, not per project (ServerConfig.realtime overrides them). */
export const SOCKET_DEFAULTS = {
  /** A socket that sends nothing (not even realtime-js' 25 s heartbeat) for this long is closed. */
  idleTimeoutMs: 60_000,
  /** Bytes that may wait unsent to one socket; past them the socket is closed as a slow consumer. */
  sendBufferBytes: 4 * 1024 * 1024,
}

/** The largest frame a socket accepts at all (the largest payload limit a project may set, and room for the frame). */
export const MAX_FRAME_BYTES = 10_000 * 1024 + 64 * 1024

const COLUMNS = Object.keys(REALTIME_DEFAULTS) as (keyof RealtimeConfig)[]

export async function readRealtimeConfig(db: Queryable, projectId: number): Promise<RealtimeConfig> {
  const { rows } = await db.query<Partial<Record<keyof RealtimeConfig, unknown>>>(
    `select ${COLUMNS.join(', ')} from project_realtime_config where project_id = $1`,
    [projectId],
  )
  const row = rows[0] ?? {}
  const out = { ...REALTIME_DEFAULTS } as Record<string, unknown>
  for (const k of COLUMNS) if (row[k] !== null && row[k] !== undefined) out[k] = row[k]
  return out as RealtimeConfig
}

export async function saveRealtimeConfig(db: Queryable, projectId: number, patch: RealtimeConfigUpdate): Promise<void> {
  const keys = COLUMNS.filter((k) => k in patch)
  if (keys.length === 0) return
  const values = keys.map((k) => (patch as Record<string, unknown>)[k] ?? null)
  await db.query(
    `insert into project_realtime_config (project_id, ${keys.join(', ')}, updated_at) values ($1, ${keys.map((_, i) => `$${i + 2}`).join(', ')}, now())
     on conflict (project_id) do update set ${keys.map((k) => `${k} = excluded.${k}`).join(', ')}, updated_at = now()`,
    [projectId, ...values],
  )
}
