/**
 * The realtime socket with the real client (supabase-js' realtime-js over `ws`): the key from the URL verified by the
 * gateway, join, leave and heartbeat, broadcast between two clients (self, ack, over HTTP too), presence sync with
 * join and leave diffs, private channels decided by the RLS policies of realtime.messages, and a user's token that
 * expires closing its channel with the platform's message. Both serializer versions.
 */
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectDbPrefix } from '../../src/server/projectdb/postgres'
import { isPostgres, projectByName } from './helpers'
import { inbox, sleep, startRealtimeServer, subscribed, type RealtimeTestServer } from './realtime-support'

let env: RealtimeTestServer

beforeAll(async () => {
  env = await startRealtimeServer()
}, 120_000)

afterAll(async () => {
  await env?.close()
})

/** A raw socket speaking the protocol itself, for what the client library never sends. */
async function raw(vsn: '1.0.0' | '2.0.0', key = env.keys.anon) {
  const ws = new WebSocket(`${env.socketUrl}?apikey=${encodeURIComponent(key)}&vsn=${vsn}`)
  const frames = inbox<unknown>()
  ws.on('message', (data, isBinary) => frames.push(isBinary ? data : JSON.parse(String(data))))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return { ws, frames, send: (frame: unknown) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)) }
}

describe('the realtime socket', () => {
  it('refuses an upgrade without a key or with a forged one, in its own error shape, before any socket exists', async () => {
    for (const url of [`${env.socketUrl}?vsn=2.0.0`, `${env.socketUrl}?apikey=not.a.jwt&vsn=2.0.0`]) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(url)
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
        ws.on('open', () => resolve(101))
        ws.on('error', () => {})
      })
      expect(status).toBe(401)
    }
    const res = await fetch(`${env.url}/realtime/v1/websocket?apikey=${env.keys.anon}`)
    expect(res.status).toBe(426)
    expect(await res.json()).toEqual({ message: 'Upgrade Required: connect to this URL with a WebSocket' })
  })

  it('answers a heartbeat, a join and a leave in phx_reply shapes, in serializer 2.0.0 (arrays) and 1.0.0 (objects)', async () => {
    const v2 = await raw('2.0.0')
    v2.send([null, '1', 'phoenix', 'heartbeat', {}])
    v2.send(['2', '2', 'realtime:lobby', 'phx_join', { config: { broadcast: { self: false }, presence: { enabled: false } } }])
    v2.send(['2', '3', 'realtime:lobby', 'phx_leave', {}])
    expect(await v2.frames.waitFor(3)).toEqual([
      [null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      ['2', '2', 'realtime:lobby', 'phx_reply', { status: 'ok', response: {} }],
      ['2', '3', 'realtime:lobby', 'phx_reply', { status: 'ok', response: {} }],
    ])
    v2.ws.close()
    const v1 = await raw('1.0.0')
    v1.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '9', join_ref: null })
    expect(await v1.frames.waitFor(1)).toEqual([{ topic: 'phoenix', event: 'phx_reply', payload: { status: 'ok', response: {} }, ref: '9', join_ref: null }])
    v1.ws.close()
  })

  it('carries a broadcast between two clients; the sender hears itself only with self, and gets an ack with ack', async () => {
    const alice = env.client()
    const bob = env.client()
    const heardByBob = inbox<unknown>()
    const heardByAlice = inbox<unknown>()
    await subscribed(bob.channel('room-1').on('broadcast', { event: 'cursor' }, (m) => heardByBob.push(m)))
    const a = await subscribed(alice.channel('room-1', { config: { broadcast: { ack: true } } }).on('broadcast', { event: 'cursor' }, (m) => heardByAlice.push(m)))
    expect(await a.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } })).toBe('ok')
    expect(await heardByBob.waitFor(1)).toEqual([{ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } }])
    await sleep(200)
    expect(heardByAlice.items).toEqual([])

    const carol = env.client()
    const heardByCarol = inbox<unknown>()
    const c = await subscribed(carol.channel('room-2', { config: { broadcast: { self: true } } }).on('broadcast', { event: '*' }, (m) => heardByCarol.push(m)))
    await c.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } })
    expect(await heardByCarol.waitFor(1)).toEqual([{ type: 'broadcast', event: 'hello', payload: { n: 1 } }])
    // Another topic heard nothing of it.
    expect(heardByBob.items).toHaveLength(1)
  })

  it('delivers a broadcast sent over HTTP (the REST fallback and httpSend) to the subscribed clients', async () => {
    const listener = env.client()
    const heard = inbox<unknown>()
    await subscribed(listener.channel('news').on('broadcast', { event: 'post' }, (m) => heard.push(m)))
    const res = await fetch(`${env.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: 'news', event: 'post', payload: { title: 'hi' } }] }),
    })
    expect(res.status).toBe(202)
    const sender = env.client()
    expect(await sender.channel('news').httpSend('post', { title: 'again' })).toEqual({ success: true })
    expect(await heard.waitFor(2)).toEqual([
      { type: 'broadcast', event: 'post', payload: { title: 'hi' } },
      { type: 'broadcast', event: 'post', payload: { title: 'again' } },
    ])
    const bad = await fetch(`${env.url}/realtime/v1/api/broadcast`, { method: 'POST', headers: { apikey: env.keys.anon, 'content-type': 'application/json' }, body: '{"messages":[]}' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(/messages/)
  })

  it('syncs presence between two clients: both see each other, and a leave reaches the one who stays', async () => {
    const ann = env.client()
    const ben = env.client()
    const annChannel = ann.channel('presence-room', { config: { presence: { key: 'ann' } } })
    const benChannel = ben.channel('presence-room', { config: { presence: { key: 'ben' } } })
    const annLeaves = inbox<string>()
    annChannel.on('presence', { event: 'leave' }, ({ key }) => annLeaves.push(key))
    const annSyncs = inbox<number>()
    annChannel.on('presence', { event: 'sync' }, () => annSyncs.push(Object.keys(annChannel.presenceState()).length))
    benChannel.on('presence', { event: 'sync' }, () => {})
    await subscribed(annChannel)
    await subscribed(benChannel)
    expect(await annChannel.track({ status: 'online' })).toBe('ok')
    expect(await benChannel.track({ status: 'away' })).toBe('ok')
    await annSyncs.waitFor(3)
    await sleep(100)
    const state = annChannel.presenceState<{ status: string }>()
    expect(Object.keys(state).sort()).toEqual(['ann', 'ben'])
    expect(state.ben[0]).toMatchObject({ status: 'away' })
    expect(benChannel.presenceState<{ status: string }>().ann[0]).toMatchObject({ status: 'online' })

    expect(await benChannel.untrack()).toBe('ok')
    expect(await annLeaves.waitFor(1)).toEqual(['ben'])
    await sleep(100)
    expect(Object.keys(annChannel.presenceState())).toEqual(['ann'])
  })

  it('joins a private channel only as the RLS policies of realtime.messages allow, and sends only if they allow writing', async () => {
    await env.sql(`create policy "members read" on realtime.messages for select to authenticated using (realtime.topic() = 'team-' || (auth.jwt() ->> 'sub'))`)
    await env.sql(`create policy "members write" on realtime.messages for insert to authenticated with check (realtime.topic() = 'team-' || (auth.jwt() ->> 'sub'))`)
    const anon = env.client()
    await expect(subscribed(anon.channel('team-u1', { config: { private: true } }))).rejects.toThrow(/permissions to read/)
    const u1 = env.client()
    await u1.realtime.setAuth(await env.userToken('u1'))
    const heard = inbox<unknown>()
    const mine = await subscribed(u1.channel('team-u1', { config: { private: true, broadcast: { self: true, ack: true } } }).on('broadcast', { event: '*' }, (m) => heard.push(m)))
    expect(await mine.send({ type: 'broadcast', event: 'msg', payload: { t: 'secret' } })).toBe('ok')
    expect(await heard.waitFor(1)).toEqual([{ type: 'broadcast', event: 'msg', payload: { t: 'secret' } }])
    const u2 = env.client()
    await u2.realtime.setAuth(await env.userToken('u2'))
    await expect(subscribed(u2.channel('team-u1', { config: { private: true } }))).rejects.toThrow(/permissions to read/)
    // A public channel of the same name is another channel: its members never hear the private one.
    const outsider = inbox<unknown>()
    await subscribed(env.client().channel('team-u1').on('broadcast', { event: '*' }, (m) => outsider.push(m)))
    await mine.send({ type: 'broadcast', event: 'msg', payload: { t: 'again' } })
    await heard.waitFor(2)
    expect(outsider.items).toEqual([])
    // No probe row was kept.
    expect(await env.sql(`select count(*)::int as n from realtime.messages`)).toEqual([{ n: 0 }])
  })

  it("closes a channel when the user's token expires, with the platform's system message", async () => {
    const user = env.client()
    await user.realtime.setAuth(await env.userToken('u9', { expiresInSeconds: 2 }))
    const system = inbox<{ message: string; status: string }>()
    const channel = user.channel('short-lived').on('system', {}, (p) => system.push(p as never))
    await subscribed(channel)
    const [msg] = await system.waitFor(1, 6_000)
    expect(msg).toMatchObject({ status: 'error', extension: 'system', message: expect.stringMatching(/^Token has expired/) })
    const expired = env.client()
    await expired.realtime.setAuth(await env.userToken('u9', { expiresInSeconds: -10 }))
    await expect(subscribed(expired.channel('too-late'))).rejects.toThrow(/Token has expired/)
  })

  it("checks a channel's token by the server's clock: one the clock has passed is refused, though real time has not", async () => {
    const token = await env.userToken('u10', { expiresInSeconds: 60 })
    const before = env.client()
    await before.realtime.setAuth(token)
    await subscribed(before.channel('clock-before'))
    env.s.clock.advance(120_000)
    try {
      const after = env.client()
      await after.realtime.setAuth(token)
      await expect(subscribed(after.channel('clock-after'))).rejects.toThrow(/Token has expired/)
    } finally {
      env.s.clock.advance(-120_000)
    }
  })
})

describe('a project database made before the template carried schema realtime', () => {
  /** Takes schema realtime out, as it was then: on PGlite as its owner; on PostgreSQL through the engine's connection. */
  async function dropRealtimeSchema(ref: string) {
    const sql = 'drop publication if exists supabase_realtime; drop schema realtime cascade'
    if (!isPostgres) {
      await env.s.projectDbs.transaction(ref, { role: 'postgres' }, (tx) => tx.exec(sql))
      return
    }
    const url = new URL(env.s.config.databaseUrl!)
    url.pathname = `/${projectDbPrefix(env.s.config.databaseUrl!)}${ref}`
    const admin = new pg.Client({ connectionString: url.toString() })
    await admin.connect()
    try {
      await admin.query(sql)
    } finally {
      await admin.end()
    }
  }

  it('gets it when its engine opens it: private channels and postgres_changes work as on a new one', async () => {
    const other = await projectByName(env.s, 'Acme Storefront')
    const keys = (await findProjectKeys(env.s.db, other.id))!
    const present = async () =>
      (
        await env.s.projectDbs.transaction(other.ref, { role: 'postgres', readOnly: true }, (tx) =>
          tx.query<{ present: boolean }>(`select to_regclass('realtime.messages') is not null and exists (select from pg_publication where pubname = 'supabase_realtime') as present`),
        )
      ).rows[0].present
    expect(await present()).toBe(true)
    await dropRealtimeSchema(other.ref)
    expect(await present()).toBe(false)
    // Closed and opened again, as a server started on an older store would open it.
    await env.s.projectDbs.close(other.ref)
    expect(await present()).toBe(true)

    // The project's owner still writes the policies and publishes its tables, as on a database from the template.
    await env.s.projectDbs.transaction(other.ref, { role: 'postgres' }, async (tx) => {
      await tx.query(`create policy "members read" on realtime.messages for select to anon using (realtime.topic() = 'upgraded-room')`)
      await tx.query(`create table public.upgraded_notes (id int primary key, body text)`)
      await tx.query(`alter publication supabase_realtime add table public.upgraded_notes`)
    })
    const client = createClient(`${env.origin}/p/${other.ref}`, keys.anon_key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never, heartbeatIntervalMs: 5_000 },
    })
    try {
      await subscribed(client.channel('upgraded-room', { config: { private: true } }))
      await expect(subscribed(client.channel('other-room', { config: { private: true } }))).rejects.toThrow(/Unauthorized/)
      const got = inbox<{ new: { body: string } }>()
      await subscribed(client.channel('upgraded-changes').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'upgraded_notes' }, (p) => got.push(p as never)))
      await env.s.projectDbs.transaction(other.ref, { role: 'postgres' }, (tx) => tx.query(`insert into public.upgraded_notes values (1, 'after the upgrade')`))
      expect((await got.waitFor(1)).map((c) => c.new.body)).toEqual(['after the upgrade'])
    } finally {
      await client.removeAllChannels()
      client.realtime.disconnect()
    }
  })
})
