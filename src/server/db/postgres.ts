import pg from 'pg'
import { CHANGES_CHANNEL, type ChangeHandlers, type Db, type Queryable } from './types'

/**
 * A real PostgreSQL server through a `pg` Pool (DATABASE_URL).
 * Change notifications (see Db.listen) come two ways: every pooled connection LISTENs, so a commit made by this
 * process delivers its own notifications on its own connection before the COMMIT resolves (PostgreSQL sends a
 * session's notifications before ReadyForQuery); and one dedicated connection LISTENs for the other processes'
 * commits even when the pool has no connection open. A payload may arrive twice: invalidation is idempotent.
 */
export function openPostgres(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max })
  const listeners = new Set<ChangeHandlers>()
  const deliver = (msg: pg.Notification) => {
    if (msg.channel !== CHANGES_CHANNEL || msg.payload === undefined) return
    for (const l of listeners) l.payload(msg.payload)
  }
  const lost = () => {
    for (const l of listeners) l.lost?.()
  }
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => console.error('postgres pool error:', err.message))
  // Every pooled connection LISTENs (once, before its first use), so this process's commits notify it in time.
  const listening = new WeakSet<pg.PoolClient>()
  async function ensureListening(client: pg.PoolClient): Promise<void> {
    if (listening.has(client)) return
    client.on('notification', deliver)
    await client.query(`LISTEN ${CHANGES_CHANNEL}`)
    listening.add(client)
  }
  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect()
    try {
      await ensureListening(client)
      const result = await fn(client)
      client.release()
      return result
    } catch (err) {
      // As pool.query does: a connection that failed a query is not reused.
      client.release(err as Error)
      throw err
    }
  }

  let dedicated: pg.Client | undefined
  let connecting: Promise<void> | undefined
  let closing = false
  let retry: ReturnType<typeof setTimeout> | undefined
  let retryMs = 1_000
  function scheduleReconnect() {
    if (closing || listeners.size === 0 || retry) return
    retry = setTimeout(() => {
      retry = undefined
      connectListener().then(
        () => {
          retryMs = 1_000
          listeners.forEach((l) => l.restored?.())
        },
        () => {
          retryMs = Math.min(retryMs * 2, 30_000)
          scheduleReconnect()
        },
      )
    }, retryMs)
    retry.unref()
  }

  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString })
    client.on('notification', deliver)
    client.on('error', (err) => {
      console.error('postgres listener error:', err.message)
    })
    client.on('end', () => {
      if (dedicated !== client) return
      dedicated = undefined
      lost()
      scheduleReconnect()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${CHANGES_CHANNEL}`)
    } catch (err) {
      await client.end().catch(() => {})
      throw err
    }
    // Closed while it connected: close() did not see this connection, so it is ended here, not kept open.
    if (closing) {
      await client.end().catch(() => {})
      return
    }
    dedicated = client
  }

  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await withClient((client) => client.query(sql, params))
      return { rows: r.rows as T[] }
    },
    async exec(sql: string) {
      await withClient((client) => client.query(sql))
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect()
      try {
        await ensureListening(client)
        await client.query('BEGIN')
        const result = await fn({
          async query<R>(sql: string, params: unknown[] = []) {
            const r = await client.query(sql, params)
            return { rows: r.rows as R[] }
          },
          async exec(sql: string) {
            await client.query(sql)
          },
        })
        await client.query('COMMIT')
        return result
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    async listen(handlers) {
      const listener = { ...handlers }
      listeners.add(listener)
      if (!dedicated) {
        connecting ??= connectListener().finally(() => (connecting = undefined))
        await connecting
      }
      return () => {
        listeners.delete(listener)
      }
    },
    async close() {
      closing = true
      if (retry) clearTimeout(retry)
      await connecting?.catch(() => {})
      const client = dedicated
      dedicated = undefined
      await client?.end().catch(() => {})
      await pool.end()
    },
  }
}
