/**
 * The SQL of usage and resource warnings: what the meter recorded per project and day (project_usage_daily), the
 * REST request log, what the development controls add to a metric, and each project's warning levels.
 */
import type { Resource, UsageMetric, WarningLevel } from '../../../contracts/usage'
import type { Queryable } from '../../db'

export interface WarningRow {
  ref: string
  is_readonly_mode_enabled: boolean
  disk_io_exhaustion: WarningLevel | null
  disk_space_exhaustion: WarningLevel | null
  cpu_exhaustion: WarningLevel | null
  memory_and_swap_exhaustion: WarningLevel | null
}

export interface Period {
  organizationId: number
  /** null: every project of the organization. */
  projectId: number | null
  startDay: string
  endDay: string
}

/** The warnings of every project the account is a member of, by project. */
export async function listMemberWarnings(db: Queryable, accountId: number): Promise<WarningRow[]> {
  const { rows } = await db.query<WarningRow>(
    `select p.ref, w.is_readonly_mode_enabled, w.disk_io_exhaustion, w.disk_space_exhaustion, w.cpu_exhaustion,
       w.memory_and_swap_exhaustion
     from project_resource_warnings w join projects p on p.id = w.project_id
     join members m on m.organization_id = p.organization_id and m.account_id = $1
     order by p.id`,
    [accountId],
  )
  return rows
}

/** The project's warnings (undefined when none was ever set). */
export async function findWarning(db: Queryable, projectId: number): Promise<Omit<WarningRow, 'ref'> | undefined> {
  const { rows } = await db.query<Omit<WarningRow, 'ref'>>(
    `select is_readonly_mode_enabled, disk_io_exhaustion, disk_space_exhaustion, cpu_exhaustion, memory_and_swap_exhaustion
     from project_resource_warnings where project_id = $1`,
    [projectId],
  )
  return rows[0]
}

/** Sets one warning column (a resource's level, or read-only mode) of the project. */
export async function upsertWarning(
  db: Queryable,
  projectId: number,
  column: Resource | 'is_readonly_mode_enabled',
  value: WarningLevel | boolean | null,
  now: Date,
): Promise<void> {
  // `column` is typed to the table's warning columns, never raw input (the route validates it against RESOURCES).
  await db.query(
    `insert into project_resource_warnings (project_id, ${column}, updated_at) values ($1, $2, $3)
     on conflict (project_id) do update set ${column} = excluded.${column}, updated_at = excluded.updated_at`,
    [projectId, value, now.toISOString()],
  )
}

/** The organization's ACTIVE_HEALTHY projects (only the one with `ref` when given). */
export async function activeProjectsOf(db: Queryable, organizationId: number, ref: string | null): Promise<{ id: number; ref: string }[]> {
  const { rows } = await db.query<{ id: number; ref: string }>(
    `select id, ref from projects where organization_id = $1 and ($2::text is null or ref = $2) and status = 'ACTIVE_HEALTHY'`,
    [organizationId, ref],
  )
  return rows
}

/** What the development control adds to each metric, summed over the period's projects. */
export async function addedUsage(db: Queryable, organizationId: number, projectId: number | null): Promise<{ metric: UsageMetric; usage: number }[]> {
  const { rows } = await db.query<{ metric: UsageMetric; usage: number }>(
    `select u.metric, sum(u.usage)::float8 as usage from project_usage u join projects p on p.id = u.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2) group by u.metric`,
    [organizationId, projectId],
  )
  return rows
}

export async function setAddedUsage(db: Queryable, projectId: number, metric: UsageMetric, usage: number, now: Date): Promise<void> {
  await db.query(
    `insert into project_usage (project_id, metric, usage, updated_at) values ($1, $2, $3, $4)
     on conflict (project_id, metric) do update set usage = excluded.usage, updated_at = excluded.updated_at`,
    [projectId, metric, usage, now.toISOString()],
  )
}

/**
 * What the meter measured in the period, in bytes: the REST answers' egress, and each project's database size last
 * measured up to the period's end, summed.
 */
export async function measuredBytes(db: Queryable, period: Period): Promise<{ egress: number; size: number }> {
  const { rows } = await db.query<{ egress: number; size: number }>(
    `select
       (select coalesce(sum(d.egress_bytes), 0)::float8 from project_usage_daily d join projects p on p.id = d.project_id
        where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day between $3::date and $4::date) as egress,
       (select coalesce(sum(s.bytes), 0)::float8 from (
          select distinct on (d.project_id) d.database_size_bytes as bytes from project_usage_daily d
          join projects p on p.id = d.project_id
          where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day <= $4::date and d.database_size_bytes is not null
          order by d.project_id, d.day desc) s) as size`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return { egress: Number(rows[0].egress), size: Number(rows[0].size) }
}

export interface DailyRow {
  day: string
  requests: number
  egress: number
  ms_total: number
  ms_max: number | null
  size: number | null
}

/** The measured figures of the period's projects per UTC day that has any (days without a row are absent). */
export async function dailyRows(db: Queryable, period: Period): Promise<DailyRow[]> {
  const { rows } = await db.query<DailyRow>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, sum(d.requests)::float8 as requests, sum(d.egress_bytes)::float8 as egress,
       sum(d.response_ms_total)::float8 as ms_total, max(d.response_ms_max)::float8 as ms_max,
       sum(d.database_size_bytes)::float8 as size
     from project_usage_daily d join projects p on p.id = d.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2) and d.day between $3::date and $4::date
     group by d.day`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return rows
}

export interface RequestLogRow {
  id: string
  at: Date | string
  method: string
  path: string
  status: number
  duration_ms: number
  bytes: number
}

/**
 * The project's logged requests with a status in [low, high], newest first, at most `limit`. Ordered by the table's
 * id: a bare `id` would name the text column of the select list, and '9' comes after '38'.
 */
export async function requestLog(db: Queryable, projectId: number, low: number, high: number, limit: number): Promise<RequestLogRow[]> {
  const { rows } = await db.query<RequestLogRow>(
    `select id::text as id, at, method, path, status, duration_ms, bytes::float8 as bytes from project_request_log
     where project_id = $1 and status between $2 and $3 order by project_request_log.id desc limit $4`,
    [projectId, low, high, limit],
  )
  return rows
}

/** The refs of an organization's projects (or of the one project), whatever their status: storage size counts them all. */
export async function projectRefsOf(db: Queryable, organizationId: number, projectId: number | null): Promise<{ ref: string }[]> {
  const { rows } = await db.query<{ ref: string }>('select ref from projects where organization_id = $1 and ($2::int is null or id = $2)', [
    organizationId,
    projectId,
  ])
  return rows
}

/** Monthly active users: the project auth services' users who signed in or refreshed in a month of the period. */
export async function monthlyActiveUsers(db: Queryable, period: Period): Promise<number> {
  const { rows } = await db.query<{ mau: number }>(
    `select count(distinct (a.project_id, a.user_id))::float8 as mau from project_auth_active_users a join projects p on p.id = a.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2)
       and a.period between date_trunc('month', $3::date)::date and $4::date`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return Number(rows[0].mau)
}

/** Realtime: the messages its service carried in the period, and the most sockets open at once on any day of it. */
export async function realtimeFigures(db: Queryable, period: Period): Promise<{ messages: number; peak: number }> {
  const { rows } = await db.query<{ messages: number; peak: number }>(
    `select coalesce(sum(r.messages), 0)::float8 as messages, coalesce(max(r.peak_connections), 0)::float8 as peak
     from realtime_usage_daily r join projects p on p.id = r.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2) and r.day between $3::date and $4::date`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return { messages: Number(rows[0].messages), peak: Number(rows[0].peak) }
}

/** Edge function invocations of the period's projects (function_usage_daily). */
export async function functionInvocations(db: Queryable, period: Period): Promise<number> {
  const { rows } = await db.query<{ invocations: number }>(
    `select coalesce(sum(f.invocations), 0)::float8 as invocations from function_usage_daily f join projects p on p.id = f.project_id
     where p.organization_id = $1 and ($2::int is null or p.id = $2) and f.day between $3::date and $4::date`,
    [period.organizationId, period.projectId, period.startDay, period.endDay],
  )
  return Number(rows[0].invocations)
}
