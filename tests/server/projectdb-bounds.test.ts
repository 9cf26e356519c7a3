/**
 * The bounds of the project databases, on the engine alone (no app): at most maxOpen open at once (least recently
 * used closes first, also when transactions on more projects run at the same time), an idle one closes, a transaction
 * past its time-out is stopped and the next one works (nothing of it committed), drop deletes.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEngineDatabases } from '../../src/server/projectdb'
import type { DatabaseManager } from '../../src/server/projectdb/manager'
import { POSTGRES_TEMPLATE_NAME } from '../../src/server/projectdb/postgres'
import { createTestStore, isPostgres, testConfig, type TestStore } from './helpers'

const A = 'aaaaaaaaaaaaaaaaaaaa'
const B = 'bbbbbbbbbbbbbbbbbbbb'
const C = 'cccccccccccccccccccc'

let store: TestStore
let dbs: DatabaseManager

const one = (ref: string) => dbs.transaction(ref, {}, (tx) => tx.query('select 1 as one'))

beforeAll(async () => {
  store = await createTestStore()
  dbs = createEngineDatabases(testConfig({ ...store.placement, projectDb: { maxOpen: 2, idleMs: 60_000, queryTimeoutMs: 15_000 } }))
  await Promise.all([A, B, C].map((ref) => dbs.create(ref)))
}, 120_000)

afterAll(async () => {
  await dbs?.closeAll()
  await store?.destroy()
})

describe('bounds', () => {
  it('keeps at most maxOpen open; the least recently used closes first', async () => {
    await one(A)
    await one(B)
    expect(dbs.openRefs().sort()).toEqual([A, B])
    await one(C)
    expect(dbs.openRefs().sort()).toEqual([B, C])
    await one(B)
    await one(A) // C is now the least recently used
    expect(dbs.openRefs().sort()).toEqual([A, B])
  })

  it('transactions on more projects than maxOpen at once all finish, never with more than maxOpen open', async () => {
    const seen: number[] = []
    const results = await Promise.all(
      [A, B, C, A, C, B].map((ref, i) =>
        dbs.transaction(ref, {}, async (tx) => {
          seen.push(dbs.openRefs().length)
          return (await tx.query('select $1::int as i', [i])).rows[0].i
        }),
      ),
    )
    expect(results).toEqual([0, 1, 2, 3, 4, 5])
    expect(Math.max(...seen)).toBeLessThanOrEqual(2)
    expect(dbs.openRefs().length).toBeLessThanOrEqual(2)
  })

  it('a transaction past its time-out is stopped, nothing of it stays, and the next one works', async () => {
    await dbs.transaction(A, {}, (tx) => tx.query('create table if not exists marks (v text)'))
    const err = await dbs
      .transaction(A, { timeoutMs: 300 }, async (tx) => {
        await tx.query(`insert into marks values ('half')`)
        await tx.exec(`do $$ begin loop perform 1; end loop; end $$`)
      })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'query_timeout' })
    const r = await dbs.transaction(A, {}, (tx) => tx.query(`select count(*)::int as n from marks where v = 'half'`))
    expect(r.rows).toEqual([{ n: 0 }])
  })

  it('the caller’s own slow work counts against the time-out too', async () => {
    const err = await dbs
      .transaction(B, { timeoutMs: 200 }, async (tx) => {
        await tx.query('select 1')
        await new Promise((r) => setTimeout(r, 2_000))
        return tx.query('select 2')
      })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'query_timeout' })
    expect((await one(B)).rows).toEqual([{ one: 1 }])
  })

  it('drop closes and deletes; exists says so and a transaction finds no database', async () => {
    await one(C)
    await dbs.drop(C)
    expect(dbs.openRefs()).not.toContain(C)
    expect(await dbs.exists(C)).toBe(false)
    await expect(one(C)).rejects.toMatchObject({ code: 'database_unavailable' })
    await dbs.create(C) // a fresh one, from the template
    const r = await dbs.transaction(C, {}, (tx) => tx.query(`select to_regclass('public.marks') is null as fresh`))
    expect(r.rows).toEqual([{ fresh: true }])
  })

  it('refuses a ref that is not a project ref', async () => {
    await expect(dbs.create('../escape')).rejects.toMatchObject({ code: 'invalid_ref' })
    await expect(one('a/b')).rejects.toMatchObject({ code: 'invalid_ref' })
  })
})

describe('idle close', () => {
  it('closes a database unused for idleMs', async () => {
    await dbs.close(A) // one engine at a time on a database folder
    const idle = createEngineDatabases(testConfig({ ...store.placement, projectDb: { maxOpen: 2, idleMs: 200, queryTimeoutMs: 15_000 } }))
    try {
      await idle.transaction(A, {}, (tx) => tx.query('select 1'))
      expect(idle.openRefs()).toEqual([A])
      await vi.waitFor(() => expect(idle.openRefs()).toEqual([]), { timeout: 10_000, interval: 50 })
      // and it opens again on demand
      await idle.transaction(A, {}, (tx) => tx.query('select 1'))
      expect(idle.openRefs()).toEqual([A])
    } finally {
      await idle.closeAll()
    }
  })
})

describe('prepare (what the server does once it listens)', () => {
  it('makes the template ahead of the first database, so creating one later is a copy', async () => {
    if (isPostgres) {
      const fresh = createEngineDatabases(testConfig({ ...store.placement }))
      try {
        await fresh.prepare()
        const admin = new pg.Client({ connectionString: store.placement.databaseUrl })
        await admin.connect()
        try {
          const { rows } = await admin.query('select 1 from pg_database where datname = $1', [POSTGRES_TEMPLATE_NAME])
          expect(rows).toHaveLength(1)
          // Nobody but the platform connects to it: a session there would stop every CREATE DATABASE from it.
          const open = await admin.query(
            `select exists (select from pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
             where d.datname = $1 and a.grantee = 0 and a.privilege_type = 'CONNECT') as public_connects`,
            [POSTGRES_TEMPLATE_NAME],
          )
          expect(open.rows).toEqual([{ public_connects: false }])
        } finally {
          await admin.end()
        }
      } finally {
        await fresh.closeAll()
      }
      return
    }
    const cache = await mkdtemp(path.join(os.tmpdir(), 'kp-template-cache-'))
    const fresh = createEngineDatabases(testConfig({ ...store.placement, projectDb: { templateCacheDir: cache } }))
    try {
      expect((await readdir(cache)).filter((name) => name.startsWith('.kp-projectdb-template-'))).toEqual([])
      await fresh.prepare()
      const made = (await readdir(cache)).filter((name) => name.startsWith('.kp-projectdb-template-'))
      expect(made).toHaveLength(1)
      expect(existsSync(path.join(cache, made[0], 'PG_VERSION'))).toBe(true)
    } finally {
      await fresh.closeAll()
      await rm(cache, { recursive: true, force: true })
    }
  }, 120_000)
})
