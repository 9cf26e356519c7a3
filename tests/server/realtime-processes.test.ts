/**
 * Two platform processes on one PostgreSQL store (DATABASE_URL), as two servers with their own store handles, project
 * database engines and realtime hubs: a broadcast sent on either (over the socket or the HTTP API) and presence
 * tracked on either reach the clients connected to the other. On PGlite a data folder has one process: there the
 * same walk runs with both clients on the one server.
 * And a process killed without closing (a child process, SIGKILL): the presence it relayed leaves the others once its
 * entry in the store is no longer renewed (PostgreSQL only: PGlite has no second process).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createTestStore, FakeClock, isPostgres, type TestStore } from './helpers'
import { inbox, startRealtimeServer, subscribed, type RealtimeTestServer } from './realtime-support'

/** How long a process's presence outlives its last renewal here (the platform's is 30 s). */
const PROCESS_LIVE_MS = 1_500

let a: RealtimeTestServer
let b: RealtimeTestServer
let store: TestStore | undefined

beforeAll(async () => {
  if (isPostgres) {
    const snapshot = inject('storeSnapshot')
    store = await createTestStore({ snapshot })
    const clock = new FakeClock(snapshot?.seededAt)
    a = await startRealtimeServer('Recipe Box', { realtime: { processLiveMs: PROCESS_LIVE_MS } }, { store, db: await store.open(), clock })
    b = await startRealtimeServer('Recipe Box', { realtime: { processLiveMs: PROCESS_LIVE_MS } }, { store, db: await store.open(), clock })
  } else {
    a = await startRealtimeServer()
    b = a
  }
}, 120_000)

afterAll(async () => {
  if (b !== a) await b?.close({ destroy: false })
  await a?.close()
})

interface Presence {
  [key: string]: { name?: string }[]
}

describe(isPostgres ? 'two processes on one PostgreSQL store' : 'one process on a PGlite store', () => {
  it('delivers a broadcast sent on one process (socket or HTTP) to the clients of the other, and presence both ways', async () => {
    expect(a.project.ref).toBe(b.project.ref)
    const onA = a.client()
    const onB = b.client()
    const gotOnB = inbox<{ payload: { n: number; text?: string } }>()
    const gotOnA = inbox<{ payload: { n: number; text?: string } }>()
    const syncA = inbox<Presence>()
    const syncB = inbox<Presence>()
    const chA = onA.channel('across', { config: { presence: { key: 'alice' } } })
    const chB = onB.channel('across', { config: { presence: { key: 'bob' } } })
    chA.on('broadcast', { event: 'hello' }, (m) => gotOnA.push(m as never)).on('presence', { event: 'sync' }, () => syncA.push(chA.presenceState() as never))
    chB.on('broadcast', { event: 'hello' }, (m) => gotOnB.push(m as never)).on('presence', { event: 'sync' }, () => syncB.push(chB.presenceState() as never))
    await subscribed(chA)
    await subscribed(chB)

    // Socket to socket, across processes; a payload past one NOTIFY (8,000 bytes) too.
    expect(await chA.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } })).toBe('ok')
    const big = 'é'.repeat(12_000)
    expect(await chA.send({ type: 'broadcast', event: 'hello', payload: { n: 2, text: big } })).toBe('ok')
    const received = await gotOnB.waitFor(2)
    expect(received.map((m) => m.payload.n)).toEqual([1, 2])
    expect(received[1].payload.text).toBe(big)

    // The HTTP API of the other process.
    const res = await fetch(`${b.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: b.keys.anon, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: 'across', event: 'hello', payload: { n: 3 } }] }),
    })
    expect(res.status).toBe(202)
    expect((await gotOnA.waitFor(1)).map((m) => m.payload.n)).toEqual([3])

    // Presence: each side sees the other's tracked state, and its leave.
    expect(await chA.track({ name: 'Alice' })).toBe('ok')
    expect(await chB.track({ name: 'Bob' })).toBe('ok')
    const both = (items: Presence[]) => {
      const last = items.at(-1) ?? {}
      return last.alice?.[0]?.name === 'Alice' && last.bob?.[0]?.name === 'Bob'
    }
    for (let i = 0; i < 200 && !(both(syncA.items) && both(syncB.items)); i++) await Promise.race([syncA.waitFor(syncA.items.length + 1, 100), syncB.waitFor(syncB.items.length + 1, 100)])
    expect(both(syncA.items)).toBe(true)
    expect(both(syncB.items)).toBe(true)
    expect(await chB.untrack()).toBe('ok')
    for (let i = 0; i < 200 && syncA.items.at(-1)?.bob; i++) await syncA.waitFor(syncA.items.length + 1, 100)
    expect(Object.keys(syncA.items.at(-1)!)).toEqual(['alice'])

    // A client joining later on the other process gets the presence tracked so far.
    const late = b.client()
    const syncLate = inbox<Presence>()
    const chLate = late.channel('across', { config: { presence: { key: 'carol' } } })
    chLate.on('presence', { event: 'sync' }, () => syncLate.push(chLate.presenceState() as never))
    await subscribed(chLate)
    for (let i = 0; i < 200 && !syncLate.items.at(-1)?.alice; i++) await syncLate.waitFor(syncLate.items.length + 1, 100)
    expect(syncLate.items.at(-1)?.alice?.[0]?.name).toBe('Alice')
  })

  if (isPostgres) {
    it('drops the presence a process relayed once it is killed without closing and stops renewing its entry', async () => {
      const child = await startChildProcess(store!.placement)
      let onChild: SupabaseClient | undefined
      try {
        onChild = createClient(`${child.origin}/p/${a.project.ref}`, a.keys.anon, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          realtime: { transport: WebSocket as never, heartbeatIntervalMs: 5_000 },
        })
        const syncA = inbox<Presence>()
        const chA = a.client().channel('crash', { config: { presence: { key: 'alice' } } })
        chA.on('presence', { event: 'sync' }, () => syncA.push(chA.presenceState() as never))
        await subscribed(chA)
        // realtime-js joins with presence on only when the channel listens to presence.
        const chChild = onChild.channel('crash', { config: { presence: { key: 'ghost' } } }).on('presence', { event: 'sync' }, () => {})
        await subscribed(chChild)
        expect(await chChild.track({ name: 'Ghost' })).toBe('ok')
        for (let i = 0; i < 100 && !syncA.items.at(-1)?.ghost; i++) await syncA.waitFor(syncA.items.length + 1, 100)
        expect(syncA.items.at(-1)?.ghost?.[0]?.name).toBe('Ghost')

        // Killed: no leave is ever sent; its entry stops being renewed, and within its window the ghost is gone.
        const exited = new Promise((resolve) => child.process.once('exit', resolve))
        child.process.kill('SIGKILL')
        await exited
        for (let i = 0; i < 200 && syncA.items.at(-1)?.ghost; i++) await syncA.waitFor(syncA.items.length + 1, 100)
        expect(syncA.items.at(-1)).toEqual({})
      } finally {
        onChild?.realtime.disconnect()
        child.process.kill('SIGKILL')
      }
    }, 90_000)
  }
})

/** A platform process of its own on the store (realtime-child-process.ts), once it listens. */
async function startChildProcess(placement: TestStore['placement']): Promise<{ process: ChildProcess; origin: string }> {
  // Node itself with tsx's loader (not the tsx command, which runs the script in a child of its own): the SIGKILL
  // must reach the process that serves.
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/server/realtime-child-process.ts')], {
    env: { ...process.env, REALTIME_CHILD: JSON.stringify({ placement, realtime: { processLiveMs: PROCESS_LIVE_MS } }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr!.on('data', (d) => (err += String(d)))
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d)
      const m = /listening (\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    child.once('exit', (code) => reject(new Error(`the child process exited (${code}) before listening: ${err.slice(-2000)}`)))
  })
  return { process: child, origin }
}
