import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { CHANGES_CHANNEL, type Db, type Queryable } from './types'

/**
 * PGlite store. `dataDir` undefined = in memory (tests). PGlite creates its folder non-recursively,
 * so the parent is made first.
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) await mkdir(path.dirname(path.resolve(dataDir)), { recursive: true })
  const pg = dataDir ? await PGlite.create(path.resolve(dataDir)) : await PGlite.create()
  return wrapPglite(pg)
}

export function wrapPglite(pg: PGlite): Db {
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pg.query<T>(sql, params)
      return { rows: r.rows }
    },
    async exec(sql: string) {
      await pg.exec(sql)
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return pg.transaction(async (tx) =>
        fn({
          async query<R>(sql: string, params: unknown[] = []) {
            const r = await tx.query<R>(sql, params)
            return { rows: r.rows }
          },
          async exec(sql: string) {
            await tx.exec(sql)
          },
        }),
      )
    },
    async listen(handlers) {
      // PGlite is one connection in this process: its notifications arrive while the COMMIT's answer is read.
      const stop = await pg.listen(CHANGES_CHANNEL, (payload) => handlers.payload(payload))
      return () => void stop().catch(() => {})
    },
    async close() {
      if (!pg.closed) await pg.close()
    },
  }
}
