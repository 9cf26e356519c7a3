/**
 * The run's seeded store serves every file whose settings agree with it on what the seed reads (snapshotKey). The
 * claim behind the key: a store seeded by the same clock with every other lifecycle duration changed is the same
 * store, row for row. Columns that differ between two seeds with the same settings (random refs, salted hashes, the
 * database's own now()) are left out of the comparison.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app'
import type { ServerConfig } from '../../src/server/config'
import type { Db } from '../../src/server/db'
import { createTestStore, FakeClock, testConfig } from './helpers'
import { SEEDED_DURATIONS, snapshotKey } from './storeSnapshot'

type Lifecycle = ServerConfig['lifecycle']
/** Each table's rows, as JSON objects. */
type Contents = Map<string, Record<string, unknown>[]>

async function contents(db: Db): Promise<Contents> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
  )
  const all: Contents = new Map()
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from ${name} t`)
    all.set(name, rows.map((r) => r.row))
  }
  return all
}

async function seeded(lifecycle: Partial<Lifecycle>, clockMs: number): Promise<Contents> {
  const store = await createTestStore()
  const db = await store.open()
  try {
    const app = await createApp({ db, config: testConfig({ ...store.placement, lifecycle }), clock: new FakeClock(clockMs) })
    await app.close()
    return await contents(db)
  } finally {
    await store.destroy()
  }
}

const sortedJson = (values: unknown[]) => values.map((v) => JSON.stringify(v)).sort()

/** The columns of each table whose values differ between two seeds with the same settings. */
function randomColumns(a: Contents, b: Contents): Map<string, Set<string>> {
  const random = new Map<string, Set<string>>()
  for (const [table, rows] of a) {
    const columns = new Set(rows.flatMap((row) => Object.keys(row)))
    const other = b.get(table) ?? []
    random.set(table, new Set([...columns].filter((c) => JSON.stringify(sortedJson(rows.map((r) => r[c]))) !== JSON.stringify(sortedJson(other.map((r) => r[c]))))))
  }
  return random
}

function comparable(all: Contents, random: Map<string, Set<string>>): Record<string, string[]> {
  return Object.fromEntries(
    [...all].map(([table, rows]) => [
      table,
      sortedJson(rows.map((row) => Object.fromEntries(Object.entries(row).filter(([c]) => !random.get(table)?.has(c))))),
    ]),
  )
}

describe('the seeded store snapshot', () => {
  it('is the store a seed makes with any other lifecycle durations, so files with those share it', async () => {
    const base = testConfig().lifecycle
    const others = (Object.keys(base) as (keyof Lifecycle)[]).filter((name) => !(SEEDED_DURATIONS as readonly string[]).includes(name))
    const changed = Object.fromEntries(others.map((name) => [name, base[name] * 3 + 7])) as Partial<Lifecycle>
    expect(Object.keys(changed).length).toBeGreaterThan(0)
    expect(snapshotKey(testConfig({ lifecycle: changed }))).toBe(snapshotKey(testConfig()))

    const now = Date.now()
    const first = await seeded({}, now)
    const second = await seeded({}, now)
    const other = await seeded(changed, now)
    const random = randomColumns(first, second)
    // What the durations reach is compared: the demo projects' scheduled transitions and their due times.
    expect(random.get('public.lifecycle_transitions')?.has('due_at')).toBe(false)
    expect(first.get('public.lifecycle_transitions')?.length).toBeGreaterThan(0)
    expect(comparable(other, random)).toEqual(comparable(first, random))
  }, 120_000)
})
