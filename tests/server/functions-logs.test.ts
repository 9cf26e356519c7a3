/**
 * A function's log in the platform's store: entries written in batches (a call never waits on the store), the newest
 * 1,000 per function kept, surviving a restart of the platform, deleted with the function and with its project; each
 * invocation measured (the worker's CPU time during it, its memory when it answered), which functions.combined-stats
 * averages as the platform's answer does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CombinedStats } from '../../src/contracts/functions'
import type { Db, Queryable } from '../../src/server/db'
import { deployFunction } from './functions-support'
import { FunctionLogs, LOG_LIMIT } from '../../src/server/features/functions/runtime/logs'
import { createSeededStore, FakeClock, OWNER, projectByName, startTestServer, type TestServer, type TestStore, listenOnPort } from './helpers'

let store: TestStore
let clock: FakeClock
let s: TestServer
let origin: string
let stopListening: () => Promise<void>
let project: { id: number; ref: string }

async function deploy(slug: string, body: string) {
  return deployFunction(s.db, project.id, slug, body, { now: s.clock.now() })
}

const stored = async (functionId: string) =>
  (await s.db.query<{ n: number }>('select count(*)::int as n from edge_function_logs where function_id = $1', [functionId])).rows[0].n

async function start() {
  s = await startTestServer({ store, clock, config: { functions: { wallClockMs: 30_000, idleMs: 30_000 } } })
  ;({ origin, close: stopListening } = await listenOnPort(s))
  project = await projectByName(s, 'Recipe Box')
}

beforeAll(async () => {
  ;({ store, clock } = await createSeededStore())
  await start()
}, 120_000)

afterAll(async () => {
  await stopListening?.()
  await s?.close()
})

describe('a function log in the store', () => {
  it('survives a restart of the platform: what was queued is written on close and read back by the next process', async () => {
    const fn = await deploy('kept', `Deno.serve(() => { console.log('before the restart'); return new Response('ok') })`)
    const res = await fetch(`${origin}/p/${project.ref}/functions/v1/kept`)
    expect(await res.text()).toBe('ok')
    await stopListening()
    await s.close({ destroy: false })
    await start()
    const entries = await s.functionRuntime.logs.list(fn.id)
    expect(entries.map((e) => e.kind).sort()).toEqual(['boot', 'console', 'invocation'])
    expect(entries.find((e) => e.kind === 'console')?.event_message).toBe('before the restart')
    expect(entries.find((e) => e.kind === 'invocation')).toMatchObject({ method: 'GET', status: 200, path: '/kept', version: 1 })
    // The dashboard's read and the Management API's logs.all read the same rows.
    const cookie = await s.signIn(OWNER)
    const page = await s.request(`/platform/projects/${project.ref}/functions/kept/logs`, { headers: { cookie } })
    expect(((await page.json()) as { result: unknown[] }).result).toHaveLength(3)
    const sql = `select id, event_message from function_logs order by timestamp desc`
    const range = `iso_timestamp_start=${new Date(s.clock.now().getTime() - 3_600_000).toISOString()}&iso_timestamp_end=${s.clock.now().toISOString()}`
    const all = await s.request(`/v1/projects/${project.ref}/analytics/endpoints/logs.all?sql=${encodeURIComponent(sql)}&${range}`, { headers: { cookie } })
    expect(((await all.json()) as { result: { event_message: string }[] }).result.map((r) => r.event_message)).toContain('before the restart')
  }, 120_000)

  it('keeps the newest 1,000 entries of each function and deletes the older ones as it writes', async () => {
    const a = await deploy('chatty', `Deno.serve(() => new Response('a'))`)
    const b = await deploy('quiet', `Deno.serve(() => new Response('b'))`)
    const logs = s.functionRuntime.logs
    logs.add(b.id, { kind: 'console', level: 'log', event_message: 'the only line' })
    for (let i = 0; i < 600; i++) logs.add(a.id, { kind: 'console', level: 'log', event_message: `line ${i}` })
    await logs.flush()
    for (let i = 600; i < LOG_LIMIT + 50; i++) logs.add(a.id, { kind: 'console', level: 'log', event_message: `line ${i}` })
    const entries = await logs.list(a.id)
    expect(entries).toHaveLength(LOG_LIMIT)
    expect(entries[0].event_message).toBe('line 50')
    expect(entries.at(-1)!.event_message).toBe(`line ${LOG_LIMIT + 49}`)
    expect(await stored(a.id)).toBe(LOG_LIMIT)
    expect((await logs.list(b.id)).map((e) => e.event_message)).toEqual(['the only line'])
  })

  it('goes with its function and with its project; an entry queued for a deleted function is dropped, not an error', async () => {
    const cookie = await s.signIn(OWNER)
    const fn = await deploy('doomed', `Deno.serve(() => new Response('x'))`)
    expect(await (await fetch(`${origin}/p/${project.ref}/functions/v1/doomed`)).text()).toBe('x')
    await s.functionRuntime.logs.flush()
    expect(await stored(fn.id)).toBeGreaterThan(0)
    const deleted = await s.request(`/v1/projects/${project.ref}/functions/doomed`, { method: 'DELETE', headers: { cookie } })
    expect(deleted.status).toBe(200)
    expect(await stored(fn.id)).toBe(0)
    s.functionRuntime.logs.add(fn.id, { kind: 'console', level: 'log', event_message: 'too late' })
    await s.functionRuntime.logs.flush()
    expect(await stored(fn.id)).toBe(0)

    const shop = await projectByName(s, 'Acme Storefront')
    const shopFn = (await s.db.query<{ id: string }>('select id::text as id from edge_functions where project_id = $1 limit 1', [shop.id])).rows[0]
    s.functionRuntime.logs.add(shopFn.id, { kind: 'console', level: 'log', event_message: 'a line of the shop' })
    await s.functionRuntime.logs.flush()
    expect(await stored(shopFn.id)).toBe(1)
    const removed = await s.request(`/v1/projects/${shop.ref}`, { method: 'DELETE', headers: { cookie } })
    expect(removed.status).toBe(200)
    expect(await stored(shopFn.id)).toBe(0)
  }, 60_000)

  it('never makes a caller wait on the store: add returns while a write is blocked, and a read waits for it', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let blocked = 0
    // The store as the logs see it, whose transactions wait at the gate.
    const slow: Db = {
      kind: s.db.kind,
      listen: (handlers) => s.db.listen(handlers),
      close: async () => {},
      query: (sql, params) => s.db.query(sql, params),
      exec: (sql) => s.db.exec(sql),
      transaction: async <T,>(fn: (tx: Queryable) => Promise<T>) => {
        blocked++
        await gate
        return s.db.transaction(fn)
      },
    }
    const fn = await deploy('gated', `Deno.serve(() => new Response('g'))`)
    const logs = new FunctionLogs(slow, () => s.clock.now().getTime(), 60_000)
    const flushing = logs.flush()
    logs.add(fn.id, { kind: 'console', level: 'log', event_message: 'queued' })
    const writing = logs.flush()
    const read = logs.list(fn.id)
    let readDone = false
    void read.then(() => (readDone = true))
    await new Promise((r) => setTimeout(r, 50))
    expect(blocked).toBe(1)
    expect(readDone).toBe(false)
    logs.add(fn.id, { kind: 'console', level: 'log', event_message: 'queued while blocked' })
    release()
    await Promise.all([flushing, writing])
    expect((await read).map((e) => e.event_message)).toEqual(['queued', 'queued while blocked'])
    await logs.close()
  })
})

describe('what an invocation is measured by', () => {
  it("records the worker's CPU time and memory, and functions.combined-stats averages them per bucket", async () => {
    // A fixed amount of work (not a time: the machine is shared), and the process's own count of the CPU it took.
    const fn = await deploy(
      'burner',
      `import process from 'node:process'
      Deno.serve((req) => {
        const n = Number(new URL(req.url).searchParams.get('n'))
        const before = process.cpuUsage()
        let x = 0
        for (let i = 0; i < n; i++) x += i % 7
        const { user, system } = process.cpuUsage(before)
        return Response.json({ x, cpuMs: (user + system) / 1000 })
      })`,
    )
    const own: number[] = []
    for (const n of [0, 200_000_000]) {
      const res = await fetch(`${origin}/p/${project.ref}/functions/v1/burner?n=${n}`)
      own.push(((await res.json()) as { cpuMs: number }).cpuMs)
      // The caller never sees the header the memory reading came on.
      expect(res.headers.get('x-kp-memory')).toBeNull()
    }
    const calls = (await s.functionRuntime.logs.list(fn.id)).filter((e) => e.kind === 'invocation')
    expect(calls).toHaveLength(2)
    const [idle, busy] = calls
    expect(own[1]).toBeGreaterThan(100)
    // The kernel counts in 10 ms ticks, read before and after the call: within a few ticks of the process's own count.
    expect(Math.abs(busy.cpu_time_ms! - own[1])).toBeLessThanOrEqual(50)
    expect(idle.cpu_time_ms).toBeLessThanOrEqual(own[0] + 50)
    for (const call of calls) {
      expect(call.memory_mb).toBeGreaterThan(10)
      expect(call.heap_memory_mb).toBeGreaterThan(0)
      expect(call.heap_memory_mb!).toBeLessThan(call.memory_mb!)
      expect(call.external_memory_mb).toBeGreaterThanOrEqual(0)
    }

    const cookie = await s.signIn(OWNER)
    const res = await s.request(`/v1/projects/${project.ref}/analytics/endpoints/functions.combined-stats?interval=1hr&function_id=${fn.id}`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const { result } = CombinedStats.parse(await res.json())
    expect(result).toHaveLength(1)
    const [row] = result
    expect(row.requests_count).toBe(2)
    expect(row.max_cpu_time_used).toBe(busy.cpu_time_ms)
    expect(row.avg_cpu_time_used).toBeCloseTo((idle.cpu_time_ms! + busy.cpu_time_ms!) / 2)
    expect(row.avg_memory_used).toBeCloseTo((idle.memory_mb! + busy.memory_mb!) / 2)
    expect(row.avg_heap_memory_used).toBeCloseTo((idle.heap_memory_mb! + busy.heap_memory_mb!) / 2)
    expect(row.avg_external_memory_used).toBeCloseTo((idle.external_memory_mb! + busy.external_memory_mb!) / 2)
  }, 60_000)

  it('measures nothing of a call refused before it reached a worker, and averages only the measured ones', async () => {
    const fn = await deploy('broken', `throw new Error('fails at start')`)
    const res = await fetch(`${origin}/p/${project.ref}/functions/v1/broken`)
    expect(res.status).toBe(503)
    await res.arrayBuffer()
    const [call] = (await s.functionRuntime.logs.list(fn.id)).filter((e) => e.kind === 'invocation')
    expect(call).toMatchObject({ status: 503 })
    expect(call.cpu_time_ms).toBeUndefined()
    expect(call.memory_mb).toBeUndefined()
    const cookie = await s.signIn(OWNER)
    const stats = await s.request(`/v1/projects/${project.ref}/analytics/endpoints/functions.combined-stats?interval=15min&function_id=${fn.id}`, { headers: { cookie } })
    const { result } = CombinedStats.parse(await stats.json())
    expect(result.map((r) => [r.requests_count, r.server_err_count, r.avg_cpu_time_used, r.avg_memory_used])).toEqual([[1, 1, 0, 0]])
  }, 60_000)
})
