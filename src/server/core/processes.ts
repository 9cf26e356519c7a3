/**
 * A process's entry in the store (platform_processes): registered when it starts, renewed every third of `liveMs`,
 * removed when it stops. Another process reads which entries are live (renewed within `liveMs`, by the database's
 * clock, which every process shares) and forgets what it keeps for one that is not: a process killed without closing
 * stops renewing, and within `liveMs` the others notice. Any feature that keeps state on another process's behalf
 * uses it: realtime's relayed presence, the Postgres port's client counts (which reference the entry, and go with it).
 */
import type { Queryable } from '../db/types'

/** How long an entry counts as live without a renewal (a process renews three times within it). */
export const PROCESS_LIVE_MS = 30_000

export interface ProcessEntry {
  readonly id: string
  /** The first registration reached the store (rejects if it failed): what references the entry may be written. */
  readonly ready: Promise<void>
  /** The ids among `ids` whose entries are live now. */
  live(ids: Iterable<string>): Promise<Set<string>>
  /** Stops renewing and removes the entry (a process that stops cleanly). */
  stop(): Promise<void>
}

/**
 * Registers `id` and renews it every liveMs / 3; `onRenewed` runs after each renewal (a process's own sweep of what
 * the others left). A failed renewal is retried at the next one.
 */
export function startProcessEntry(db: Queryable, id: string, opts: { liveMs?: number; onRenewed?: () => Promise<void> } = {}): ProcessEntry {
  const liveMs = opts.liveMs ?? PROCESS_LIVE_MS
  let stopped = false
  const renew = async () => {
    await db.query(
      `insert into platform_processes (id, seen_at) values ($1, now()) on conflict (id) do update set seen_at = now()`,
      [id],
    )
    // Entries of processes gone long ago are of no use to anyone.
    await db.query(`delete from platform_processes where seen_at < now() - interval '1 hour'`)
  }
  const ready = renew()
  let running: Promise<void> = ready.catch(() => {})
  const timer = setInterval(() => {
    running = running
      .then(async () => {
        if (stopped) return
        await renew()
        await opts.onRenewed?.()
      })
      .catch((err: unknown) => console.error(`processes: renewing ${id} failed: ${(err as Error).message}`))
  }, Math.max(1, Math.floor(liveMs / 3)))
  timer.unref()
  return {
    id,
    ready,
    async live(ids) {
      const wanted = [...new Set(ids)]
      if (wanted.length === 0) return new Set()
      const { rows } = await db.query<{ id: string }>(
        `select id from platform_processes where id = any($1::text[]) and seen_at > now() - make_interval(secs => $2::int / 1000.0)`,
        [wanted, liveMs],
      )
      return new Set(rows.map((r) => r.id))
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
      await db.query('delete from platform_processes where id = $1', [id])
    },
  }
}
