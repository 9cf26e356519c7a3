/**
 * Several stores on one PostgreSQL cluster (two platforms, or the server test files, each with a store database of
 * its own) prepare the one project database template at the same time. An advisory lock is taken within one database,
 * so it cannot order them: each builds a copy of its own and the first rename wins. Every one of them must come out
 * ready, with one template and no copy left behind. Run on a throw-away cluster of its own, so the template is new.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { POSTGRES_TEMPLATE_NAME, postgresBackend } from '../../src/server/projectdb/postgres'
import { startPgCluster, withPgClient, type PgCluster } from './pgCluster'

let cluster: PgCluster

const urlOf = (database: string) => {
  const url = new URL(cluster.url)
  url.pathname = `/${database}`
  return url.toString()
}

const admin = <T>(fn: (client: pg.Client) => Promise<T>) => withPgClient(cluster.url, fn)

beforeAll(async () => {
  cluster = await startPgCluster()
}, 120_000)

afterAll(() => cluster?.stop())

it('four stores preparing the template at once all come out ready, with one template and no copy left', async () => {
  const stores = ['store_a', 'store_b', 'store_c', 'store_d']
  await admin(async (c) => {
    for (const name of stores) await c.query(`create database ${name}`)
  })
  const backends = stores.map((name) => postgresBackend(urlOf(name)))
  try {
    const results = await Promise.allSettled(backends.map((b) => b.prepare()))
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ready'))).toEqual(stores.map(() => 'ready'))
    const { rows } = await admin((c) =>
      c.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1) order by 1`, ['kp_projectdb_template_']),
    )
    expect(rows.map((r) => r.datname)).toEqual([POSTGRES_TEMPLATE_NAME])
    // And each can make a project database from it.
    await Promise.all(backends.map((b, i) => b.create(String.fromCharCode(97 + i).repeat(20))))
    for (const [i, b] of backends.entries()) expect(await b.exists(String.fromCharCode(97 + i).repeat(20))).toBe(true)
  } finally {
    await Promise.all(backends.map((b) => b.end()))
  }
}, 180_000)
