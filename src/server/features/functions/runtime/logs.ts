/**
 * Each function's log: its invocations (status, duration, CPU time, memory) and its console output, the last LOG_LIMIT
 * entries per function, kept in the platform's store (edge_function_logs) so they survive a restart and are read by
 * every platform process on the same store.
 * `add` only queues (a call never waits on the store); the queue is written in one transaction every FLUSH_MS, before
 * each read and on close, and each write deletes what is past the newest LOG_LIMIT of the functions it touched. An
 * entry of a function deleted meanwhile is dropped (its rows went with it by cascade).
 */
import { randomUUID } from 'node:crypto'
import type { Db } from '../../../db'

export const LOG_LIMIT = 1_000
/** A console line longer than this is cut: one write of megabytes must not fill the log. */
export const MAX_LINE = 4_096
/** How often queued entries are written. */
export const FLUSH_MS = 1_000

export interface FunctionLogEntry {
  id: string
  /** Epoch milliseconds. */
  timestamp: number
  function_id: string
  kind: 'invocation' | 'console' | 'boot' | 'shutdown'
  level: 'log' | 'info' | 'error'
  event_message: string
  method?: string
  /** An invocation's path from the function's slug on (`/hello-world/sub`), without the query. */
  path?: string
  /** The function's version that answered an invocation. */
  version?: number
  status?: number
  duration_ms?: number
  /** CPU time (user + system) the worker process used during the invocation, in ms (the kernel counts in 10 ms ticks). */
  cpu_time_ms?: number
  /** The worker's resident memory, V8 heap in use and memory outside the heap when it answered, in MB. */
  memory_mb?: number
  heap_memory_mb?: number
  external_memory_mb?: number
}

export type NewLogEntry = Omit<FunctionLogEntry, 'id' | 'timestamp' | 'function_id'>

/** Where the supervisor puts what its workers do (FunctionLogs; a bench may give one that keeps nothing). */
export interface LogSink {
  add(functionId: string, entry: NewLogEntry): unknown
  /** An entry on its way (added once measured). */
  track(adding: Promise<unknown>): void
}

interface Row {
  id: string
  function_id: string
  at_ms: string | number
  kind: FunctionLogEntry['kind']
  level: FunctionLogEntry['level']
  event_message: string
  method: string | null
  path: string | null
  version: number | null
  status: number | null
  duration_ms: number | null
  cpu_time_ms: number | null
  memory_mb: number | null
  heap_memory_mb: number | null
  external_memory_mb: number | null
}

const OPTIONAL = ['method', 'path', 'version', 'status', 'duration_ms', 'cpu_time_ms', 'memory_mb', 'heap_memory_mb', 'external_memory_mb'] as const

function entryOf(row: Row): FunctionLogEntry {
  const entry: FunctionLogEntry = {
    id: row.id,
    timestamp: Number(row.at_ms),
    function_id: row.function_id,
    kind: row.kind,
    level: row.level,
    event_message: row.event_message,
  }
  for (const key of OPTIONAL) {
    const value = row[key]
    if (value !== null) (entry as unknown as Record<string, unknown>)[key] = value
  }
  return entry
}

const COLUMNS = `id::text as id, function_id::text as function_id, at_ms, kind, level, event_message, method, path, version, status,
  duration_ms, cpu_time_ms, memory_mb, heap_memory_mb, external_memory_mb`

export interface LogRange {
  /** Epoch milliseconds, inclusive. */
  since?: number
  until?: number
}

export class FunctionLogs implements LogSink {
  /** Entries not yet written, by function, oldest first (at most LOG_LIMIT each: older ones would be deleted anyway). */
  private pending = new Map<string, FunctionLogEntry[]>()
  private writing: Promise<void> = Promise.resolve()
  /** Entries still being measured (an invocation's CPU time is read after its answer): a flush waits for them. */
  private readonly measuring = new Set<Promise<unknown>>()
  private readonly timer: NodeJS.Timeout

  /** `now`: the platform's clock in epoch milliseconds, so entries fall in the periods the analytics read by it. */
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    flushMs = FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs)
    this.timer.unref()
  }

  add(functionId: string, entry: NewLogEntry): FunctionLogEntry {
    const full: FunctionLogEntry = {
      ...entry,
      event_message: entry.event_message.length > MAX_LINE ? `${entry.event_message.slice(0, MAX_LINE)}…` : entry.event_message,
      id: randomUUID(),
      timestamp: this.now(),
      function_id: functionId,
    }
    let list = this.pending.get(functionId)
    if (!list) this.pending.set(functionId, (list = []))
    list.push(full)
    if (list.length > LOG_LIMIT * 2) list.splice(0, list.length - LOG_LIMIT)
    return full
  }

  /** An entry on its way (`add` once measured): reads and flushes from now on include it. */
  track(adding: Promise<unknown>): void {
    const settled = adding.catch(() => {}).finally(() => this.measuring.delete(settled))
    this.measuring.add(settled)
  }

  /** Writes what is queued; settles once it is in the store (or was put back as the store refused it). */
  flush(): Promise<void> {
    const measuring = [...this.measuring]
    this.writing = this.writing.then(async () => {
      await Promise.all(measuring)
      if (this.pending.size === 0) return
      const taken = this.pending
      this.pending = new Map()
      const entries = [...taken.values()].flatMap((list) => (list.length > LOG_LIMIT ? list.slice(-LOG_LIMIT) : list))
      try {
        await this.write(entries, [...taken.keys()])
      } catch (err) {
        // Put back what was taken, ahead of what arrived meanwhile, so the next flush writes it.
        for (const [id, list] of taken) this.pending.set(id, [...list, ...(this.pending.get(id) ?? [])].slice(-LOG_LIMIT))
        console.error(`function logs: not written: ${(err as Error).message}`)
      }
    })
    return this.writing
  }

  private async write(entries: FunctionLogEntry[], functionIds: string[]) {
    const col = <K extends keyof FunctionLogEntry>(key: K) => entries.map((e) => e[key] ?? null)
    await this.db.transaction(async (tx) => {
      // Only functions that still exist: one deleted since its entry was queued is skipped, not a failed write.
      await tx.query(
        `insert into edge_function_logs (id, function_id, at_ms, kind, level, event_message, method, path, version, status,
           duration_ms, cpu_time_ms, memory_mb, heap_memory_mb, external_memory_mb)
         select u.id, u.function_id, u.at_ms, u.kind, u.level, u.event_message, u.method, u.path, u.version, u.status,
           u.duration_ms, u.cpu_time_ms, u.memory_mb, u.heap_memory_mb, u.external_memory_mb
         from unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[],
           $10::int[], $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[])
           with ordinality as u(id, function_id, at_ms, kind, level, event_message, method, path, version, status,
             duration_ms, cpu_time_ms, memory_mb, heap_memory_mb, external_memory_mb, n)
         join edge_functions f on f.id = u.function_id
         order by u.n`,
        [
          col('id'),
          col('function_id'),
          col('timestamp'),
          col('kind'),
          col('level'),
          col('event_message'),
          col('method'),
          col('path'),
          col('version'),
          col('status'),
          col('duration_ms'),
          col('cpu_time_ms'),
          col('memory_mb'),
          col('heap_memory_mb'),
          col('external_memory_mb'),
        ],
      )
      for (const functionId of functionIds) {
        await tx.query(
          `delete from edge_function_logs where function_id = $1 and seq <= (
             select seq from edge_function_logs where function_id = $1 order by seq desc offset $2 limit 1)`,
          [functionId, LOG_LIMIT],
        )
      }
    })
  }

  /** The function's kept entries, oldest first, within `range` when given; what is queued is written first. */
  async list(functionId: string, range: LogRange = {}): Promise<FunctionLogEntry[]> {
    return (await this.listMany([functionId], range)).get(functionId) ?? []
  }

  /** The kept entries of several functions (a project's), oldest first each. */
  async listMany(functionIds: string[], { since, until }: LogRange = {}): Promise<Map<string, FunctionLogEntry[]>> {
    await this.flush()
    const out = new Map<string, FunctionLogEntry[]>()
    if (functionIds.length === 0) return out
    const { rows } = await this.db.query<Row>(
      `select ${COLUMNS} from edge_function_logs
       where function_id = any($1::uuid[]) and at_ms >= $2 and at_ms <= $3
       order by seq`,
      [functionIds, since ?? 0, until ?? Number.MAX_SAFE_INTEGER],
    )
    for (const row of rows) {
      let list = out.get(row.function_id)
      if (!list) out.set(row.function_id, (list = []))
      list.push(entryOf(row))
    }
    return out
  }

  /** The function is deleted: its queued entries go (its written ones went with its row). */
  forget(functionId: string): void {
    this.pending.delete(functionId)
  }

  /** Stops the beat and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
