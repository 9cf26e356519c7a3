/**
 * Project databases on PGlite, against a real server process (fresh DATA_DIR). Run: npx tsx bench/projectdb.bench.ts
 *  - a new project: from the end of COMING_UP (its creation + LIFECYCLE_COMING_UP_MS) to the first query its database
 *    answers (through POST /v1/projects/{ref}/database/query), median of BENCH_RUNS (10);
 *  - reopening a closed database (closed by PROJECT_DB_IDLE_MS): the time of the query that reopens it, median;
 *  - the server's peak RSS (VmHWM) after every demo project's database was opened once (each set ACTIVE_HEALTHY
 *    first; at most PROJECT_DB_MAX_OPEN open at once, default 4), against the budget of 1.5 GB, and its RSS once
 *    they have all closed.
 */
import { readFileSync } from 'node:fs'
import { median, removeDir, startServer, type RunningServer } from './support'

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const COMING_UP_MS = 500
const IDLE_MS = 1_500
const BUDGET_MB = 1_536

function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : Number.NaN
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function main() {
  const server: RunningServer = await startServer({
    DATABASE_URL: '',
    LIFECYCLE_COMING_UP_MS: String(COMING_UP_MS),
    LIFECYCLE_TICK_MS: '20',
    PROJECT_DB_IDLE_MS: String(IDLE_MS),
  })
  const pid = server.process.pid!
  try {
    const signIn = await fetch(`${server.url}/platform/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
    })
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`)
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]
    const headers = { 'content-type': 'application/json', cookie }

    /** One query on the project's database; resolves to whether it answered. */
    const query = async (ref: string, sql = 'select 1 as one') => {
      const res = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: sql }),
      })
      await res.arrayBuffer()
      return res.ok // 201, as the Management API answers
    }

    const createProject = async (name: string) => {
      const res = await fetch(`${server.url}/v1/projects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, organization_slug: 'demo-pro' }),
      })
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
      const created = performance.now()
      return { ref: ((await res.json()) as { ref: string }).ref, comingUpEnds: created + COMING_UP_MS }
    }

    /** From the end of COMING_UP to the first answered query; ms. */
    const newProjectMs = async (name: string) => {
      const { ref, comingUpEnds } = await createProject(name)
      await sleep(Math.max(0, comingUpEnds - performance.now()))
      for (;;) {
        if (await query(ref)) return { ref, ms: performance.now() - comingUpEnds }
        await sleep(10)
      }
    }

    // The first project prepares the template (one initdb into DATA_DIR); not counted.
    const warm = await newProjectMs('Warm-up')
    console.log(`first project (template prepared by one initdb): ${Math.round(warm.ms)} ms`)
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
      await query(ref)
      await sleep(IDLE_MS * 2) // closed by the idle sweep
      const t0 = performance.now()
      if (!(await query(ref))) throw new Error('reopening query failed')
      reopen.push(performance.now() - t0)
    }
    console.log(`reopening a closed database (first query after an idle close): median ${Math.round(median(reopen))} ms (n=${RUNS})`)

    // Every demo project's database, once (ACTIVE_HEALTHY first so it may open).
    await sleep(IDLE_MS * 2)
    const rssBefore = procStatusMb(pid, 'VmRSS')
    const list = (await (await fetch(`${server.url}/platform/projects`, { headers })).json()) as { ref: string; name: string }[]
    const demo = list.filter((p) => !p.name.startsWith('Bench') && p.name !== 'Warm-up')
    for (const p of demo) {
      const res = await fetch(`${server.url}/dev/projects/${p.ref}/status`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ status: 'ACTIVE_HEALTHY' }),
      })
      await res.arrayBuffer()
    }
    const t0 = performance.now()
    for (const p of demo) {
      if (!(await query(p.ref, `select count(*) from pg_class`))) throw new Error(`query on ${p.name} failed`)
    }
    const openAll = performance.now() - t0
    const peak = procStatusMb(pid, 'VmHWM')
    console.log(
      `every demo project's database opened once (${demo.length}, created on first use): ${Math.round(openAll)} ms; ` +
        `server RSS before ${Math.round(rssBefore)} MB, peak (VmHWM) ${Math.round(peak)} MB — budget ${BUDGET_MB} MB: ` +
        (peak <= BUDGET_MB ? 'within' : 'OVER'),
    )
    await sleep(IDLE_MS * 3)
    console.log(`after they closed (idle): server RSS ${Math.round(procStatusMb(pid, 'VmRSS'))} MB`)
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

await main()
