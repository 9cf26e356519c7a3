import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app'
import type { Db } from '../../src/server/db'
import { migrate, migrations } from '../../src/server/db/migrate'
import { FakeClock, createTestStore, isPostgres, testConfig, type TestStore } from './helpers'

let store: TestStore
const opened: Db[] = []
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(async () => {
  await store?.destroy()
})

describe('migrations and demo seed', () => {
  it('two servers starting at once on one empty database migrate and seed exactly once', async () => {
    const a = await store.open()
    opened.push(a)
    // On Postgres a second pool is a second "process"; PGlite has one connection, so the same handle.
    const b = isPostgres ? await store.open() : a
    const config = testConfig()
    const servers = await Promise.all([
      createApp({ db: a, config, clock: new FakeClock() }),
      createApp({ db: b, config, clock: new FakeClock() }),
    ])
    // Closed at once: only what they wrote to the store is looked at, and their timers must not outlive the test.
    await Promise.all(servers.map((server) => server.close()))
    const count = async (table: string) =>
      (await a.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n
    expect(await count('accounts')).toBe(3)
    expect(await count('organizations')).toBe(2)
    expect(await count('projects')).toBe(11)
    expect(await count('members')).toBe(6)
    // One pending transition: the seeded COMING_UP project (the held demo states have theirs cancelled).
    expect(await count('lifecycle_transitions where done_at is null and cancelled_at is null')).toBe(1)
    const { rows } = await a.query<{ id: string }>('select id from schema_migrations order by id')
    expect(rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id))
  })

  it('migrating again applies nothing', async () => {
    expect(await migrate(opened[0])).toEqual([])
  })

  it('a transaction that throws leaves nothing behind', async () => {
    const db = opened[0]
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into organizations (slug, name, plan_id) values ('rolled-back', 'X', 'free')`)
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    const { rows } = await db.query(`select 1 from organizations where slug = 'rolled-back'`)
    expect(rows).toEqual([])
  })
})
