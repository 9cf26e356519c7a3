/**
 * A project's auth service under load, on a real server process (PGlite store), closed loop with 50 clients
 * (BENCH_CLIENTS to use fewer on a busy machine):
 *  - sign-up: `POST /p/{ref}/auth/v1/signup`, a new e-mail each time, confirmed at once → requests/s, p50/p99
 *    (a bcrypt hash, a user, its identity, a session and a refresh token written);
 *  - refresh: `POST /p/{ref}/auth/v1/token?grant_type=refresh_token`, each answer's new refresh token used for a
 *    later request (they are single use) → requests/s, p50/p99;
 *  - sign-in: `POST /p/{ref}/auth/v1/token?grant_type=password` for one confirmed user → requests/s, p50/p99
 *    (each answer costs a bcrypt comparison at the platform's cost 10, a session and a refresh token written);
 *    meanwhile one client asks another project's auth settings (`GET /p/{other}/auth/v1/settings`) every 100 ms →
 *    its p50/p99: what the sign-ins' hashing costs everyone else (it runs on the thread pool, not the event loop);
 *  - REST with a user's access token vs with the anon key, in this process (the app made here, no port): `GET
 *    /p/{ref}/rest/v1/recipes?select=*&published=eq.true` (the same rows either way), CLIENTS requests at a time,
 *    REST_REQUESTS (default 500) a phase; each round one phase of each of four kinds — anon key or user's JWT, through
 *    a gateway that keeps verified tokens (JWT_CACHE_ENTRIES, the default) or one that verifies every token
 *    (JWT_CACHE_ENTRIES=0, as before the cache) — the order reversed every other round, REST_ROUNDS (default 12)
 *    rounds, so a change of the machine's load falls on every kind alike → each kind's median requests/s and CPU
 *    time a request (this process and the project database's process, from /proc), and the median of the rounds'
 *    user/anon ratios: what a user's JWT costs (budget: 10%), with and without the cache.
 * The sign-in limits are raised first through the Management API (rate_limit_verify), so the figures are the
 * service's, not the throttle's. `npx tsx bench/auth.bench.ts` — LOAD_SECONDS (default 10); AUTH_BENCH=sign-up,
 * sign-in,rest (default all) runs only the parts named.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/server/app'
import { loadConfig, systemClock } from '../src/server/config'
import { initialOwnUrl } from '../src/server/core/http'
import { openDb } from '../src/server/db'
import { saveAuthSettings } from '../src/server/features/auth/store'
import { findProjectKeys } from '../src/server/features/keys/store'
import { restProduct } from '../src/server/features/rest/routes'
import { gatewayRoutes } from '../src/server/gateway'
import { demoProjectKeys, formatFigures, loadFigures, median, removeDir, startServer, loadLine, waitForIdle } from './support'

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10)
const REST_ROUNDS = Number(process.env.REST_ROUNDS ?? 12)
const REST_REQUESTS = Number(process.env.REST_REQUESTS ?? 500)
const PARTS = (process.env.AUTH_BENCH ?? 'sign-up,sign-in,rest').split(',').map((p) => p.trim())
/** A sign-in is a bcrypt comparison (~0.1 s of one core in pure JS): 50 at once take seconds, so it runs longer. */
const SIGN_IN_SECONDS = Math.max(LOAD_SECONDS, 30)

/** Waits until the server has worked off what the last phase left queued (its health check answers at once again). */
async function settle(url: string) {
  for (;;) {
    const started = performance.now()
    await fetch(`${url}/platform/health`)
    if (performance.now() - started < 50) return
    await new Promise((r) => setTimeout(r, 200))
  }
}
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50)

/**
 * CPU time (user + system, ms) the process `pid` and every process under it (the project databases' processes) have
 * used so far, from /proc. CPU per request moves far less with the machine's load than requests/s does.
 */
function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let text: string
    try {
      text = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    // Fields after the command (which may hold spaces), from field 3: state, ppid, … utime (14), stime (15).
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
    stats.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) })
  }
  let ticks = 0
  const tree = new Set([pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [p, st] of stats) if (!tree.has(p) && tree.has(st.ppid)) (tree.add(p), (grew = true))
  }
  for (const p of tree) ticks += stats.get(p)?.ticks ?? 0
  // Linux counts in USER_HZ, 100 a second on every architecture it runs on here.
  return ticks * 10
}

const percentile = (sorted: number[], p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]) : Number.NaN)

/**
 * One client requesting `url` every PROBE_PAUSE_MS until stopped: the durations of its answers, sorted. Paced, so its
 * own requests add little to the server's CPU that the phase it watches measures.
 */
const PROBE_PAUSE_MS = 100
function probeWhile(url: string, headers: Record<string, string>) {
  let running = true
  const times: number[] = []
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const res = await fetch(url, { headers })
      await res.arrayBuffer()
      if (!res.ok) throw new Error(`the probe answered ${res.status}`)
      times.push(performance.now() - started)
      await new Promise((r) => setTimeout(r, PROBE_PAUSE_MS))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return times.sort((a, b) => a - b)
    },
  }
}

/**
 * How long a client waits for its answer. Long: a client that gives up sends its next request while the server still
 * hashes for the one it left, so on a loaded machine a short time-out measures only abandoned work.
 */
const ANSWER_TIMEOUT_S = 120

const load = (url: string, opts: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string }, seconds: number) =>
  loadFigures({ url, connections: CLIENTS, duration: seconds, timeout: ANSWER_TIMEOUT_S, method: opts.method ?? 'GET', headers: opts.headers, body: opts.body })

/**
 * A load phase's figures with the server's CPU time a request (its process and the project databases' processes):
 * counted until the server is idle again, since the requests still under way when the phase ends (one a client) are
 * served all the same, and divided among those and the answered ones.
 */
async function withCpu<T extends { requests: number }>(pid: number, run: () => Promise<T>, clients = CLIENTS): Promise<T & { cpuMs: number }> {
  const before = treeCpuMs(pid)
  const figures = await run()
  await waitForIdle(pid, 300_000)
  return { ...figures, cpuMs: (treeCpuMs(pid) - before) / (figures.requests + clients) }
}
const cpuNote = (f: { cpuMs: number }) => `; server CPU ${f.cpuMs.toFixed(0)} ms a request`

const fmt = formatFigures

/**
 * REST in this process with the anon key and with a user's JWT, through a gateway that keeps verified tokens and one
 * that does not: see the header.
 */
async function restInProcess() {
  const dataDir = mkdtempSync(join(tmpdir(), 'auth-rest-bench-'))
  const config = loadConfig({ DATA_DIR: dataDir })
  const db = await openDb(config)
  const app = await createApp({ db, config })
  try {
    const { rows } = await db.query<{ id: number; ref: string }>(`select id, ref from projects where name = 'Recipe Box'`)
    const { id, ref } = rows[0]
    const anon = (await findProjectKeys(db, id))!.anon_key
    await saveAuthSettings(db, id, { mailer_autoconfirm: true })
    const signUp = await app.app.request(`http://127.0.0.1/p/${ref}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: anon, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rest-bench@example.com', password: 'bench-password' }),
    })
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`)
    const userToken = ((await signUp.json()) as { access_token: string }).access_token
    const deps = (jwtCacheEntries: number) => ({
      db,
      config: { ...config, jwtCacheEntries },
      clock: systemClock,
      lifecycle: app.lifecycle,
      latency: { ms: 0 },
      ownUrl: initialOwnUrl(config),
      projectDbs: app.projectDbs,
      objects: app.objects,
    })
    const gateways = { cached: gatewayRoutes(deps(config.jwtCacheEntries), undefined, [restProduct(deps(config.jwtCacheEntries))]), uncached: gatewayRoutes(deps(0), undefined, [restProduct(deps(0))]) }
    const path = `http://127.0.0.1/p/${ref}/rest/v1/recipes?select=*&published=eq.true&limit=10`
    const who = { anon: { apikey: anon }, user: { apikey: anon, authorization: `Bearer ${userToken}` } }
    type Kind = `${'anon' | 'user'} ${'cached' | 'uncached'}`
    const kinds: Kind[] = ['anon cached', 'user cached', 'anon uncached', 'user uncached']
    /** `n` requests, CLIENTS at a time: requests/s and CPU ms a request; every answer checked. */
    const phase = async (kind: Kind, n: number) => {
      const [caller, cache] = kind.split(' ') as ['anon' | 'user', 'cached' | 'uncached']
      const gateway = gateways[cache]
      let left = n
      let body: string | undefined
      const cpuBefore = treeCpuMs(process.pid)
      const started = performance.now()
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (left-- > 0) {
            const res = await gateway.request(path, { headers: who[caller] })
            const text = await res.text()
            if (res.status !== 200) throw new Error(`${kind}: ${path} answered ${res.status}: ${text}`)
            if (body !== undefined && text !== body) throw new Error(`${kind}: another answer than the others'`)
            body = text
          }
        }),
      )
      const ms = performance.now() - started
      return { rps: (n / ms) * 1000, cpuMs: (treeCpuMs(process.pid) - cpuBefore) / n }
    }
    for (const kind of kinds) await phase(kind, REST_REQUESTS) // warm-up: the database opened, the code compiled
    const runs = new Map<Kind, { rps: number; cpuMs: number }[]>(kinds.map((k) => [k, []]))
    for (let round = 0; round < REST_ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) runs.get(kind)!.push(await phase(kind, REST_REQUESTS))
    }
    console.log(
      `REST GET /p/{ref}/rest/v1/recipes?select=*&published=eq.true, in process, ${CLIENTS} at a time, ${REST_ROUNDS} rounds of ${REST_REQUESTS} requests a kind (order reversed every other round):`,
    )
    for (const kind of kinds) {
      const r = runs.get(kind)!
      console.log(`  ${kind.padEnd(13)}: median ${Math.round(median(r.map((x) => x.rps)))} req/s (${r.map((x) => Math.round(x.rps)).join(', ')}), CPU ${median(r.map((x) => x.cpuMs)).toFixed(2)} ms a request`)
    }
    for (const cache of ['cached', 'uncached'] as const) {
      const anonRuns = runs.get(`anon ${cache}`)!
      const userRuns = runs.get(`user ${cache}`)!
      const rps = median(userRuns.map((u, i) => u.rps / anonRuns[i].rps))
      const cpu = median(userRuns.map((u, i) => u.cpuMs / anonRuns[i].cpuMs))
      const label = cache === 'cached' ? `with verified tokens kept (JWT_CACHE_ENTRIES=${config.jwtCacheEntries})` : 'verifying every token (JWT_CACHE_ENTRIES=0)'
      console.log(`  ${label}: a user's JWT costs ${((1 - rps) * 100).toFixed(1)}% of the anon key's requests/s and ${((cpu - 1) * 100).toFixed(1)}% more CPU a request (medians of the rounds' ratios)`)
    }
    const anonGain = median(runs.get('anon cached')!.map((c, i) => c.rps / runs.get('anon uncached')![i].rps))
    const userGain = median(runs.get('user cached')!.map((c, i) => c.rps / runs.get('user uncached')![i].rps))
    console.log(`  keeping verified tokens: anon key ×${anonGain.toFixed(2)} requests/s, user's JWT ×${userGain.toFixed(2)} (medians of the rounds' ratios)`)
  } finally {
    await app.close()
    await db.close()
    removeDir(dataDir)
  }
}

async function overHttp() {
  const server = await startServer()
  try {
    // The start's background work (the demo databases) done first: on a loaded machine it outlasts a phase.
    await waitForIdle(server.process.pid!, 300_000)
    const { ref, anon, cookie } = await demoProjectKeys(server.url)
    const patched = await fetch(`${server.url}/v1/projects/${ref}/config/auth`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ mailer_autoconfirm: true, rate_limit_verify: 1_000_000_000, rate_limit_token_refresh: 1_000_000_000 }),
    })
    if (!patched.ok) throw new Error(`PATCH config/auth answered ${patched.status}: ${await patched.text()}`)
    const auth = `${server.url}/p/${ref}/auth/v1`
    const credentials = JSON.stringify({ email: 'bench@example.com', password: 'bench-password' })
    const json = { apikey: anon, 'content-type': 'application/json' }
    const signUp = await fetch(`${auth}/signup`, { method: 'POST', headers: json, body: credentials })
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`)

    if (PARTS.includes('sign-up')) {
      // Sign-ups: each request a new address; each answer's refresh token kept for the refresh phase.
      const refreshTokens: string[] = []
      let signUps = 0
      const keepRefreshToken = (status: number, body: string) => {
        if (status !== 200) return
        const token = (JSON.parse(body) as { refresh_token?: string }).refresh_token
        if (token) refreshTokens.push(token)
      }
      const signUpFigures = await withCpu(server.process.pid!, () => loadFigures({
        url: auth,
        connections: CLIENTS,
        duration: SIGN_IN_SECONDS,
        timeout: ANSWER_TIMEOUT_S,
        requests: [
          {
            method: 'POST',
            path: `/p/${ref}/auth/v1/signup`,
            headers: json,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `bench-${++signUps}@example.com`, password: 'bench-password' }) }),
            onResponse: keepRefreshToken,
          },
        ],
      }))
      console.log(`sign-up, ${CLIENTS} clients, ${SIGN_IN_SECONDS} s, POST /p/{ref}/auth/v1/signup: ${fmt(signUpFigures)}${cpuNote(signUpFigures)}`)
      await settle(server.url)

      // Refreshes: a token is taken from the pool for each request and its answer's new token put back.
      // One client a session at most: a refresh token is in one request at a time (a loaded machine may have made few).
      if (refreshTokens.length === 0) throw new Error('no session to refresh')
      const refreshClients = Math.min(CLIENTS, refreshTokens.length)
      const refreshFigures = await withCpu(server.process.pid!, () => loadFigures({
        url: auth,
        connections: refreshClients,
        duration: LOAD_SECONDS,
        timeout: ANSWER_TIMEOUT_S,
        requests: [
          {
            method: 'POST',
            path: `/p/${ref}/auth/v1/token?grant_type=refresh_token`,
            headers: json,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: refreshTokens.shift() ?? 'none left' }) }),
            onResponse: keepRefreshToken,
          },
        ],
      }), refreshClients)
      console.log(`refresh, ${refreshClients} clients, ${LOAD_SECONDS} s, POST /p/{ref}/auth/v1/token?grant_type=refresh_token: ${fmt(refreshFigures)}${cpuNote(refreshFigures)}`)
      await settle(server.url)
    }

    if (PARTS.includes('sign-in')) {
      const signInUrl = `${auth}/token?grant_type=password`
      const other = await demoProjectKeys(server.url, 'Acme Storefront')
      const probe = probeWhile(`${server.url}/p/${other.ref}/auth/v1/settings`, { apikey: other.anon })
      const signIn = await withCpu(server.process.pid!, () => load(signInUrl, { method: 'POST', headers: json, body: credentials }, SIGN_IN_SECONDS))
      const probed = await probe.stop()
      console.log(`sign-in, ${CLIENTS} clients, ${SIGN_IN_SECONDS} s, POST /p/{ref}/auth/v1/token?grant_type=password: ${fmt(signIn)}${cpuNote(signIn)}`)
      console.log(
        `meanwhile another project's GET /p/{other}/auth/v1/settings, one client every ${PROBE_PAUSE_MS} ms: ${probed.length} answers, ` +
          `p50 ${percentile(probed, 0.5)} ms, p99 ${percentile(probed, 0.99)} ms`,
      )
      await settle(server.url)
    }
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

if (PARTS.includes('sign-up') || PARTS.includes('sign-in')) await overHttp()
if (PARTS.includes('rest')) await restInProcess()
console.log(loadLine())

