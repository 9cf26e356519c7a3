/**
 * The Postgres port's figures: `pgbench -S -c 8` through the port against straight to PostgreSQL 15 on this machine
 * (the ratio; the goal is at least 0.7), the same through the PGlite path (tps), the connect time's p50 (start-up +
 * SCRAM + the first ReadyForQuery) on each, and the status API's p99 while 200 clients run queries on the port.
 *
 * `npx tsx bench/wire.bench.ts` (WIRE_BENCH_SECONDS, default 20: pgbench's -T; the servers run with
 * WIRE_MAX_CLIENTS_PER_PROJECT=200, so the flood's 201st client is refused and what it is told is printed).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import pg from 'pg'
import { hasPostgres, PG_BIN, startPgCluster } from '../tests/server/pgCluster'
import { demoProjectKeys, formatFigures, freePort, killServer, loadFigures, loadLine, median, startServer, type RunningServer } from './support'

const run = promisify(execFile)
const SECONDS = Number(process.env.WIRE_BENCH_SECONDS ?? 20)
const PASSWORD = 'bench-wire-password'
/** Clients of the flood, and the project's connection limit during the runs (so one more is refused). */
const FLOOD = 200

async function pgbench(url: string, extra: string[] = []): Promise<number> {
  const { stdout } = await run(path('pgbench'), ['-S', '-c', '8', '-j', '2', '-T', String(SECONDS), '-n', ...extra, url], {
    env: { PATH: process.env.PATH },
    maxBuffer: 16 * 1024 * 1024,
  })
  const m = /tps = ([\d.]+)/.exec(stdout)
  if (!m) throw new Error(`pgbench printed no tps:\n${stdout}`)
  return Number(m[1])
}

const path = (bin: string) => `${PG_BIN}/${bin}`

async function connectP50(url: string, times = 30): Promise<number> {
  const ms: number[] = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    ms.push(performance.now() - started)
    await c.end()
  }
  return median(ms)
}

/** The server's port and its Recipe Box project with a database password; pgbench's tables made in it. */
async function prepared(server: RunningServer, wirePort: number): Promise<string> {
  const { ref, cookie } = await demoProjectKeys(server.url)
  const res = await fetch(`${server.url}/v1/projects/${ref}/database/password`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  if (!res.ok) throw new Error(`password reset answered ${res.status}`)
  const url = `postgresql://postgres.${ref}:${PASSWORD}@127.0.0.1:${wirePort}/postgres?sslmode=disable`
  await run(path('pgbench'), ['-i', '-s', '1', '-q', url], { env: { PATH: process.env.PATH } })
  return url
}

async function throughPort(env: Record<string, string>, label: string): Promise<{ tps: number; connect: number }> {
  const wirePort = await freePort()
  const server = await startServer({ DB_PORT: String(wirePort), WIRE_MAX_CLIENTS_PER_PROJECT: String(FLOOD), ...env })
  try {
    const url = await prepared(server, wirePort)
    const tps = await pgbench(url)
    const connect = await connectP50(url)
    console.log(`${label}: pgbench -S -c 8 -T ${SECONDS}: ${tps.toFixed(0)} tps; connect p50 ${connect.toFixed(1)} ms`)
    if (label.startsWith('PGlite')) await statusDuringFlood(server, url)
    return { tps, connect }
  } finally {
    await killServer(server)
  }
}

/**
 * The status API's p99 while 200 clients of the port (opened at once, the project's limit) each run queries in a
 * loop, and what the 201st is told.
 */
async function statusDuringFlood(server: RunningServer, url: string): Promise<void> {
  const { ref, cookie } = await demoProjectKeys(server.url)
  let stop = false
  const clients = await Promise.all(
    Array.from({ length: FLOOD }, async () => {
      const c = new pg.Client({ connectionString: url })
      c.on('error', () => {})
      await c.connect()
      return c
    }),
  )
  const extra = new pg.Client({ connectionString: url })
  extra.on('error', () => {})
  const refused = await extra.connect().then(
    () => 'connected (the limit did not hold)',
    (err: Error & { code?: string }) => `refused ${err.code}: ${err.message}`,
  )
  await extra.end().catch(() => {})
  console.log(`client ${FLOOD + 1} during the flood: ${refused}`)
  const loops = clients.map(async (c) => {
    while (!stop) await c.query('select count(*) from pgbench_accounts where aid < 100').catch(() => {})
  })
  const figures = await loadFigures({ url: `${server.url}/platform/projects/${ref}/status`, headers: { cookie }, connections: 4, duration: 10 })
  stop = true
  await Promise.all(loops)
  await Promise.all(clients.map((c) => c.end().catch(() => {})))
  console.log(`status API while ${FLOOD} port clients run queries: ${formatFigures(figures)}`)
}

console.log(loadLine())
await throughPort({ DATABASE_URL: '' }, 'PGlite path')
if (hasPostgres()) {
  const cluster = await startPgCluster()
  try {
    const port = await throughPort({ DATABASE_URL: cluster.url }, 'PostgreSQL 15 through the port')
    // The database named in the URL's path (a string replace would hit the user name `postgres` first).
    const directUrl = new URL(cluster.url)
    directUrl.pathname = '/bench_direct'
    const direct = directUrl.toString()
    await run(path('createdb'), ['-h', '127.0.0.1', '-p', new URL(cluster.url).port, '-U', 'postgres', 'bench_direct'])
    await run(path('pgbench'), ['-i', '-s', '1', '-q', direct], { env: { PATH: process.env.PATH } })
    const straight = await pgbench(direct)
    const connect = await connectP50(direct)
    console.log(`PostgreSQL 15 straight: ${straight.toFixed(0)} tps; connect p50 ${connect.toFixed(1)} ms`)
    console.log(`ratio through the port / straight: ${(port.tps / straight).toFixed(2)} (goal ≥ 0.7)`)
  } finally {
    cluster.stop()
  }
} else {
  console.log('PostgreSQL 15 binaries not found: the straight comparison is skipped')
}
