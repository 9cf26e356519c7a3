/**
 * Realtime's limits as the project's settings (the Management API's /v1/projects/{ref}/config/realtime) and its bad
 * input: sockets per project, channels per socket (1,000 joins on one socket), events per second (an error, the
 * socket kept), payload size, malformed frames, an unknown topic, a 10 MB frame, a reader that never reads (its buffer
 * bounded: the server closes it), a client that vanishes without closing; other clients unaffected throughout.
 * And the usage page's realtime figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { OWNER } from './helpers'
import { inbox, sleep, startRealtimeServer, subscribed, type RealtimeTestServer } from './realtime-support'

let env: RealtimeTestServer
let cookie: string

beforeAll(async () => {
  env = await startRealtimeServer('Recipe Box', { realtime: { idleTimeoutMs: 8_000, sendBufferBytes: 256 * 1024 } })
  cookie = await env.s.signIn(OWNER)
}, 120_000)

afterAll(async () => {
  await env?.close()
})

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
      expect(errors.length).toBeGreaterThanOrEqual(10)
      expect(errors[0][4]).toMatchObject({ response: { reason: expect.stringMatching(/^TooManyEventsPerSecond/) } })
      await sleep(1_100)
      s.send(['1', 'big', 'realtime:rate', 'broadcast', { type: 'broadcast', event: 'e', payload: { text: 'x'.repeat(2048) } }])
      const big = (await s.frames.waitFor(22)).find((f) => f[1] === 'big')!
      expect(big[4]).toMatchObject({ status: 'error', response: { reason: expect.stringMatching(/^Payload too large/) } })
      expect(await alive(s)).toBe(true)
      s.ws.close()
    } finally {
      await patchConfig({ max_events_per_second: 100, max_payload_size_in_kb: 256 })
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
    expect((await patchConfig({ max_events_per_second: 50_000 })).status).toBe(204)
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
          const res = await env.s.request(`/platform/projects/${env.project.ref}/realtime/channels`, { headers: { cookie } })
          const body = (await res.json()) as { channels: { topic: string; clients: unknown[] }[] }
          closedOnServer = !(body.channels.find((c) => c.topic === 'firehose')?.clients.length === 2)
        }
      }
      expect(closedOnServer).toBe(true)
      await sender.removeAllChannels()
    } finally {
      await patchConfig({ max_events_per_second: 100 })
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

  it('counts realtime messages and peak connections for the usage page', async () => {
    const { rows } = await env.s.db.query<{ slug: string }>(`select o.slug from organizations o join projects p on p.organization_id = o.id where p.id = $1`, [env.project.id])
    const day = env.s.clock.now().toISOString().slice(0, 10)
    let usages: { metric: string; usage: number }[] = []
    for (let i = 0; i < 40; i++) {
      const res = await env.s.request(`/platform/organizations/${rows[0].slug}/usage?project_ref=${env.project.ref}&start=${day}&end=${day}`, { headers: { cookie } })
      usages = ((await res.json()) as { usages: { metric: string; usage: number }[] }).usages
      if ((usages.find((u) => u.metric === 'REALTIME_MESSAGE_COUNT')?.usage ?? 0) > 0) break
      await sleep(250)
    }
    expect(usages.find((u) => u.metric === 'REALTIME_MESSAGE_COUNT')!.usage).toBeGreaterThan(0)
    expect(usages.find((u) => u.metric === 'REALTIME_PEAK_CONNECTIONS')!.usage).toBeGreaterThanOrEqual(2)
  })
})
