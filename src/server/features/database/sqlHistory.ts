/** The SQL of a person's run history on a project: the newest HISTORY_LENGTH runs are kept, older ones dropped. */
import { HISTORY_LENGTH, type SqlHistoryEntry, type SqlRunRole } from '../../../contracts/sqlEditor'
import type { Db, Queryable } from '../../db'
import { iso } from '../../core/rows'

/** Text kept of one run's query: enough to read and run it again; a longer script is cut. */
const QUERY_KEPT = 100_000

export async function recordRun(
  db: Db,
  run: { projectId: number; accountId: number; query: string; role: SqlRunRole; ranAt: Date; durationMs: number | null; error: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into sql_history (project_id, account_id, query, role, ran_at, duration_ms, error) values ($1, $2, $3, $4, $5, $6, $7)`,
      [run.projectId, run.accountId, run.query.slice(0, QUERY_KEPT), run.role, run.ranAt.toISOString(), run.durationMs, run.error],
    )
    await tx.query(
      `delete from sql_history where project_id = $1 and account_id = $2 and id < (
         select min(id) from (select id from sql_history where project_id = $1 and account_id = $2 order by id desc limit $3) kept)`,
      [run.projectId, run.accountId, HISTORY_LENGTH],
    )
  })
}

interface HistoryRow {
  id: string | number
  query: string
  role: SqlRunRole
  ran_at: unknown
  duration_ms: number | null
  error: string | null
}

export async function listRuns(db: Queryable, projectId: number, accountId: number): Promise<SqlHistoryEntry[]> {
  const { rows } = await db.query<HistoryRow>(
    `select id, query, role, ran_at, duration_ms, error from sql_history where project_id = $1 and account_id = $2 order by id desc limit $3`,
    [projectId, accountId, HISTORY_LENGTH],
  )
  return rows.map((r) => ({ id: Number(r.id), query: r.query, role: r.role, ran_at: iso(r.ran_at), duration_ms: r.duration_ms === null ? null : Number(r.duration_ms), error: r.error }))
}
