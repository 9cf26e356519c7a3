/**
 * Project databases on PGlite, against a real server process (fresh DATA_DIR). Run: npx tsx bench/projectdb.bench.ts
 *  - a new project: from the end of COMING_UP (its creation + LIFECYCLE_COMING_UP_MS) to the first query its database
 *    answers (through POST /v1/projects/{ref}/database/query), median of BENCH_RUNS (10);
 *  - reopening a closed database (closed by PROJECT_DB_IDLE_MS): the time of the query that reopens it, median;
 *  - then on the same DATA_DIR restarted (a fresh start's own peak — the store's initdb and the seed — is not the
 *    project databases'): the server's RSS, its peak RSS (VmHWM) after every demo project's database was opened once
 *    (each set ACTIVE_HEALTHY first; at most PROJECT_DB_MAX_OPEN open at once, default 4) against the budget of
 *    1.5 GB, and its RSS once they have all closed.
 */
import { readFileSync } from 'node:fs'
import { median, removeDir, startServer, type RunningServer } from './support'

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const COMING_UP_MS = 500
const IDLE_MS = 1_500
const BUDGET_MB = 1_536
const ENV = {
  DATABASE_URL: '',
  LIFECYCLE_COMING_UP_MS: String(COMING_UP_MS),
  LIFECYCLE_TICK_MS: '20',
  PROJECT_DB_IDLE_MS: String(IDLE_MS),
}

function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : Number.NaN
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The owner's session on a running server, and the calls the bench makes with it. */
async function client(server: RunningServer) {
  const signIn = await fetch(`${server.url}/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
  })
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`)
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]
  const headers = { 'content-type': 'application/json', cookie }
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return {
    /** One query on the project's database; resolves to whether it answered. */
    async query(ref: string, sql = 'select 1 as one') {
      const res = await post(`/v1/projects/${ref}/database/query`, { query: sql })
      await res.arrayBuffer()
      return res.ok // 201, as the Management API answers
    },
    async createProject(name: string) {
      const res = await post('/v1/projects', { name, organization_slug: 'demo-pro' })
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
      const created = performance.now()
      return { ref: ((await res.json()) as { ref: string }).ref, comingUpEnds: created + COMING_UP_MS }
    },
    async projects() {
      return (await (await fetch(`${server.url}/platform/projects`, { headers })).json()) as { ref: string; name: string }[]
    },
    async setStatus(ref: string, status: string) {
      await (await post(`/dev/projects/${ref}/status`, { status })).arrayBuffer()
    },
  }
}

async function main() {
  const first = await startServer(ENV)
  const dataDir = first.dataDir
  try {
    const api = await client(first)
    /** From the end of COMING_UP to the first answered query; ms. */
    const newProjectMs = async (name: string) => {
      const { ref, comingUpEnds } = await api.createProject(name)
      await sleep(Math.max(0, comingUpEnds - performance.now()))
      for (;;) {
        if (await api.query(ref)) return { ref, ms: performance.now() - comingUpEnds }
        await sleep(10)
      }
    }
    // The first project may prepare the template (one initdb into DATA_DIR); not counted.
    const warm = await newProjectMs('Warm-up')
    console.log(`first project (may include preparing the template): ${Math.round(warm.ms)} ms`)
    const times: number[] = []
    const refs: string[] = []
    for (let i = 0; i < RUNS; i++) {
      const { ref, ms } = await newProjectMs(`Bench ${i}`)
      times.push(ms)
      refs.push(ref)
    }
    console.log(
      `new project, end of COMING_UP → first query answered: median ${Math.round(median(times))} ms ` +
        `(min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}, n=${RUNS})`,
    )

    const reopen: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const ref = refs[i % refs.length]
      await api.query(ref)
      await sleep(IDLE_MS * 2) // closed by the idle sweep
      const t0 = performance.now()
      if (!(await api.query(ref))) throw new Error('reopening query failed')
      reopen.push(performance.now() - t0)
    }
    console.log(`reopening a closed database (first query after an idle close): median ${Math.round(median(reopen))} ms (n=${RUNS})`)
  } finally {
    await first.stop()
  }

  const second = await startServer(ENV, dataDir)
  const pid = second.process.pid!
  try {
    const api = await client(second)
    const rssStart = procStatusMb(pid, 'VmRSS')
    const demo = (await api.projects()).filter((p) => !p.name.startsWith('Bench ') && p.name !== 'Warm-up')
    for (const p of demo) await api.setStatus(p.ref, 'ACTIVE_HEALTHY') // so that each may open
    const t0 = performance.now()
    for (const p of demo) {
      if (!(await api.query(p.ref, 'select count(*) from pg_class'))) throw new Error(`query on ${p.name} failed`)
    }
    const openAll = performance.now() - t0
    const peak = procStatusMb(pid, 'VmHWM')
    console.log(
      `restarted server: RSS ${Math.round(rssStart)} MB; every demo project's database opened once (${demo.length}, ` +
        `created on first use) in ${Math.round(openAll)} ms: peak RSS (VmHWM) ${Math.round(peak)} MB — budget ${BUDGET_MB} MB: ` +
        (peak <= BUDGET_MB ? 'within' : 'OVER'),
    )
    await sleep(IDLE_MS * 3)
    console.log(`after they closed (idle): server RSS ${Math.round(procStatusMb(pid, 'VmRSS'))} MB`)
  } finally {
    await second.stop()
    removeDir(dataDir)
  }
}

await main()
