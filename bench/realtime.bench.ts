/**
 * The realtime service of a project (/p/{ref}/realtime/v1) on a running server (PGlite store):
 *  - latency from COMMIT to a subscriber's callback, p50/p99, with 1, 100 and 1,000 subscribers of one table on one
 *    process (SUBSCRIBERS overrides the list): an INSERT through the Management API's SQL, its commit time taken when
 *    the answer arrives, less the round trip measured before (so the figure is an upper bound of COMMIT → callback);
 *  - broadcast messages per second through one process: one sender, one receiver, BROADCASTS messages with ack;
 *  - memory per idle connection: the server's RSS before and after opening IDLE sockets, divided;
 *  - the status API's p99 (GET /platform/projects/{ref}/status) while the subscribers receive changes, against its
 *    p50/p99 with no realtime traffic first (STATUS_REFERENCE_MS of calls every 50 ms, default 5,000);
 *  - broadcast fan-out: FANOUT sockets joined to one channel, one sender's broadcast timed from its send to each
 *    socket's arrival (p50/p99 over FANOUT_MESSAGES broadcasts, sent one after another), the status API's p99 meanwhile.
 * `npx tsx bench/realtime.bench.ts` — SUBSCRIBERS (default 1,100,1000; empty: none), CHANGES (default 50), BROADCASTS
 * (default 2000; 0: none), IDLE (default 500; 0: none), FANOUT (default 1000; 0: none), FANOUT_MESSAGES (default 20).
 * The project's realtime limits are raised first (sockets, joins and events per second), so they measure the
 * service and not its limits.
 */
import { readFileSync } from 'node:fs'
import WebSocket from 'ws'
import { demoProjectKeys, ownerCookie, removeDir, startServer } from './support'

const SUBSCRIBERS = (process.env.SUBSCRIBERS ?? '1,100,1000').split(',').filter(Boolean).map(Number)
const FANOUT = Number(process.env.FANOUT ?? 1000)
const FANOUT_MESSAGES = Number(process.env.FANOUT_MESSAGES ?? 20)
const CHANGES = Number(process.env.CHANGES ?? 50)
const BROADCASTS = Number(process.env.BROADCASTS ?? 2000)
const IDLE = Number(process.env.IDLE ?? 500)
const STATUS_REFERENCE_MS = Number(process.env.STATUS_REFERENCE_MS ?? 5_000)

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** realtime-js' heartbeat: the server closes a socket silent for its idle time-out (60 s). */
const HEARTBEAT_MS = 25_000

/**
 * A socket speaking serializer 1.0.0 (JSON objects) to the project's realtime service, with realtime-js' heartbeat:
 * joining a thousand sockets on a loaded machine takes longer than the idle time-out, which would close the first
 * ones before the changes are sent (their heartbeat replies are not passed on).
 */
async function socket(url: string, onFrame: (frame: { topic: string; event: string; payload: Record<string, unknown>; ref: string | null }) => void) {
  const ws = new WebSocket(url)
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data))
    if (frame.topic !== 'phoenix') onFrame(frame)
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const beat = setInterval(() => ws.send(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: 'hb' })), HEARTBEAT_MS)
  ws.once('close', () => clearInterval(beat))
  return ws
}

const server = await startServer({ PROJECT_DB_QUERY_TIMEOUT_MS: '600000' })
const pid = server.process.pid!
try {
  const { ref, service } = await demoProjectKeys(server.url)
  const cookie = await ownerCookie(server.url)
  const sql = async (query: string) => {
    const res = await fetch(`${server.url}/platform/projects/${ref}/database/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ query }),
    })
    if (!res.ok) throw new Error(`sql: ${res.status} ${await res.text()}`)
  }
  await fetch(`${server.url}/v1/projects/${ref}/config/realtime`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ max_concurrent_users: 50_000, max_joins_per_second: 5_000, max_events_per_second: 50_000 }),
  }).then((res) => {
    if (!res.ok) throw new Error(`config: ${res.status}`)
  })
  await sql(`create table public.bench_changes (id bigint generated always as identity primary key, sent double precision not null)`)
  await sql(`alter publication supabase_realtime add table public.bench_changes`)
  const wsUrl = `${server.url.replace('http', 'ws')}/p/${ref}/realtime/v1/websocket?apikey=${service}&vsn=1.0.0`

  // The round trip of the SQL call alone, so it can be taken off.
  const trips: number[] = []
  for (let i = 0; i < 10; i++) {
    const t = performance.now()
    await sql(`select 1`)
    trips.push(performance.now() - t)
  }
  const trip = pct(trips, 50)

  /** The status API timed every 50 ms until stopped. */
  const pollStatus = () => {
    const times: number[] = []
    let polling = true
    const done = (async () => {
      while (polling) {
        const t = performance.now()
        await fetch(`${server.url}/platform/projects/${ref}/status`, { headers: { cookie } })
        times.push(performance.now() - t)
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    return async () => {
      polling = false
      await done
      return times
    }
  }

  // The status API with no realtime traffic: the reference its figures under load are read against.
  const stopReference = pollStatus()
  await new Promise((r) => setTimeout(r, STATUS_REFERENCE_MS))
  const reference = await stopReference()
  console.log(`\nstatus API, no realtime traffic: p50 ${pct(reference, 50).toFixed(1)} ms, p99 ${pct(reference, 99).toFixed(1)} ms (${reference.length} calls)`)

  console.log('\nCOMMIT → callback (ms, the SQL round trip taken off), status API p99 meanwhile')
  for (const n of SUBSCRIBERS) {
    const sockets: WebSocket[] = []
    const arrivals = new Map<number, number[]>()
    /** Sockets the server closed before the bench did (idle, slow consumer): their changes never arrive. */
    let closedEarly = 0
    for (let i = 0; i < n; i++) {
      let joined: () => void = () => {}
      const ready = new Promise<void>((r) => (joined = r))
      const ws = await socket(wsUrl, (f) => {
        if (f.event === 'phx_reply' && f.ref === 'j') joined()
        if (f.event === 'postgres_changes') {
          const id = Number((f.payload.data as { record: { id: number } }).record.id)
          const list = arrivals.get(id) ?? []
          list.push(performance.now())
          arrivals.set(id, list)
        }
      })
      ws.send(JSON.stringify({ topic: `realtime:bench-${i}`, event: 'phx_join', ref: 'j', join_ref: 'j', payload: { config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'bench_changes' }] } } }))
      await ready
      ws.once('close', () => closedEarly++)
      sockets.push(ws)
    }
    const latencies: number[] = []
    const stopPolling = pollStatus()
    for (let c = 0; c < CHANGES; c++) {
      const res = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ query: `insert into public.bench_changes (sent) values (0) returning id` }),
      })
      const committed = performance.now() - trip / 2
      const [{ id }] = (await res.json()) as { id: number }[]
      const deadline = Date.now() + 10_000
      while ((arrivals.get(Number(id))?.length ?? 0) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
      for (const at of arrivals.get(Number(id)) ?? []) latencies.push(Math.max(0, at - committed))
    }
    const statusTimes = await stopPolling()
    const delivered = latencies.length / (CHANGES * n)
    console.log(
      `  ${String(n).padStart(5)} subscribers: p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, ` +
        `delivered ${(delivered * 100).toFixed(1)}%${closedEarly ? ` (${closedEarly} sockets closed by the server)` : ''} · status p99 ${pct(statusTimes, 99).toFixed(1)} ms`,
    )
    for (const ws of sockets) ws.close()
    await new Promise((r) => setTimeout(r, 500))
  }

  if (FANOUT > 0) {
    const sockets: WebSocket[] = []
    let sentAt = 0
    let current = -1
    let arrived = 0
    const latencies: number[] = []
    /** Per broadcast, until the last socket had it. */
    const whole: number[] = []
    for (let i = 0; i < FANOUT; i++) {
      let joined: () => void = () => {}
      const ready = new Promise<void>((r) => (joined = r))
      const ws = await socket(wsUrl, (f) => {
        if (f.event === 'phx_reply' && f.ref === 'j') joined()
        if (f.event === 'broadcast' && (f.payload.payload as { i: number }).i === current) {
          latencies.push(performance.now() - sentAt)
          arrived++
        }
      })
      ws.send(JSON.stringify({ topic: 'realtime:bench-fanout', event: 'phx_join', ref: 'j', join_ref: 'j', payload: { config: { presence: { enabled: false } } } }))
      await ready
      sockets.push(ws)
    }
    let senderJoined: () => void = () => {}
    const senderReady = new Promise<void>((r) => (senderJoined = r))
    const sender = await socket(wsUrl, (f) => {
      if (f.event === 'phx_reply' && f.ref === 'j') senderJoined()
    })
    sender.send(JSON.stringify({ topic: 'realtime:bench-fanout', event: 'phx_join', ref: 'j', join_ref: 'j', payload: { config: { presence: { enabled: false } } } }))
    await senderReady
    const stopPolling = pollStatus()
    let complete = 0
    for (let m = 0; m < FANOUT_MESSAGES; m++) {
      current = m
      arrived = 0
      sentAt = performance.now()
      sender.send(JSON.stringify({ topic: 'realtime:bench-fanout', event: 'broadcast', ref: `f${m}`, join_ref: 'j', payload: { type: 'broadcast', event: 'fan', payload: { i: m } } }))
      const deadline = Date.now() + 10_000
      while (arrived < FANOUT && Date.now() < deadline) await new Promise((r) => setImmediate(r))
      if (arrived === FANOUT) complete++
      whole.push(performance.now() - sentAt)
    }
    const statusTimes = await stopPolling()
    console.log(
      `\nbroadcast fan-out: ${FANOUT} subscribers of one channel, ${FANOUT_MESSAGES} broadcasts (${complete} reached all): ` +
        `send → arrival p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms; ` +
        `send → last arrival p50 ${pct(whole, 50).toFixed(1)} ms · status p99 ${pct(statusTimes, 99).toFixed(1)} ms (${statusTimes.length} calls)`,
    )
    sender.close()
    for (const ws of sockets) ws.close()
    await new Promise((r) => setTimeout(r, 500))
  }

  // Broadcast throughput: one sender with ack, one receiver.
  if (BROADCASTS > 0) {
  let received = 0
  let joinedReceiver: () => void = () => {}
  const receiverReady = new Promise<void>((r) => (joinedReceiver = r))
  const receiver = await socket(wsUrl, (f) => {
    if (f.event === 'phx_reply' && f.ref === 'j') joinedReceiver()
    if (f.event === 'broadcast') received++
  })
  receiver.send(JSON.stringify({ topic: 'realtime:bench-broadcast', event: 'phx_join', ref: 'j', join_ref: 'j', payload: { config: {} } }))
  await receiverReady
  await fetch(`${server.url}/v1/projects/${ref}/config/realtime`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ max_events_per_second: 50_000 }),
  })
  let acked = 0
  let joinedSender: () => void = () => {}
  const senderReady = new Promise<void>((r) => (joinedSender = r))
  const sender = await socket(wsUrl, (f) => {
    if (f.event === 'phx_reply' && f.ref === 'j') joinedSender()
    else if (f.event === 'phx_reply') acked++
  })
  sender.send(JSON.stringify({ topic: 'realtime:bench-broadcast', event: 'phx_join', ref: 'j', join_ref: 'j', payload: { config: { broadcast: { ack: true } } } }))
  await senderReady
  const started = performance.now()
  for (let i = 0; i < BROADCASTS; i++) {
    sender.send(JSON.stringify({ topic: 'realtime:bench-broadcast', event: 'broadcast', ref: `b${i}`, join_ref: 'j', payload: { type: 'broadcast', event: 'tick', payload: { i } } }))
  }
  while ((received < BROADCASTS || acked < BROADCASTS) && performance.now() - started < 60_000) await new Promise((r) => setTimeout(r, 5))
  const seconds = (performance.now() - started) / 1000
  console.log(`\nbroadcast: ${BROADCASTS} messages in ${seconds.toFixed(2)} s = ${Math.round(received / seconds)} messages/s received (${acked} acked)`)
  sender.close()
  receiver.close()
  }

  // Memory per idle connection.
  if (IDLE > 0) {
  await new Promise((r) => setTimeout(r, 1_000))
  const before = rssMb(pid)
  const idle: WebSocket[] = []
  for (let i = 0; i < IDLE; i++) idle.push(await socket(wsUrl, () => {}))
  await new Promise((r) => setTimeout(r, 1_000))
  const after = rssMb(pid)
  console.log(`\nidle connections: ${IDLE} sockets, RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB = ${(((after - before) * 1024) / IDLE).toFixed(1)} KB each`)
  for (const ws of idle) ws.close()
  }
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
