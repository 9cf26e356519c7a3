/**
 * A project's auth service under load, on a real server process (PGlite store), closed loop with 50 clients
 * (BENCH_CLIENTS to use fewer on a busy machine):
 *  - sign-up: `POST /p/{ref}/auth/v1/signup`, a new e-mail each time, confirmed at once → requests/s, p50/p99
 *    (a bcrypt hash, a user, its identity, a session and a refresh token written);
 *  - refresh: `POST /p/{ref}/auth/v1/token?grant_type=refresh_token`, each answer's new refresh token used for a
 *    later request (they are single use) → requests/s, p50/p99;
 *  - sign-in: `POST /p/{ref}/auth/v1/token?grant_type=password` for one confirmed user → requests/s, p50/p99
 *    (each answer costs a bcrypt comparison at the platform's cost 10, a session and a refresh token written);
 *    meanwhile one client asks another project's auth settings (`GET /p/{other}/auth/v1/settings`) in a loop →
 *    its p50/p99: what the sign-ins' hashing costs everyone else (it runs on the thread pool, not the event loop);
 *  - REST with a user's access token vs with the anon key: `GET /p/{ref}/rest/v1/recipes?select=*&limit=10`, the
 *    same clients, alternated → requests/s of each and the JWT's cost (the issue's budget: at most 10%).
 * The sign-in limits are raised first through the Management API (rate_limit_verify), so the figures are the
 * service's, not the throttle's. `npx tsx bench/auth.bench.ts` — LOAD_SECONDS (default 10).
 */
import { demoProjectKeys, formatFigures, loadFigures, type LoadFigures, removeDir, startServer, loadLine } from './support'

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10)
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

const percentile = (sorted: number[], p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]) : Number.NaN)

/** One client requesting `url` in a loop until stopped: the durations of its answers, sorted. */
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

type Figures = LoadFigures

const load = (url: string, opts: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string }, seconds: number) =>
  loadFigures({ url, connections: CLIENTS, duration: seconds, timeout: 20, method: opts.method ?? 'GET', headers: opts.headers, body: opts.body })

const fmt = formatFigures

const server = await startServer()
try {
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
  const { access_token: userToken } = (await signUp.json()) as { access_token: string }

  // Sign-ups: each request a new address; each answer's refresh token kept for the refresh phase.
  const refreshTokens: string[] = []
  let signUps = 0
  const keepRefreshToken = (status: number, body: string) => {
    if (status !== 200) return
    const token = (JSON.parse(body) as { refresh_token?: string }).refresh_token
    if (token) refreshTokens.push(token)
  }
  const signUpFigures = await loadFigures({
    url: auth,
    connections: CLIENTS,
    duration: SIGN_IN_SECONDS,
    timeout: 20,
    requests: [
      {
        method: 'POST',
        path: `/p/${ref}/auth/v1/signup`,
        headers: json,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `bench-${++signUps}@example.com`, password: 'bench-password' }) }),
        onResponse: keepRefreshToken,
      },
    ],
  })
  console.log(`sign-up, ${CLIENTS} clients, ${SIGN_IN_SECONDS} s, POST /p/{ref}/auth/v1/signup: ${fmt(signUpFigures)}`)
  await settle(server.url)

  // Refreshes: a token is taken from the pool for each request and its answer's new token put back.
  if (refreshTokens.length < CLIENTS) throw new Error(`only ${refreshTokens.length} sessions to refresh for ${CLIENTS} clients`)
  const refreshFigures = await loadFigures({
    url: auth,
    connections: CLIENTS,
    duration: LOAD_SECONDS,
    timeout: 20,
    requests: [
      {
        method: 'POST',
        path: `/p/${ref}/auth/v1/token?grant_type=refresh_token`,
        headers: json,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: refreshTokens.shift() ?? 'none left' }) }),
        onResponse: keepRefreshToken,
      },
    ],
  })
  console.log(`refresh, ${CLIENTS} clients, ${LOAD_SECONDS} s, POST /p/{ref}/auth/v1/token?grant_type=refresh_token: ${fmt(refreshFigures)}`)
  await settle(server.url)

  const signInUrl = `${auth}/token?grant_type=password`
  const other = await demoProjectKeys(server.url, 'Acme Storefront')
  const probe = probeWhile(`${server.url}/p/${other.ref}/auth/v1/settings`, { apikey: other.anon })
  const signIn = await load(signInUrl, { method: 'POST', headers: json, body: credentials }, SIGN_IN_SECONDS)
  const probed = await probe.stop()
  console.log(`sign-in, ${CLIENTS} clients, ${SIGN_IN_SECONDS} s, POST /p/{ref}/auth/v1/token?grant_type=password: ${fmt(signIn)}`)
  console.log(
    `meanwhile another project's GET /p/{other}/auth/v1/settings, one client in a loop: ${probed.length} answers, ` +
      `p50 ${percentile(probed, 0.5)} ms, p99 ${percentile(probed, 0.99)} ms`,
  )

  const rest = `${server.url}/p/${ref}/rest/v1/recipes?select=*&limit=10`
  const asAnon = { apikey: anon }
  const asUser = { apikey: anon, authorization: `Bearer ${userToken}` }
  await settle(server.url)
  await load(rest, { headers: asAnon }, 2)
  await settle(server.url)
  const anonRuns: Figures[] = []
  const userRuns: Figures[] = []
  for (let i = 0; i < 2; i++) {
    anonRuns.push(await load(rest, { headers: asAnon }, LOAD_SECONDS / 2))
    userRuns.push(await load(rest, { headers: asUser }, LOAD_SECONDS / 2))
  }
  const rps = (runs: Figures[]) => runs.reduce((a, f) => a + f.rps, 0) / runs.length
  console.log(`REST with the anon key, ${CLIENTS} clients: ${anonRuns.map(fmt).join(' | ')}`)
  console.log(`REST with a user's JWT, ${CLIENTS} clients: ${userRuns.map(fmt).join(' | ')}`)
  console.log(`a user's JWT costs ${(((rps(anonRuns) - rps(userRuns)) / rps(anonRuns)) * 100).toFixed(1)}% of the anon key's requests/s`)
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
