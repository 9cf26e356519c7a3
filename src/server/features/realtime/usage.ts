/**
 * The realtime figures of the usage page, per project and UTC day: messages the service carried to clients
 * (broadcasts, presence, database changes) and the most sockets open at once. Counted in memory as they happen and
 * added to realtime_usage_daily every few seconds, before the usage page reads them (usageRoutes flushes them) and on
 * close, so a socket's frames never wait on the store and a message carried is a message shown.
 */
import type { Clock } from '../../config'
import type { Db } from '../../db'
import { addDailyUsage } from './store'

export interface RealtimeUsage {
  messages(projectId: number, count: number): void
  connections(projectId: number, open: number): void
  /** Writes what is counted; settles once it is in the store. */
  flush(): Promise<void>
  stop(): Promise<void>
}

/** How often the counts are written when nothing reads them (ServerConfig.realtime.usageFlushMs overrides it). */
export const USAGE_FLUSH_MS = 5_000

/** `flushMs` 0: written only when read and on close. */
export function createRealtimeUsage(db: Db, clock: Clock, flushMs = USAGE_FLUSH_MS): RealtimeUsage {
  const pending = new Map<string, { projectId: number; day: string; messages: number; peak: number }>()
  const entry = (projectId: number) => {
    const day = clock.now().toISOString().slice(0, 10)
    const key = `${projectId} ${day}`
    let e = pending.get(key)
    if (!e) pending.set(key, (e = { projectId, day, messages: 0, peak: 0 }))
    return e
  }
  let flushing: Promise<void> = Promise.resolve()
  const flush = () => {
    flushing = flushing.then(async () => {
      const batch = [...pending.values()]
      pending.clear()
      for (const e of batch) {
        await addDailyUsage(db, e).catch((err: unknown) => {
          // A project deleted meanwhile: its figures go with it.
          if ((err as { code?: string }).code !== '23503') console.error(`realtime usage: not written: ${(err as Error).message}`)
        })
      }
    })
    return flushing
  }
  const timer = flushMs > 0 ? setInterval(() => void flush(), flushMs) : undefined
  timer?.unref()
  return {
    messages(projectId, count) {
      if (count > 0) entry(projectId).messages += count
    },
    connections(projectId, open) {
      const e = entry(projectId)
      e.peak = Math.max(e.peak, open)
    },
    flush,
    async stop() {
      clearInterval(timer)
      await flush()
    },
  }
}
