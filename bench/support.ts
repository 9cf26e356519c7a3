/** Shared by the benches: a real server process on a free port with a fresh data folder. */
import autocannon from 'autocannon'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { RepositoryList } from '../src/contracts/github'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

export interface RunningServer {
  url: string
  process: ChildProcess
  dataDir: string
  stop: () => Promise<void>
}

export async function startServer(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'dashboard-bench-')),
  script = 'src/server/main.ts',
): Promise<RunningServer> {
  const port = await freePort()
  // Node itself with tsx's loader: a wrapper process (npx) would not pass a stop signal on reliably.
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    // DB_PORT=0: a bench may run two servers at once; each takes a free Postgres port unless it names one.
    env: { ...process.env, PORT: String(port), DB_PORT: '0', DATA_DIR: dataDir, DEV_CONTROLS: '1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  // BENCH_START_TIMEOUT_MS: a shared machine under load was seen to take 67 s to answer its first health check.
  const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? 180_000)
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/platform/health`)
      if (response.ok) break
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  return {
    url,
    process: child,
    dataDir,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(forced)
    },
  }
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true })
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Kills the server process with SIGKILL (no shutdown at all, as a crash) and waits for it to be gone. */
export async function killServer(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return
  const exited = new Promise((r) => server.process.once('exit', r))
  server.process.kill('SIGKILL')
  await exited
}

/** Whether the server answers its health check (startServer gives up silently after a minute). */
export async function isHealthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/platform/health`)).ok
  } catch {
    return false
  }
}

/** CPU time (user + system, all threads) a process has used, in ms, from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after the command; clock ticks of 10 ms on Linux.
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/**
 * Waits until a started server has settled: its start leaves work running in the background (the project database
 * template and the demo databases), which a bench of steady traffic must not measure. Settled = under 5% of one core
 * over a second; gives up (and says so) after `maxMs`.
 */
export async function waitForIdle(pid: number, maxMs = 120_000): Promise<void> {
  const deadline = Date.now() + maxMs
  let last = cpuMs(pid)
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000))
    const now = cpuMs(pid)
    if (now - last < 50) return
    last = now
  }
  console.log(`(the server did not settle within ${maxMs / 1000} s; measuring anyway)`)
}

/**
 * A large schema for the REST schema and API docs benches: `tables` tables (an enum, a jsonb, keys to the previous one,
 * comments), a view per ten tables and `functions` functions, half STABLE, half VOLATILE.
 */
export function largeSchemaSql(tables: number, functions: number): string {
  const parts = [`create type level as enum ('low', 'mid', 'high');`]
  for (let i = 0; i < tables; i++) {
    const parent = i > 0 ? `, parent_id bigint references t${i - 1} (id)` : ''
    parts.push(
      `create table t${i} (id bigint generated always as identity primary key, name text not null, ` +
        `code varchar(12) default 'none', price numeric(10,2) default 0, meta jsonb, level level, ` +
        `created_at timestamptz not null default now()${parent});`,
      `comment on table t${i} is 'Table ${i}'; comment on column t${i}.name is 'The name';`,
    )
    if (i % 10 === 0) parts.push(`create view v${i} as select id, name from t${i};`)
  }
  for (let i = 0; i < functions; i++) {
    const volatility = i % 2 === 0 ? 'stable' : 'volatile'
    parts.push(
      `create function f${i}(a int, b text default 'x') returns setof t${i % tables} language sql ${volatility} ` +
        `as $$ select * from t${i % tables} where id = a $$;`,
      `comment on function f${i}(int, text) is 'Function ${i}';`,
    )
  }
  return parts.join('\n')
}

/** The demo Owner's session cookie on a running server (the benches that call /platform and /v1 as the Owner). */
export async function ownerCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
  })
  if (!res.ok) throw new Error(`sign-in answered ${res.status}`)
  return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

/** What one autocannon run measured, as the benches print it. */
export interface LoadFigures {
  rps: number
  p50: number
  p99: number
  errors: number
  requests: number
}

/** One autocannon run (`connections` clients for `duration` seconds); errors count time-outs and non-2xx answers. */
export async function loadFigures(options: autocannon.Options): Promise<LoadFigures> {
  const result = await autocannon(options)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  }
}

export const formatFigures = (f: LoadFigures) => `${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors} of ${f.requests}`

/** A demo project's ref and keys, as the dashboard's API settings show them to its Owner (and the Owner's cookie). */
export async function demoProjectKeys(url: string, name = 'Recipe Box'): Promise<{ ref: string; anon: string; service: string; cookie: string }> {
  const cookie = await ownerCookie(url)
  const projects = (await (await fetch(`${url}/platform/projects`, { headers: { cookie } })).json()) as Array<{ ref: string; name: string }>
  const project = projects.find((p) => p.name === name)
  if (!project) throw new Error(`no ${name} project`)
  const settings = (await (await fetch(`${url}/platform/props/project/${project.ref}/settings`, { headers: { cookie } })).json()) as {
    services: Array<{ service_api_keys: Array<{ tags: string; api_key: string }> }>
  }
  const key = (tag: string) => {
    const found = settings.services[0].service_api_keys.find((k) => k.tags === tag)?.api_key
    if (!found) throw new Error(`no ${tag} key`)
    return found
  }
  return { ref: project.ref, anon: key('anon'), service: key('service_role'), cookie }
}

/** The machine's load, printed beside figures measured on a shared machine. */
export const loadLine = () => `(load average when measuring: ${loadavg().map((x) => x.toFixed(1)).join(', ')} on ${cpus().length} cores)`

/** The demo Owner's development access token the server wrote under its data folder (its name carries the store's URL on PostgreSQL: src/server/start.ts). */
export function ownerAccessToken(dataDir: string): string {
  const file = readdirSync(dataDir).find((f) => f.startsWith('dev-access-token'))
  if (!file) throw new Error(`no development access token in ${dataDir}`)
  return readFileSync(join(dataDir, file), 'utf8').trim()
}

/**
 * A new project of `org` linked to a repository of `files` (one commit on main) pushed with git to the platform's Git
 * hosting as the demo Owner (their development access token as the password), under `workDir`; returns its ref.
 */
export async function linkedProject(
  server: { url: string; dataDir: string },
  cookie: string,
  workDir: string,
  org: string,
  repository: string,
  files: Record<string, string>,
  project: { name: string; status?: string },
): Promise<string> {
  const dir = join(workDir, repository)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const env = { PATH: process.env.PATH, HOME: workDir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' }
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' })
  run(['init', '-q', '-b', 'main'])
  run(['add', '-A'])
  run(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', repository])
  run(['push', '-q', `${server.url.replace('http://', `http://x:${ownerAccessToken(server.dataDir)}@`)}/git/${org}/${repository}.git`, 'main'])
  const json = { cookie, 'content-type': 'application/json' }
  const listed = RepositoryList.parse(await (await fetch(`${server.url}/platform/integrations/github/repositories`, { headers: { cookie } })).json())
  const repo = listed.repositories.find((r) => r.name === `${org}/${repository}`)
  if (!repo) throw new Error(`the repository ${repository} was not stored`)
  const created = await fetch(`${server.url}/dev/projects`, { method: 'POST', headers: json, body: JSON.stringify({ organization_slug: org, ...project }) })
  if (created.status !== 201) throw new Error(`creating ${project.name}: ${created.status} ${await created.text()}`)
  const { ref } = (await created.json()) as { ref: string }
  const linked = await fetch(`${server.url}/platform/integrations/github/connections`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ installation_id: repo.installation_id, project_ref: ref, repository_id: repo.id }),
  })
  if (linked.status !== 201) throw new Error(`linking ${repository}: ${linked.status} ${await linked.text()}`)
  return ref
}

/** Resolves in the page when the source expression `condition` holds: performance.now() then. */
export const waitUntil = (page: Page, condition: string) =>
  page.evaluate<number>(
    `new Promise((resolve) => {
      const check = () => ((${condition}) ? resolve(performance.now()) : requestAnimationFrame(check))
      check()
    })`,
  )

/** Debian's Chromium as the benches drive it (a downloaded browser cannot be had here). */
export const launchChromium = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })

/**
 * Frame times (ms from one animation frame to the next) over `steps` frames, each moving the scroll container the
 * CSS selector `scroller` names `step` px further from the top; 'fling': top to bottom over the frames (every row new
 * each frame); 0: the list still, what the machine's load alone makes of a frame.
 */
export const scrollFrameTimes = (page: Page, scroller: string, step: number | 'fling', steps = 300) =>
  page.evaluate(
    async ({ scroller, step, steps }) => {
      const element = document.querySelector(scroller) as HTMLElement
      element.scrollTop = 0
      const times: number[] = []
      let last = performance.now()
      for (let i = 1; i <= steps; i++) {
        await new Promise<void>((resolve) =>
          requestAnimationFrame(() => {
            element.scrollTop = step === 'fling' ? (element.scrollHeight * i) / steps : step * i
            const now = performance.now()
            times.push(now - last)
            last = now
            resolve()
          }),
        )
      }
      return times.slice(1)
    },
    { scroller, step, steps },
  )

/** Frame times as the benches print them: how many, the share under 16.7 ms (60 frames a second), median and p95. */
export function frameFigures(frames: number[]): string {
  const sorted = [...frames].sort((a, b) => a - b)
  const under = frames.filter((t) => t < 16.7).length
  return (
    `${frames.length} frames, ${((under / frames.length) * 100).toFixed(1)}% under 16.7 ms, ` +
    `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)} ms`
  )
}

/** A demo project's storage API as its service key reaches it, with a new bucket `bucket`. */
export async function storageBucket(url: string, bucket: string) {
  const { ref, service } = await demoProjectKeys(url)
  const base = `${url}/p/${ref}/storage/v1`
  const auth = { authorization: `Bearer ${service}` }
  const json = { ...auth, 'content-type': 'application/json' }
  const made = await fetch(`${base}/bucket`, { method: 'POST', headers: json, body: JSON.stringify({ name: bucket }) })
  if (!made.ok) throw new Error(`bucket: ${made.status} ${await made.text()}`)
  return { ref, base, auth, json }
}

/**
 * `count` objects' rows in one folder of a bucket (`<folder>00001.txt` …), written with SQL through the Management
 * API as the demo Owner: a listing reads rows only, so no bytes are stored.
 */
export async function insertObjectRows(server: RunningServer, ref: string, bucket: string, count: number, folder = '') {
  const sql = `insert into storage.objects (bucket_id, name, version, metadata)
    select '${bucket}', '${folder}' || lpad(i::text, 5, '0') || '.txt', gen_random_uuid()::text,
      jsonb_build_object('size', i, 'mimetype', 'text/plain', 'eTag', '"x"', 'cacheControl', 'no-cache', 'lastModified', now(), 'contentLength', i, 'httpStatusCode', 200)
    from generate_series(1, ${count}) i`
  const inserted = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerAccessToken(server.dataDir)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: sql }),
  })
  if (!inserted.ok) throw new Error(`inserting rows: ${inserted.status} ${await inserted.text()}`)
}

/** Median ms of `runs` listings of one folder (POST /object/list) with `limit`, each checked to list `limit` entries. */
export async function medianListMs(storage: { base: string; json: Record<string, string> }, bucket: string, prefix: string, limit: number, runs = 5) {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const res = await fetch(`${storage.base}/object/list/${bucket}`, { method: 'POST', headers: storage.json, body: JSON.stringify({ prefix, limit }) })
    const listed = (await res.json()) as unknown[]
    times.push(performance.now() - started)
    if (listed.length !== limit) throw new Error(`listed ${listed.length} of ${limit}`)
  }
  return median(times)
}
