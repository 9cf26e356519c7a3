/**
 * A project's REST API under load, and its OpenAPI document on a large schema:
 *  - closed loop: 50 clients, each sending `GET /p/{ref}/rest/v1/recipes?select=*&limit=10` with the anon key as
 *    soon as its last answer came (the demo's Recipe Box, row level security on) → requests/s, p50/p99, errors;
 *    the same clients against the same server's `/platform/health` in the same run → the ratio;
 *  - the OpenAPI document (catalog queries + building + JSON) of a project database with 1,000 tables and 200
 *    functions, as the owner and as anon → median of 5.
 *  - the usage meter's cost on the REST path, in one process: the same REST route with and without the
 *    meter (restRoutes(deps) vs restRoutes(deps, meter)), 200 sequential requests each, alternated 5 times → median
 *    per-request time of each and the difference; and `record()` alone over 1,000,000 calls → ns per call.
 * On PGlite, and on a throw-away PostgreSQL 15 cluster when Debian's binaries are installed.
 * `npx tsx bench/rest.bench.ts` — LOAD_SECONDS (default 10), REST_DB=pglite|postgres (default both),
 * REST_BENCH=metering for the meter's figures only.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/server/app'
import { loadConfig, systemClock } from '../src/server/config'
import { initialOwnUrl } from '../src/server/core/http'
import { openDb } from '../src/server/db'
import { findProjectKeys } from '../src/server/features/keys/store'
import { restProduct } from '../src/server/features/rest/routes'
import { gatewayRoutes } from '../src/server/gateway'
import { createUsageMeter } from '../src/server/core/meter'
import { createEngineDatabases } from '../src/server/projectdb'
import { introspect } from '../src/server/features/rest/catalog'
import { buildOpenApi } from '../src/server/features/rest/openapi'
import { hasPostgres, startPgCluster } from '../tests/server/pgCluster'
import { demoProjectKeys, formatFigures, loadFigures, largeSchemaSql, median, removeDir, startServer } from './support'

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10)
const CLIENTS = 50
const TABLES = 1_000
const FUNCTIONS = 200
const RUNS = 5


const load = (url: string, path: string, headers: Record<string, string>, seconds: number) =>
  loadFigures({ url: `${url}${path}`, connections: CLIENTS, duration: seconds, timeout: 10, headers })

const fmt = formatFigures

async function throughput(store: 'pglite' | 'postgres') {
  const cluster = store === 'postgres' ? await startPgCluster() : null
  const server = await startServer(cluster ? { DATABASE_URL: cluster.url } : {})
  try {
    const { ref, anon } = await demoProjectKeys(server.url)
    const path = `/p/${ref}/rest/v1/recipes?select=*&limit=10`
    const headers = { apikey: anon }
    const first = await fetch(`${server.url}${path}`, { headers }) // opens (and on the first start creates) the database
    if (first.status !== 200) throw new Error(`${path} answered ${first.status}: ${await first.text()}`)
    await load(server.url, path, headers, 3) // warm-up
    const rest = await load(server.url, path, headers, LOAD_SECONDS)
    const health = await load(server.url, '/platform/health', {}, LOAD_SECONDS)
    console.log(`${store}, ${CLIENTS} clients, ${LOAD_SECONDS} s, GET ${path.replace(ref, '{ref}')}: ${fmt(rest)}`)
    console.log(`${store}, ${CLIENTS} clients, ${LOAD_SECONDS} s, GET /platform/health (same server, same run): ${fmt(health)}`)
    console.log(`${store}: the REST read serves ${((rest.rps / health.rps) * 100).toFixed(1)}% of the health check's requests/s`)
  } finally {
    await server.stop()
    removeDir(server.dataDir)
    cluster?.stop()
  }
}


async function documentTime(store: 'pglite' | 'postgres') {
  const cluster = store === 'postgres' ? await startPgCluster() : null
  const dataDir = mkdtempSync(join(tmpdir(), 'rest-bench-'))
  const base = loadConfig({ DATA_DIR: dataDir, ...(cluster ? { DATABASE_URL: cluster.url } : {}) })
  const dbs = createEngineDatabases({ ...base, projectDb: { ...base.projectDb, queryTimeoutMs: 600_000 } })
  const ref = 'restbenchlarge'
  try {
    const startedCreate = performance.now()
    await dbs.create(ref, { schemaSql: largeSchemaSql(TABLES, FUNCTIONS) })
    console.log(`${store}: database with ${TABLES} tables, ${TABLES / 10} views and ${FUNCTIONS} functions made in ${((performance.now() - startedCreate) / 1000).toFixed(1)} s`)
    const target = { host: '127.0.0.1:8787', basePath: `/p/${ref}/rest/v1`, scheme: 'http' as const }
    for (const role of ['postgres', 'anon'] as const) {
      const times: number[] = []
      let bytes = 0
      let paths = 0
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        const catalog = await dbs.transaction(ref, { role, readOnly: true }, introspect)
        const doc = buildOpenApi(catalog, target)
        const text = JSON.stringify(doc)
        times.push(performance.now() - started)
        bytes = text.length
        paths = Object.keys(doc.paths).length
      }
      console.log(
        `${store}, OpenAPI document as ${role} (${paths} paths, ${(bytes / 1024 / 1024).toFixed(1)} MB): median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`,
      )
    }
  } finally {
    await dbs.drop(ref).catch(() => {})
    await dbs.closeAll()
    removeDir(dataDir)
    cluster?.stop()
  }
}

/** The REST path with and without the usage meter, in one process on one store (no port, no other load). */
async function meteringOverhead(store: 'pglite' | 'postgres') {
  const cluster = store === 'postgres' ? await startPgCluster() : null
  const dataDir = mkdtempSync(join(tmpdir(), 'rest-meter-bench-'))
  const config = { ...loadConfig({ DATA_DIR: dataDir, ...(cluster ? { DATABASE_URL: cluster.url } : {}) }), usageFlushMs: 0 }
  const db = await openDb(config)
  const server = await createApp({ db, config })
  try {
    const { rows } = await db.query<{ id: number; ref: string }>(`select id, ref from projects where name = 'Recipe Box'`)
    const { id, ref } = rows[0]
    const anon = (await findProjectKeys(db, id))?.anon_key ?? ''
    const deps = { db, config, clock: systemClock, lifecycle: server.lifecycle, latency: { ms: 0 }, ownUrl: initialOwnUrl(config), projectDbs: server.projectDbs, objects: server.objects }
    const meter = createUsageMeter({ db, clock: systemClock, projectDbs: server.projectDbs, flushMs: 0, logLimit: 1_000 })
    const plain = gatewayRoutes(deps, undefined, [restProduct(deps)])
    const metered = gatewayRoutes(deps, meter, [restProduct(deps)])
    const path = `http://127.0.0.1/p/${ref}/rest/v1/recipes?select=*&limit=10`
    const run = async (app: typeof plain, n: number) => {
      const started = performance.now()
      for (let i = 0; i < n; i++) {
        const res = await app.request(path, { headers: { apikey: anon } })
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
        await res.arrayBuffer()
      }
      return (performance.now() - started) / n
    }
    await run(plain, 100) // opens the database, warms both paths
    await run(metered, 100)
    const without: number[] = []
    const withMeter: number[] = []
    for (let i = 0; i < RUNS; i++) {
      without.push(await run(plain, 200))
      withMeter.push(await run(metered, 200))
    }
    const flushStarted = performance.now()
    await meter.flush()
    const flushMs = performance.now() - flushStarted
    const a = median(without)
    const b = median(withMeter)
    console.log(
      `${store}, GET recipes (200 sequential requests × ${RUNS}, alternated): without the meter ${a.toFixed(3)} ms/request, with it ${b.toFixed(3)} ms/request → overhead ${(b - a).toFixed(3)} ms (${(((b - a) / a) * 100).toFixed(1)}%)`,
    )
    console.log(`${store}: writing what the meter held (${RUNS * 200 + 100} requests: daily totals and log) took ${flushMs.toFixed(0)} ms`)
    await meter.stop()
  } finally {
    await server.close()
    await db.close()
    removeDir(dataDir)
    cluster?.stop()
  }
}

/** `record()` alone: what the REST path pays per request for counting (no I/O). */
function recordCost() {
  const meter = createUsageMeter({
    db: null as never,
    clock: systemClock,
    projectDbs: { openRefs: () => [], transaction: () => Promise.reject(new Error('unused')) },
    flushMs: 0,
    logLimit: 1_000,
  })
  const url = new URL('http://127.0.0.1/p/abcdefghijklmnopqrst/rest/v1/recipes?select=*&limit=10&apikey=secret')
  const calls = 1_000_000
  const started = performance.now()
  for (let i = 0; i < calls; i++) meter.record({ projectId: 1 + (i % 4), ref: 'abcdefghijklmnopqrst', method: 'GET', url, status: 200, durationMs: 1.5, bytes: 1_234 })
  const ns = ((performance.now() - started) * 1e6) / calls
  console.log(`usage meter: record() ${ns.toFixed(0)} ns per request (${calls.toLocaleString('en-US')} calls, 4 projects, log bounded to 1,000 each)`)
}

const which = process.env.REST_DB
const stores: Array<'pglite' | 'postgres'> = which === 'pglite' || which === 'postgres' ? [which] : hasPostgres() ? ['pglite', 'postgres'] : ['pglite']
if (process.env.REST_BENCH === 'metering') {
  recordCost()
  for (const store of stores) await meteringOverhead(store)
} else {
  for (const store of stores) {
    await throughput(store)
    await documentTime(store)
  }
  recordCost()
  for (const store of stores) await meteringOverhead(store)
}
