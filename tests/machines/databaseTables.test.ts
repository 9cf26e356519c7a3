import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { databaseTablesMachine, selectDatabaseTablesView } from '../../machines/databaseTables.machine'
import type { DatabaseTable } from '../../src/contracts/database'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'
const ORDERS: DatabaseTable = {
  name: 'orders',
  schema: 'public',
  kind: 'table',
  comment: null,
  rls_enabled: true,
  estimated_rows: 3,
  columns: [],
  primary_keys: [],
  relationships: [],
}

function start() {
  const list = deferredActor<DatabaseTable[], { ref: string }>('listTables')
  const actor = createActor(databaseTablesMachine.provide({ actors: { listTables: list.logic } }), { input: { ref: REF } }).start()
  return { actor, loads: list.runs, view: () => selectDatabaseTablesView(actor.getSnapshot()) }
}

usePathClock()

describe('database tables machine', () => {
  it("loads the project's tables", async () => {
    const { loads, view } = start()
    expect(view()).toEqual({ phase: 'loading' })
    expect(loads[0].input).toEqual({ ref: REF })
    loads[0].resolve([ORDERS])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', tables: [ORDERS], refreshing: false, error: null })
  })

  it('a failed first load shows its message and retries', async () => {
    const { actor, loads, view } = start()
    loads[0].reject(new Error('Unable to reach the server'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'failed', error: 'Unable to reach the server' })
    expect(actor.getSnapshot().can({ type: 'tables.refresh' })).toBe(false)
    actor.send({ type: 'tables.retry' })
    loads[1].resolve([])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'loaded', tables: [] })
  })

  it('a first load unanswered for the project database time-out is abandoned and reported', async () => {
    const { loads, view } = start()
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS - 1)
    expect(view()).toEqual({ phase: 'loading' })
    await vi.advanceTimersByTimeAsync(1)
    expect(loads[0].signal.aborted).toBe(true)
    expect(view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })

  it('a refresh keeps the list on screen, and a failed or timed-out refresh keeps it with the reason', async () => {
    const { actor, loads, view } = start()
    loads[0].resolve([ORDERS])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'tables.refresh' })
    expect(view()).toEqual({ phase: 'loaded', tables: [ORDERS], refreshing: true, error: null })
    expect(actor.getSnapshot().can({ type: 'tables.refresh' })).toBe(false)
    loads[1].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'loaded', tables: [ORDERS], refreshing: false, error: 'Internal server error' })
    actor.send({ type: 'tables.refresh' })
    expect(view()).toMatchObject({ error: null })
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(loads[2].signal.aborted).toBe(true)
    expect(view()).toEqual({ phase: 'loaded', tables: [ORDERS], refreshing: false, error: 'The request timed out' })
    actor.send({ type: 'tables.refresh' })
    loads[3].resolve([ORDERS, { ...ORDERS, name: 'customers' }])
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ tables: [{ name: 'orders' }, { name: 'customers' }], error: null })
  })
})
