/**
 * REST_MAX_ROWS against a real server process on PGlite (fresh DATA_DIR): a table of 1,000,000 rows (generate_series)
 * in Recipe Box, then four concurrent anon reads of the whole table; the server's RSS (VmRSS of its process, worker
 * threads included) is sampled every 20 ms. Prints its RSS before, its peak during the reads and what each answered.
 * Run: npx tsx bench/rest-max-rows.bench.ts          (the default cap, 1000 rows)
 *      COMPARE=1 npx tsx bench/rest-max-rows.bench.ts (also with REST_MAX_ROWS=0, no cap: needs a few GB free)
 */
import { readFileSync } from 'node:fs'
import { isHealthy, loadLine, ownerCookie, removeDir, startServer, waitForIdle } from './support'

const ROWS = 1_000_000
const READS = 4

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : Number.NaN
}

async function measure(maxRows: string): Promise<void> {
  const server = await startServer({ DATABASE_URL: '', REST_MAX_ROWS: maxRows, PROJECT_DB_QUERY_TIMEOUT_MS: '600000' })
  const pid = server.process.pid!
  try {
    // A fresh data folder's first start (the store, the seed) can take minutes on a busy machine.
    for (const deadline = Date.now() + 600_000; !(await isHealthy(server.url)); ) {
      if (Date.now() > deadline) throw new Error('the server did not come up')
      await new Promise((r) => setTimeout(r, 250))
    }
    const auth = { cookie: await ownerCookie(server.url), 'content-type': 'application/json' }
    const projects = (await (await fetch(`${server.url}/v1/projects`, { headers: auth })).json()) as { id: string; name: string }[]
    const ref = projects.find((p) => p.name === 'Recipe Box')!.id
    const keys = (await (await fetch(`${server.url}/v1/projects/${ref}/api-keys`, { headers: auth })).json()) as { name: string; api_key: string }[]
    const anon = keys.find((k) => k.name === 'anon')!.api_key
    const made = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        query: `create table big (id int primary key, label text not null);
                insert into big select g, 'row number ' || g from generate_series(1, ${ROWS}) g;`,
      }),
    })
    if (!made.ok) throw new Error(`the table could not be made: ${made.status} ${await made.text()}`)
    const read = async () => {
      const res = await fetch(`${server.url}/p/${ref}/rest/v1/big`, { headers: { apikey: anon } })
      const body = await res.arrayBuffer()
      return { status: res.status, range: res.headers.get('content-range'), bytes: body.byteLength }
    }
    await read() // the database open and warm
    await waitForIdle(pid, 30_000)
    const before = rssMb(pid)
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20)
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: READS }, read))
    const ms = performance.now() - started
    clearInterval(sampler)
    peak = Math.max(peak, rssMb(pid))
    const label = maxRows === '0' ? 'REST_MAX_ROWS=0 (no cap)' : `REST_MAX_ROWS=${maxRows}`
    console.log(
      `${label}: ${READS} concurrent anon reads of a ${ROWS.toLocaleString('en')}-row table: RSS ${before.toFixed(0)} MB before, ` +
        `peak ${peak.toFixed(0)} MB during (+${(peak - before).toFixed(0)} MB); ${(ms / 1000).toFixed(1)} s; each answered ` +
        `${answers[0].status} ${answers[0].range}, ${(answers[0].bytes / 1024).toFixed(0)} KiB`,
    )
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

await measure(process.env.REST_MAX_ROWS ?? '1000')
if (process.env.COMPARE === '1') await measure('0')
console.log(loadLine())
