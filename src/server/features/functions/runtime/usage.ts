/**
 * Function invocations per project and UTC day (the usage page's FUNCTION_INVOCATIONS): counted in memory as calls
 * reach a function and added to function_usage_daily every few seconds and on close, so a call never waits on the
 * store. As the realtime figures are.
 */
import type { Clock } from '../../../config'
import type { Db } from '../../../db'

export interface FunctionUsage {
  invoked(projectId: number): void
  /** Writes what is counted; settles once it is in the store. */
  flush(): Promise<void>
  stop(): Promise<void>
}

const FLUSH_MS = 5_000

export function createFunctionUsage(db: Db, clock: Clock): FunctionUsage {
  const pending = new Map<string, { projectId: number; day: string; invocations: number }>()
  let flushing: Promise<void> = Promise.resolve()
  const flush = () => {
    flushing = flushing.then(async () => {
      const batch = [...pending.values()]
      pending.clear()
      for (const e of batch) {
        await db
          .query(
            `insert into function_usage_daily (project_id, day, invocations) values ($1, $2, $3)
             on conflict (project_id, day) do update set invocations = function_usage_daily.invocations + excluded.invocations`,
            [e.projectId, e.day, e.invocations],
          )
          .catch((err: unknown) => {
            // A project deleted meanwhile: its figures go with it.
            if ((err as { code?: string }).code !== '23503') console.error(`function usage: not written: ${(err as Error).message}`)
          })
      }
    })
    return flushing
  }
  const timer = setInterval(() => void flush(), FLUSH_MS)
  timer.unref()
  return {
    invoked(projectId) {
      const day = clock.now().toISOString().slice(0, 10)
      const key = `${projectId} ${day}`
      const e = pending.get(key)
      if (e) e.invocations++
      else pending.set(key, { projectId, day, invocations: 1 })
    },
    flush,
    async stop() {
      clearInterval(timer)
      await flush()
    },
  }
}
