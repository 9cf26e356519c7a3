/**
 * The status poll under load: `GET /platform/projects/{ref}/status` with a session, as the waiting screens send it.
 *  - closed loop: 200 clients, each sending its next request as soon as the last was answered → requests/s,
 *    p50/p99, errors; the same against a bare Hono server (bench/bare-hono.ts) in the same run → the ratio;
 *  - paced: 1,000 simulated dashboards, each its own connection polling every 4 s from its own phase (250 requests/s,
 *    bench/paced.ts) → p50/p99/max, errors, the generator's own lateness, and the server's memory (VmRSS) at the end.
 * On PGlite, and on a throw-away PostgreSQL 15 cluster when Debian's binaries are installed.
 * Each simulated client is its own connection with one of SESSIONS sessions and one of the Owner's projects.
 * Traffic goes to 127.0.0.1 only; every phase is bounded in time.
 * `npx tsx bench/load.bench.ts` — LOAD_SECONDS (closed loop, default 10), PACED_SECONDS (default 60; 600 for the
 * ten-minute memory figure), LOAD_DB=pglite|postgres (default both).
 */
import autocannon from 'autocannon'
import { readFileSync } from 'node:fs'
import { hasPostgres, startPgCluster } from '../tests/server/pgCluster'
import { pacedLoad, type PacedFigures } from './paced'
import { removeDir, startServer, waitForIdle, type RunningServer } from './support'

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10)
const PACED_SECONDS = Number(process.env.PACED_SECONDS ?? 60)
const SESSIONS = 20
const CLIENTS = 200
const DASHBOARDS = 1_000
const POLL_EVERY_S = 4

interface Identity {
  cookie: string
  ref: string
}

async function identities(url: string): Promise<Identity[]> {
  const cookies: string[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const res = await fetch(`${url}/platform/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
    })
    if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    cookies.push(cookie)
  }
  const list = await fetch(`${url}/platform/projects`, { headers: { cookie: cookies[0] } })
  const refs = ((await list.json()) as Array<{ ref: string }>).map((p) => p.ref)
  if (refs.length === 0) throw new Error('no projects to poll')
  return cookies.map((cookie, i) => ({ cookie, ref: refs[i % refs.length] }))
}

interface Figures {
  rps: number
  p50: number
  p99: number
  max: number
  errors: number
  requests: number
}

/** One autocannon run; each connection keeps one identity for its whole life. */
async function run(url: string, ids: Identity[], opts: { connections: number; seconds: number }): Promise<Figures> {
  let next = 0
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request, context) => {
          const ctx = context as { id?: number }
          ctx.id ??= next++
          const id = ids[ctx.id % ids.length]
          return { ...request, path: `/platform/projects/${id.ref}/status`, headers: { ...request.headers, cookie: id.cookie } }
        },
      },
    ],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  }
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN
}
/** The 1,000 dashboards: each its own connection with one of the identities, polling its status every 4 s. */
const paced = (server: RunningServer, ids: Identity[]) =>
  pacedLoad(
    server.url,
    Array.from({ length: DASHBOARDS }, (_, i) => ({ path: `/platform/projects/${ids[i % ids.length].ref}/status`, headers: { cookie: ids[i % ids.length].cookie } })),
    { everyMs: POLL_EVERY_S * 1000, seconds: PACED_SECONDS, timeoutMs: 2000 },
  )
const fmtPaced = (f: PacedFigures) =>
  `${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, errors ${f.errors} of ${f.requests} (generator late p99 ${f.lateP99} ms, max ${f.lateMax} ms)`
const fmt = (f: Figures) => `${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, errors ${f.errors} of ${f.requests}`

async function closedLoop(server: RunningServer, ids: Identity[]) {
  await run(server.url, ids, { connections: CLIENTS, seconds: 3 }) // warm-up
  return run(server.url, ids, { connections: CLIENTS, seconds: LOAD_SECONDS })
}

// The yardstick first: a bare Hono server, same path, same clients, same machine.
const bare = await startServer({}, undefined, 'bench/bare-hono.ts')
let bareFigures: Figures
let barePaced: PacedFigures
try {
  const fake = Array.from({ length: SESSIONS }, (_, i) => ({ cookie: `s=${i}`, ref: 'abcdefghijklmnopqrst' }))
  bareFigures = await closedLoop(bare, fake)
  // The paced yardstick too: on a shared machine the clients' own delays are part of every p99, the bare one's included.
  barePaced = await paced(bare, fake)
} finally {
  await bare.stop()
  removeDir(bare.dataDir)
}
console.log(`bare Hono, ${CLIENTS} clients, ${LOAD_SECONDS} s: ${fmt(bareFigures)}`)
console.log(`bare Hono, ${DASHBOARDS} dashboards polling every ${POLL_EVERY_S} s for ${PACED_SECONDS} s: ${fmtPaced(barePaced)}`)

const which = process.env.LOAD_DB
const stores: Array<'pglite' | 'postgres'> = which === 'pglite' || which === 'postgres' ? [which] : hasPostgres() ? ['pglite', 'postgres'] : ['pglite']
for (const store of stores) {
  const cluster = store === 'postgres' ? await startPgCluster() : null
  const server = await startServer(cluster ? { DATABASE_URL: cluster.url } : {})
  try {
    const ids = await identities(server.url)
    // Steady traffic on a settled server: the start's background work (project databases) is not the poll's cost.
    if (server.process.pid) await waitForIdle(server.process.pid)
    const closed = await closedLoop(server, ids)
    console.log(`${store}, ${CLIENTS} clients, ${LOAD_SECONDS} s: ${fmt(closed)} → ${((closed.rps / bareFigures.rps) * 100).toFixed(1)}% of bare Hono`)
    const pacedFigures = await paced(server, ids)
    const pid = server.process.pid
    console.log(
      `${store}, ${DASHBOARDS} dashboards polling every ${POLL_EVERY_S} s for ${PACED_SECONDS} s: ${fmtPaced(pacedFigures)}; server RSS at the end ${pid ? rssMb(pid) : '?'} MB`,
    )
  } finally {
    await server.stop()
    removeDir(server.dataDir)
    cluster?.stop()
  }
}
