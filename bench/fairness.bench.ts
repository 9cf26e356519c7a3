/**
 * Fair open-database slots against a real server process on PGlite (fresh DATA_DIR, PROJECT_DB_MAX_OPEN 4): one
 * organization (Demo Pro Org) cycles 9 projects over REST in 3 concurrent loops while another's project (Demo Free Org)
 * is read over REST one request at a time. Prints the victim's read times (p50, p90, max) alone and during the
 * cycling, what it was answered, and how the cycler was served (200) or refused (503 with Retry-After).
 * Run: npx tsx bench/fairness.bench.ts
 *      COMPARE=1 npx tsx bench/fairness.bench.ts (also with the fairness off: PROJECT_DB_MIN_RESIDENCY_MS=0 and a
 *      wait bound of 10 minutes, which is least-recently-used eviction with unbounded waits as before)
 */
import { isHealthy, loadLine, ownerCookie, removeDir, startServer, waitForIdle } from './support'

const CYCLED = 9
const LOOPS = 3
const VICTIM_READS = Number(process.env.BENCH_READS ?? 60)

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}
const summary = (ms: number[]) => `p50 ${pct(ms, 50).toFixed(0)} ms, p90 ${pct(ms, 90).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServer({ DATABASE_URL: '', ...env })
  try {
    // A fresh data folder's first start (the store, the seed) can take minutes on a busy machine.
    for (const deadline = Date.now() + 600_000; !(await isHealthy(server.url)); ) {
      if (Date.now() > deadline) throw new Error('the server did not come up')
      await new Promise((r) => setTimeout(r, 250))
    }
    const auth = { cookie: await ownerCookie(server.url), 'content-type': 'application/json' }
    const project = async (org: string, name: string) => {
      const res = await fetch(`${server.url}/dev/projects`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ organization_slug: org, name, status: 'ACTIVE_HEALTHY' }),
      })
      const { ref } = (await res.json()) as { ref: string }
      const keys = (await (await fetch(`${server.url}/v1/projects/${ref}/api-keys`, { headers: auth })).json()) as { name: string; api_key: string }[]
      const made = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ query: 'create table notes (id int primary key, body text); insert into notes select g, g::text from generate_series(1, 50) g;' }),
      })
      if (!made.ok) throw new Error(`${name}: ${made.status} ${await made.text()}`)
      return { ref, anon: keys.find((k) => k.name === 'anon')!.api_key }
    }
    const read = async (p: { ref: string; anon: string }) => {
      const started = performance.now()
      const res = await fetch(`${server.url}/p/${p.ref}/rest/v1/notes?select=id,body`, { headers: { apikey: p.anon } })
      await res.arrayBuffer()
      return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after') }
    }
    const cycled: { ref: string; anon: string }[] = []
    for (let i = 0; i < CYCLED; i++) cycled.push(await project('demo-pro', `Cycled ${i}`))
    const victim = await project('demo-free', 'Victim')
    await waitForIdle(server.process.pid!, 60_000)

    const alone: number[] = []
    for (let i = 0; i < VICTIM_READS; i++) alone.push((await read(victim)).ms)

    let cycling = true
    const cycler: { status: number; ms: number; retryAfter: string | null }[] = []
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      for (let i = loop * 3; cycling; i++) cycler.push(await read(cycled[i % CYCLED]))
    })
    await new Promise((r) => setTimeout(r, 2_000)) // the cycling under way
    const during: { status: number; ms: number }[] = []
    for (let i = 0; i < VICTIM_READS; i++) during.push(await read(victim))
    cycling = false
    await Promise.all(loops)

    const statuses = (list: { status: number }[]) =>
      Object.entries(list.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {}))
        .map(([status, n]) => `${n}× ${status}`)
        .join(', ')
    const refused = cycler.filter((a) => a.status === 503)
    console.log(`${label}:`)
    console.log(`  victim alone:          ${summary(alone)}`)
    console.log(`  victim during cycling: ${summary(during.map((a) => a.ms))}; answers ${statuses(during)}`)
    console.log(
      `  cycler (${LOOPS} loops over ${CYCLED} projects): ${statuses(cycler)}; ${summary(cycler.map((a) => a.ms))}` +
        (refused.length ? `; Retry-After ${[...new Set(refused.map((a) => a.retryAfter))].join('/')} s` : ''),
    )
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

await measure('fair slots (defaults: PROJECT_DB_SLOT_WAIT_MS 10000, PROJECT_DB_MIN_RESIDENCY_MS 10000)', {})
if (process.env.COMPARE === '1') {
  await measure('fairness off (residency 0, wait bound 10 min)', { PROJECT_DB_MIN_RESIDENCY_MS: '0', PROJECT_DB_SLOT_WAIT_MS: '600000' })
}
console.log(loadLine())
