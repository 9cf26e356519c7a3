/**
 * Realtime's limits as the project's settings (the Management API's /v1/projects/{ref}/config/realtime) and its bad
 * input: sockets per project, channels per socket (1,000 joins on one socket), events per second (an error, the
 * socket kept), payload size, malformed frames, an unknown topic, a 10 MB frame, a reader that never reads (its buffer
 * bounded: the server closes it), a client that vanishes without closing; other clients unaffected throughout.
 * Broadcasts over HTTP count against the same per-second limits as the sockets' messages.
 * And the usage page's realtime figures.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { OWNER, projectByName } from './helpers'
import { inbox, sleep, startRealtimeServer, subscribed, type RealtimeTestServer } from './realtime-support'

let env: RealtimeTestServer
let cookie: string

beforeAll(async () => {
  env = await startRealtimeServer('Recipe Box', { realtime: { idleTimeoutMs: 8_000, sendBufferBytes: 256 * 1024, usageFlushMs: 0 } })
  cookie = await env.s.signIn(OWNER)
}, 120_000)

const otherClients: SupabaseClient[] = []

afterAll(async () => {
  for (const c of otherClients) {
    await c.removeAllChannels().catch(() => {})
    c.realtime.disconnect()
  }
  await env?.close()
})

/** A supabase-js client of another project on the same server (its limits are its own). */
async function otherProjectClient(): Promise<SupabaseClient> {
  const p = await projectByName(env.s, 'Acme Storefront')
  const keys = (await findProjectKeys(env.s.db, p.id))!
  const c = createClient(`${env.origin}/p/${p.ref}`, keys.anon_key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never, heartbeatIntervalMs: 5_000 },
  })
  otherClients.push(c)
  return c
}

/** How a channel's subscribe ends: SUBSCRIBED, or the error realtime-js reads from the join's reply. */
function joinOutcome(channel: RealtimeChannel, timeoutMs?: number): Promise<string> {
  return new Promise((resolve) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve('SUBSCRIBED')
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') resolve(err?.message ?? status)
    }, timeoutMs)
  })
}

interface PushLike {
  receive(status: 'ok' | 'error' | 'timeout', cb: (response?: { reason?: string }) => void): PushLike
}

/** Tracks `meta` and answers 'ok' or the reason of the server's error reply (realtime-js' track() says only 'error'). */
function trackOutcome(channel: RealtimeChannel, meta: Record<string, unknown>): Promise<string> {
  const adapter = (channel as unknown as { channelAdapter: { push(event: string, payload: unknown, timeout: number): PushLike } }).channelAdapter
  return new Promise<string>((resolve) => {
    adapter
      .push('presence', { type: 'presence', event: 'track', payload: meta }, 5_000)
      .receive('ok', () => resolve('ok'))
      .receive('error', (r) => resolve(r?.reason ?? 'error'))
      .receive('timeout', () => resolve('timeout'))
  })
}

/** The per-second limits count by the server's clock: the next second, without waiting for it. */
const nextSecond = () => env.s.clock.advance(1_000)

/** A broadcast a channel sends to itself (self + ack) arrives: the channel and its socket work. */
async function echoes(channel: RealtimeChannel, got: ReturnType<typeof inbox<unknown>>): Promise<boolean> {
  const before = got.items.length
  const status = await channel.send({ type: 'broadcast', event: 'echo', payload: { n: before } })
  return status === 'ok' && (await got.waitFor(before + 1)).length > before
}

const configUrl = () => `/v1/projects/${env.project.ref}/config/realtime`
const patchConfig = (body: unknown) =>
  env.s.request(configUrl(), { method: 'PATCH', headers: { cookie, 'content-type': 'application/json', origin: 'http://localhost' }, body: JSON.stringify(body) })

async function raw(vsn: '1.0.0' | '2.0.0' = '2.0.0') {
  const ws = new WebSocket(`${env.socketUrl}?apikey=${encodeURIComponent(env.keys.anon)}&vsn=${vsn}`)
  const frames = inbox<unknown[]>()
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  ws.on('message', (data, isBinary) => {
    if (!isBinary) frames.push(JSON.parse(String(data)) as unknown[])
  })
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)))
  })
  return { ws, frames, closed, send: (frame: unknown) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)) }
}

/** A heartbeat answered: the socket still works. */
async function alive(socket: Awaited<ReturnType<typeof raw>>) {
  const before = socket.frames.items.length
  socket.send([null, 'hb', 'phoenix', 'heartbeat', {}])
  const frames = await socket.frames.waitFor(before + 1)
  return frames.some((f) => f[1] === 'hb' && (f[4] as { status: string }).status === 'ok')
}

describe('realtime settings', () => {
  it('reads the defaults, saves a change (validated, 400 otherwise) and reads it back', async () => {
    const res = await env.s.request(configUrl(), { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ max_concurrent_users: 200, max_channels_per_client: 100, max_events_per_second: 100, max_payload_size_in_kb: 256, private_only: false, suspend: false })
    expect((await patchConfig({ max_channels_per_client: 0 })).status).toBe(400)
    expect((await patchConfig({ unknown_setting: 1 })).status).toBe(400)
    expect((await patchConfig({ max_channels_per_client: 100 })).status).toBe(204)
    const again = (await (await env.s.request(configUrl(), { headers: { cookie } })).json()) as { max_channels_per_client: number }
    expect(again.max_channels_per_client).toBe(100)
  })
})

describe('realtime limits and bad input', () => {
  it('refuses a socket past the connections a project allows, and takes one again once another closed', async () => {
    expect((await patchConfig({ max_concurrent_users: 2 })).status).toBe(204)
    try {
      const a = await raw()
      const b = await raw()
      await expect(raw()).rejects.toThrow(/429/)
      a.ws.close()
      await a.closed
      await sleep(100)
      const c = await raw()
      expect(await alive(c)).toBe(true)
      expect(await alive(b)).toBe(true)
      b.ws.close()
      c.ws.close()
    } finally {
      await patchConfig({ max_concurrent_users: 200 })
    }
  })

  it('joins 100 channels of 1,000 asked on one socket and refuses the rest, the socket and others unaffected', async () => {
    // The channels per socket are what this asks of, not the joins per second.
    expect((await patchConfig({ max_joins_per_second: 5000 })).status).toBe(204)
    const other = await raw()
    const greedy = await raw()
    for (let i = 0; i < 1000; i++) greedy.send([String(i), String(i), `realtime:many-${i}`, 'phx_join', { config: { presence: { enabled: false } } }])
    const replies = await greedy.frames.waitFor(1000, 20_000)
    const statuses = replies.map((f) => (f[4] as { status: string }).status)
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(100)
    expect(statuses.filter((s) => s === 'error')).toHaveLength(900)
    expect(replies.find((f) => (f[4] as { status: string }).status === 'error')![4]).toMatchObject({ response: { reason: expect.stringMatching(/^ChannelRateLimitReached: Too many channels/) } })
    expect(await alive(greedy)).toBe(true)
    expect(await alive(other)).toBe(true)
    greedy.ws.close()
    other.ws.close()
    await patchConfig({ max_joins_per_second: 100 })
  })

  it('answers events past the per-second limit with an error and keeps the socket; refuses a payload past its size', async () => {
    expect((await patchConfig({ max_events_per_second: 5, max_payload_size_in_kb: 1 })).status).toBe(204)
    try {
      const s = await raw()
      s.send(['1', '1', 'realtime:rate', 'phx_join', { config: { broadcast: { ack: true }, presence: { enabled: false } } }])
      await s.frames.waitFor(1)
      for (let i = 0; i < 20; i++) s.send(['1', `b${i}`, 'realtime:rate', 'broadcast', { type: 'broadcast', event: 'e', payload: { i } }])
      const replies = (await s.frames.waitFor(21)).slice(1)
      const errors = replies.filter((f) => (f[4] as { status: string }).status === 'error')
      // The server's clock stands still meanwhile: one second's 5, whatever the machine's speed.
      expect(errors).toHaveLength(15)
      expect(replies.slice(0, 5).map((f) => (f[4] as { status: string }).status)).toEqual(Array(5).fill('ok'))
      expect(errors[0][4]).toMatchObject({ response: { reason: expect.stringMatching(/^TooManyEventsPerSecond/) } })
      nextSecond()
      s.send(['1', 'big', 'realtime:rate', 'broadcast', { type: 'broadcast', event: 'e', payload: { text: 'x'.repeat(2048) } }])
      const big = (await s.frames.waitFor(22)).find((f) => f[1] === 'big')!
      expect(big[4]).toMatchObject({ status: 'error', response: { reason: expect.stringMatching(/^Payload too large/) } })
      expect(await alive(s)).toBe(true)
      s.ws.close()
    } finally {
      await patchConfig({ max_events_per_second: 100, max_payload_size_in_kb: 256 })
    }
  })

  it('refuses messages past the bytes per second with the platform error on the channel, the socket and other projects unaffected', async () => {
    const other = await otherProjectClient()
    const otherGot = inbox<unknown>()
    const otherChannel = other.channel('bytes-elsewhere', { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'echo' }, (m) => otherGot.push(m))
    expect(await joinOutcome(otherChannel, 60_000)).toBe('SUBSCRIBED')
    expect((await patchConfig({ max_bytes_per_second: 2_000 })).status).toBe(204)
    try {
      const s = await raw()
      s.send(['1', '1', 'realtime:bytes', 'phx_join', { config: { broadcast: { ack: true }, presence: { enabled: false } } }])
      await s.frames.waitFor(1)
      // Each payload is 501 bytes: three fit in a second's 2,000, well under the events per second (100).
      for (let i = 0; i < 10; i++) s.send(['1', `b${i}`, 'realtime:bytes', 'broadcast', { type: 'broadcast', event: 'e', payload: { text: 'x'.repeat(490) } }])
      const replies = (await s.frames.waitFor(11)).slice(1)
      const errors = replies.filter((f) => (f[4] as { status: string }).status === 'error')
      expect(errors).toHaveLength(7)
      expect(errors[0][4]).toMatchObject({ response: { reason: 'TooManyBytesPerSecond: the project allows 2000 bytes of messages per second' } })
      expect(await alive(s)).toBe(true)
      // Another project's messages count against its own limit.
      expect(await echoes(otherChannel, otherGot)).toBe(true)
      s.ws.close()
    } finally {
      await patchConfig({ max_bytes_per_second: 100_000 })
    }
  })

  it('counts broadcasts over HTTP (send before a join, httpSend) against the events and bytes per second, 429 past them; other projects unaffected', async () => {
    const other = await otherProjectClient()
    expect((await patchConfig({ max_events_per_second: 3, max_bytes_per_second: 2_000 })).status).toBe(204)
    try {
      const client = env.client()
      // Never joined: supabase-js sends over the HTTP API.
      const unjoined = client.channel('http-rate')
      const statuses: string[] = []
      for (let i = 0; i < 8; i++) statuses.push(await unjoined.send({ type: 'broadcast', event: 'e', payload: { i } }))
      expect(statuses).toEqual([...Array(3).fill('ok'), ...Array(5).fill('error')])
      await expect(unjoined.httpSend('e', { late: true })).rejects.toThrow('You have exceeded your rate limit')
      // The next second of the server's clock sends again; its count is shared with the project's sockets.
      nextSecond()
      const got = inbox<unknown>()
      const joined = await subscribed(client.channel('http-and-socket', { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'echo' }, (m) => got.push(m)))
      expect(await unjoined.httpSend('e', { i: 1 })).toEqual({ success: true })
      expect(await unjoined.httpSend('e', { i: 2 })).toEqual({ success: true })
      expect(await echoes(joined, got)).toBe(true)
      expect(await joined.send({ type: 'broadcast', event: 'echo', payload: {} })).toBe('error')
      await expect(unjoined.httpSend('e', { i: 3 })).rejects.toThrow('You have exceeded your rate limit')
      nextSecond()
      expect(await unjoined.httpSend('e', { i: 4 })).toEqual({ success: true })
      await client.removeChannel(joined)

      const post = (messages: unknown[]) =>
        fetch(`${env.url}/realtime/v1/api/broadcast`, { method: 'POST', headers: { apikey: env.keys.anon, 'content-type': 'application/json' }, body: JSON.stringify({ messages }) })
      // Saving the limits starts each count again: a batch of 4 is past 3 however the second falls.
      expect((await patchConfig({ max_events_per_second: 3 })).status).toBe(204)
      const batch = await post(Array.from({ length: 4 }, (_, i) => ({ topic: 'http-rate', event: 'e', payload: { i } })))
      expect(batch.status).toBe(429)
      expect(await batch.json()).toEqual({ message: 'Too many messages to broadcast, please reduce the batch size' })
      expect((await patchConfig({ max_events_per_second: 100 })).status).toBe(204)
      // Two payloads of 1,501 bytes: past the 2,000 bytes of a second together, refused together.
      const heavy = await post([0, 1].map((i) => ({ topic: 'http-rate', event: 'e', payload: { text: 'x'.repeat(1490), i } })))
      expect(heavy.status).toBe(429)
      expect(await heavy.json()).toEqual({ message: 'Too many bytes to broadcast: the project allows 2000 bytes of messages per second' })

      // Another project's messages are its own to count.
      const elsewhere = other.channel('http-rate')
      for (let i = 0; i < 5; i++) expect(await elsewhere.httpSend('e', { i })).toEqual({ success: true })
    } finally {
      await patchConfig({ max_events_per_second: 100, max_bytes_per_second: 100_000 })
    }
  })

  it('refuses joins past the joins per second with the platform error on the channel (supabase-js), the socket and other projects unaffected', async () => {
    // A project's database opens on its first socket: before the burst, not timed by it.
    const client = env.client()
    const other = await otherProjectClient()
    expect(await joinOutcome(client.channel('joins-warm-up'), 60_000)).toBe('SUBSCRIBED')
    expect(await joinOutcome(other.channel('joins-warm-up'), 60_000)).toBe('SUBSCRIBED')
    expect((await patchConfig({ max_joins_per_second: 3 })).status).toBe(204)
    // Saved limits apply from then on (the warm-up joins no longer count).
    try {
      const got = inbox<unknown>()
      const channels = Array.from({ length: 10 }, (_, i) =>
        client.channel(`joins-${i}`, { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'echo' }, (m) => got.push(m)),
      )
      const outcomes = await Promise.all(channels.map((c) => joinOutcome(c)))
      const otherOutcome = await joinOutcome(other.channel('joins-elsewhere'))
      const ok = outcomes.filter((o) => o === 'SUBSCRIBED').length
      expect(ok, outcomes.join('; ')).toBe(3)
      expect(outcomes.filter((o) => o !== 'SUBSCRIBED')).toEqual(
        Array(10 - ok).fill('ClientJoinRateLimitReached: Too many joins per second (the project allows 3)'),
      )
      expect(otherOutcome).toBe('SUBSCRIBED')
      const joined = channels[outcomes.indexOf('SUBSCRIBED')]
      for (const [i, c] of channels.entries()) if (outcomes[i] !== 'SUBSCRIBED') await client.removeChannel(c)
      expect(await echoes(joined, got)).toBe(true)
      await client.removeAllChannels()
    } finally {
      await patchConfig({ max_joins_per_second: 100 })
    }
  })

  it('answers broadcasts past the messages per second with an error (supabase-js send), the channel kept and other projects unaffected', async () => {
    expect((await patchConfig({ max_events_per_second: 4 })).status).toBe(204)
    try {
      const client = env.client()
      const got = inbox<unknown>()
      const channel = await subscribed(client.channel('rate-js', { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'echo' }, (m) => got.push(m)))
      const other = await otherProjectClient()
      const otherGot = inbox<unknown>()
      const otherChannel = await subscribed(other.channel('rate-js', { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'echo' }, (m) => otherGot.push(m)))
      const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => channel.send({ type: 'broadcast', event: 'burst', payload: { i } })))
      const ok = statuses.filter((st) => st === 'ok').length
      expect(ok).toBe(4)
      expect(statuses.filter((st) => st !== 'ok')).toEqual(Array(12 - ok).fill('error'))
      // The other project's messages are its own to count.
      const otherStatuses = await Promise.all(Array.from({ length: 6 }, () => otherChannel.send({ type: 'broadcast', event: 'echo', payload: {} })))
      expect(otherStatuses).toEqual(Array(6).fill('ok'))
      expect(await otherGot.waitFor(6)).toHaveLength(6)
      // Once the server's clock starts a new second the channel sends again.
      expect(await echoes(channel, got)).toBe(false)
      nextSecond()
      expect(await echoes(channel, got)).toBe(true)
      await client.removeAllChannels()
    } finally {
      await patchConfig({ max_events_per_second: 100 })
    }
  })

  it('answers presence events past their per second, and a presence object past its keys, with an error; the channel kept', async () => {
    expect((await patchConfig({ max_presence_events_per_second: 2, max_presence_keys_per_object: 3 })).status).toBe(204)
    try {
      const client = env.client()
      const watcher = env.client()
      const synced = inbox<Record<string, unknown>>()
      const watched = watcher.channel('presence-limits')
      await subscribed(watched.on('presence', { event: 'sync' }, () => synced.push(watched.presenceState())))
      // realtime-js asks for presence on a channel only when it listens to presence.
      const channel = await subscribed(client.channel('presence-limits', { config: { presence: { key: 'me' } } }).on('presence', { event: 'sync' }, () => {}))
      const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => channel.track({ i })))
      const ok = statuses.filter((st) => st === 'ok').length
      expect(ok).toBe(2)
      expect(statuses.filter((st) => st !== 'ok')).toEqual(Array(6 - ok).fill('error'))

      // Keys of one object: 3 allowed, 4 refused (two presence events: the next second has room for them).
      nextSecond()
      expect(await trackOutcome(channel, { a: 1, b: 2, c: 3, d: 4 })).toBe('PresenceKeysLimitReached: A presence object has 4 keys, the project allows 3')
      expect(await trackOutcome(channel, { a: 1, b: 2, c: 3 })).toBe('ok')
      const tracked = () => JSON.stringify(synced.items.at(-1) ?? {}).includes('"c":3')
      for (let i = 0; i < 200 && !tracked(); i++) await synced.waitFor(synced.items.length + 1, 100)
      expect(tracked()).toBe(true)
      await client.removeAllChannels()
      await watcher.removeAllChannels()
    } finally {
      await patchConfig({ max_presence_events_per_second: 100, max_presence_keys_per_object: 10 })
    }
  })

  it('answers malformed frames and an unknown topic with errors, and the socket goes on', async () => {
    const s = await raw()
    s.send('not json at all')
    s.send('[1, 2]')
    s.send(JSON.stringify({ topic: 'x', event: 'y', payload: {} })) // a 1.0.0 frame on a 2.0.0 socket
    s.ws.send(Buffer.from([9, 9, 9]))
    const errors = await s.frames.waitFor(4)
    expect(errors.map((f) => f[3])).toEqual(['phx_error', 'phx_error', 'phx_error', 'phx_error'])
    expect(errors[0][4]).toMatchObject({ reason: expect.stringMatching(/^malformed frame/) })
    s.send([null, 'u1', 'realtime:never-joined', 'broadcast', { type: 'broadcast', event: 'e', payload: {} }])
    s.send(['j', 'u2', 'not-a-realtime-topic', 'phx_join', {}])
    const more = await s.frames.waitFor(6)
    expect(more.slice(4).map((f) => f[4])).toEqual([
      { status: 'error', response: { reason: 'unmatched topic' } },
      { status: 'error', response: { reason: 'unmatched topic' } },
    ])
    expect(await alive(s)).toBe(true)
    s.ws.close()
  })

  it('closes a socket that sends a 10 MB frame (1009), other sockets unaffected', async () => {
    const other = await raw()
    const s = await raw()
    s.ws.send(Buffer.alloc(10 * 1024 * 1024, 0x61), { binary: false })
    expect(await s.closed).toBe(1009)
    expect(await alive(other)).toBe(true)
    other.ws.close()
  })

  it('closes a reader that never reads once its send buffer is full, instead of buffering without end', async () => {
    // 100 KB messages as fast as they go: past the default events and bytes per second.
    expect((await patchConfig({ max_events_per_second: 50_000, max_bytes_per_second: 10_000_000 })).status).toBe(204)
    try {
      const sender = env.client()
      const slow = await raw()
      slow.send(['1', '1', 'realtime:firehose', 'phx_join', { config: { presence: { enabled: false } } }])
      await slow.frames.waitFor(1)
      // Stop reading: the kernel's buffers fill, then the server's.
      ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause()
      const channel = await subscribed(sender.channel('firehose', { config: { broadcast: { ack: true } } }))
      const text = 'x'.repeat(100 * 1024)
      let closedOnServer = false
      for (let i = 0; i < 400 && !closedOnServer; i++) {
        await channel.send({ type: 'broadcast', event: 'big', payload: { text } })
        if (i % 20 === 19) {
          // 20 messages of 100 KB a second of the server's clock: under its bytes per second.
          nextSecond()
          const res = await env.s.request(`/platform/projects/${env.project.ref}/realtime/channels`, { headers: { cookie } })
          const body = (await res.json()) as { channels: { topic: string; clients: unknown[] }[] }
          closedOnServer = !(body.channels.find((c) => c.topic === 'firehose')?.clients.length === 2)
        }
      }
      expect(closedOnServer).toBe(true)
      await sender.removeAllChannels()
    } finally {
      await patchConfig({ max_events_per_second: 100, max_bytes_per_second: 100_000 })
    }
  })

  it('closes a socket that goes silent past the idle time-out (a client that vanished without closing)', { timeout: 15_000 }, async () => {
    const s = await raw()
    const started = Date.now()
    expect(await s.closed).toBe(1000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(7_000)
  })

  it('lists the channels and their clients for the inspector', async () => {
    const client = env.client()
    await subscribed(client.channel('listed', { config: { presence: { key: 'me' } } }).on('presence', { event: 'sync' }, () => {}))
    const res = await env.s.request(`/platform/projects/${env.project.ref}/realtime/channels`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { connections: number; channels: { topic: string; private: boolean; clients: { role: string; presence_key: string | null }[] }[] }
    expect(body.channels.find((c) => c.topic === 'listed')).toMatchObject({ private: false, clients: [{ role: 'anon', presence_key: 'me' }] })
    expect(body.connections).toBeGreaterThanOrEqual(1)
  })

  it('shows the realtime messages and peak connections on the usage page as soon as they are counted', async () => {
    const { rows } = await env.s.db.query<{ slug: string }>(`select o.slug from organizations o join projects p on p.organization_id = o.id where p.id = $1`, [env.project.id])
    const day = env.s.clock.now().toISOString().slice(0, 10)
    // One read, no waiting: this server writes its counts only when they are read (usageFlushMs 0).
    const figures = async () => {
      const res = await env.s.request(`/platform/organizations/${rows[0].slug}/usage?project_ref=${env.project.ref}&start=${day}&end=${day}`, { headers: { cookie } })
      expect(res.status).toBe(200)
      const usages = ((await res.json()) as { usages: { metric: string; usage: number }[] }).usages
      return {
        messages: usages.find((u) => u.metric === 'REALTIME_MESSAGE_COUNT')!.usage,
        peak: usages.find((u) => u.metric === 'REALTIME_PEAK_CONNECTIONS')!.usage,
      }
    }
    const before = await figures()
    const sender = await subscribed(env.client().channel('usage-counted', { config: { broadcast: { ack: true } } }))
    const got = inbox<unknown>()
    await subscribed(env.client().channel('usage-counted').on('broadcast', { event: 'counted' }, (m) => got.push(m)))
    for (let n = 0; n < 3; n++) expect(await sender.send({ type: 'broadcast', event: 'counted', payload: { n } })).toBe('ok')
    expect((await got.waitFor(3)).length).toBe(3)
    const after = await figures()
    // Each broadcast reached the one other member of the channel: three messages carried.
    expect(after.messages).toBe(before.messages + 3)
    expect(after.peak).toBeGreaterThanOrEqual(2)
  })
})
