/**
 * The fair sharing of the open-database slots between tenants, on the engine alone (no app): a tenant cycling more
 * projects than there are slots recycles its own and never closes another tenant's warm database; a tenant holding
 * more than its share gives the excess up at once; a caller that would wait past the bound is refused
 * 'database_busy' with a retry time, and gets its slot once the other's database has gone cold; the platform's own
 * work waits as long as it takes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEngineDatabases } from '../../src/server/projectdb'
import type { DatabaseManager } from '../../src/server/projectdb/manager'
import { ProjectDbError } from '../../src/server/projectdb/types'
import { createTestStore, testConfig, type TestStore } from './helpers'

const ref = (c: string) => c.repeat(20)
const VICTIM = ref('v')
const VICTIM_2 = ref('w')
const CYCLED = ['k', 'l', 'm', 'n', 'o'].map(ref)

let store: TestStore
const engines: DatabaseManager[] = []

function engine(projectDb: { maxOpen: number; slotWaitMs: number; minResidencyMs: number }): DatabaseManager {
  const dbs = createEngineDatabases(testConfig({ ...store.placement, projectDb: { idleMs: 600_000, queryTimeoutMs: 15_000, ...projectDb } }))
  engines.push(dbs)
  return dbs
}

const use = (dbs: DatabaseManager, r: string, tenant: string, extra: { platform?: boolean } = {}) =>
  dbs.transaction(r, { tenant, ...extra }, (tx) => tx.query('select 1 as one'))

beforeAll(async () => {
  store = await createTestStore()
  const maker = engine({ maxOpen: 4, slotWaitMs: 60_000, minResidencyMs: 0 })
  for (const r of [VICTIM, VICTIM_2, ...CYCLED]) await maker.create(r)
}, 120_000)

// One engine at a time on a database folder.
afterEach(async () => {
  while (engines.length) await engines.pop()!.closeAll()
})

afterAll(async () => {
  await store?.destroy()
})

describe('fair slots', () => {
  it("a tenant cycling more projects than slots never closes another tenant's warm database", async () => {
    const dbs = engine({ maxOpen: 2, slotWaitMs: 5_000, minResidencyMs: 60_000 })
    await use(dbs, VICTIM, 'victim')
    for (const r of CYCLED) {
      await use(dbs, r, 'cycler')
      expect(dbs.openRefs()).toContain(VICTIM)
      expect(dbs.openRefs().length).toBeLessThanOrEqual(2)
    }
    // And the victim's next query finds its database open.
    await use(dbs, VICTIM, 'victim')
    expect(dbs.openRefs().sort()).toEqual([CYCLED[4], VICTIM].sort())
  }, 60_000)

  it('a tenant holding more than its share gives the least recently used excess up at once', async () => {
    const dbs = engine({ maxOpen: 2, slotWaitMs: 5_000, minResidencyMs: 60_000 })
    await use(dbs, CYCLED[0], 'cycler')
    await use(dbs, CYCLED[1], 'cycler')
    // Two tenants now: a share of one slot each; the cycler's older database is the excess.
    await use(dbs, VICTIM, 'victim')
    expect(dbs.openRefs().sort()).toEqual([CYCLED[1], VICTIM].sort())
    // The cycler's remaining database is within its share and warm: the victim's second one takes its own first's slot.
    await use(dbs, VICTIM_2, 'victim')
    expect(dbs.openRefs().sort()).toEqual([CYCLED[1], VICTIM_2].sort())
  }, 60_000)

  it('a caller that would wait past the bound gets database_busy with a retry time, and its slot once the other goes cold', async () => {
    const residency = 2_500
    const dbs = engine({ maxOpen: 1, slotWaitMs: 300, minResidencyMs: residency })
    await use(dbs, VICTIM, 'victim')
    const started = performance.now()
    const err = await use(dbs, CYCLED[0], 'cycler').catch((e: unknown) => e)
    const waited = performance.now() - started
    expect(err).toBeInstanceOf(ProjectDbError)
    expect(err).toMatchObject({ code: 'database_busy' })
    expect((err as ProjectDbError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect((err as ProjectDbError).retryAfterSeconds).toBeLessThanOrEqual(Math.ceil(residency / 1000))
    // It waited for the bound, not for the other's residency.
    expect(waited).toBeGreaterThanOrEqual(300)
    expect(waited).toBeLessThan(residency)
    expect(dbs.openRefs()).toEqual([VICTIM])
    // Once the victim's database has been unused for the residency, the cycler may close it.
    await new Promise((r) => setTimeout(r, residency + 100))
    await use(dbs, CYCLED[0], 'cycler')
    expect(dbs.openRefs()).toEqual([CYCLED[0]])
  }, 60_000)

  it("a waiting caller is woken when the other's protection ends within its bound", async () => {
    const dbs = engine({ maxOpen: 1, slotWaitMs: 5_000, minResidencyMs: 800 })
    await use(dbs, VICTIM, 'victim')
    const started = performance.now()
    await use(dbs, CYCLED[0], 'cycler')
    const waited = performance.now() - started
    expect(waited).toBeGreaterThanOrEqual(700)
    expect(dbs.openRefs()).toEqual([CYCLED[0]])
  }, 60_000)

  it("the platform's own work waits past the bound instead of failing", async () => {
    const dbs = engine({ maxOpen: 1, slotWaitMs: 100, minResidencyMs: 1_000 })
    await use(dbs, VICTIM, 'victim')
    await expect(use(dbs, CYCLED[0], 'cycler', { platform: true })).resolves.toMatchObject({ rows: [{ one: 1 }] })
  }, 60_000)

  it('one tenant alone keeps plain least-recently-used order', async () => {
    const dbs = engine({ maxOpen: 2, slotWaitMs: 100, minResidencyMs: 60_000 })
    await use(dbs, CYCLED[0], 'solo')
    await use(dbs, CYCLED[1], 'solo')
    await use(dbs, CYCLED[0], 'solo')
    await use(dbs, CYCLED[2], 'solo')
    expect(dbs.openRefs().sort()).toEqual([CYCLED[0], CYCLED[2]].sort())
  }, 60_000)

  it('uses within one millisecond keep least-recently-used order', async () => {
    // The clock stands still (only Date is faked; the engine's timers run): every use has the same time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    try {
      const dbs = engine({ maxOpen: 2, slotWaitMs: 100, minResidencyMs: 0 })
      await use(dbs, CYCLED[0], 'solo')
      await use(dbs, CYCLED[1], 'solo')
      await use(dbs, CYCLED[0], 'solo')
      await use(dbs, CYCLED[2], 'solo')
      expect(dbs.openRefs().sort()).toEqual([CYCLED[0], CYCLED[2]].sort())
    } finally {
      vi.useRealTimers()
    }
  }, 60_000)
})
