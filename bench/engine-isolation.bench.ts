/**
 * What one tenant's slow branch migration costs the others, on a real server process (PGlite store and project
 * databases, the store that is one connection): the status API the dashboard polls (`GET /platform/projects/<ref>/
 * status`, cookie) and another project's REST read (`/p/<ref>/rest/v1/recipes`, its anon key), each sent back to back
 * by one client,
 *  - with nothing else running (the baseline, WINDOW_S seconds), then
 *  - while a preview branch's migration runs `select pg_sleep(SLEEP_S)` in the branch's own database
 *    (PROJECT_DB_QUERY_TIMEOUT_MS above it, so the migration passes): the requests under way between the step's
 *    recorded start and finish.
 * Prints p50 and p99 of each, and the ratio of the sleeping window's to the baseline's.
 * `npx tsx bench/engine-isolation.bench.ts` (or `npm run bench engine-isolation`).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BranchMigrations, BranchResponse } from '../src/contracts/branching'
import { V1ApiKeyList } from '../src/contracts/keys'
import { V1ProjectList } from '../src/contracts/v1'
import { isHealthy, linkedProject, loadLine, ownerCookie, removeDir, startServer, waitForIdle } from './support'

const SLEEP_S = 12
const WINDOW_S = 8
/** Requests sent this close to the end of the sleep are left out: they could not wait long whatever the engine did. */
const WINDOW_MARGIN_MS = 1_000
const TENANT = 'Recipe Box'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

async function main() {
  const server = await startServer({ LIFECYCLE_BRANCH_STEP_MS: '0', PROJECT_DB_QUERY_TIMEOUT_MS: String(SLEEP_S * 4 * 1000) })
  const work = mkdtempSync(join(tmpdir(), 'engine-isolation-bench-'))
  try {
    // startServer waits a minute for the first answer; a fresh data folder on a loaded machine may take longer.
    for (let waited = 0; !(await isHealthy(server.url)); waited += 500) {
      if (waited > 300_000 || server.process.exitCode !== null) throw new Error('the server did not start')
      await new Promise((r) => setTimeout(r, 500))
    }
    await waitForIdle(server.process.pid!, 60_000)
    const cookie = await ownerCookie(server.url)
    const json = { cookie, 'content-type': 'application/json' }
    const projects = V1ProjectList.parse(await (await fetch(`${server.url}/v1/projects`, { headers: { cookie } })).json())
    const tenant = projects.find((p) => p.name === TENANT)
    if (!tenant) throw new Error(`no project ${TENANT}`)
    const keys = V1ApiKeyList.parse(await (await fetch(`${server.url}/v1/projects/${tenant.id}/api-keys`, { headers: { cookie } })).json())
    const found = keys.find((k) => k.name === 'anon')?.api_key
    if (!found) throw new Error(`${TENANT} has no anon key`)
    const anon: string = found
    const statusUrl = `${server.url}/platform/projects/${tenant.id}/status`
    const restUrl = `${server.url}/p/${tenant.id}/rest/v1/recipes?select=title&limit=5`

    /** Each of the two reads sent back to back by its own client until `done()`; each one's send time and ms. */
    async function sample(done: () => boolean) {
      const loop = async (url: string, headers: Record<string, string>) => {
        const times: { at: number; ms: number }[] = []
        while (!done()) {
          const at = Date.now()
          const began = performance.now()
          const res = await fetch(url, { headers })
          await res.arrayBuffer()
          if (!res.ok) throw new Error(`${url} answered ${res.status}`)
          times.push({ at, ms: performance.now() - began })
        }
        return times
      }
      const [status, rest] = await Promise.all([loop(statusUrl, { cookie }), loop(restUrl, { apikey: anon })])
      return { status, rest }
    }
    const forSeconds = (seconds: number) => {
      const end = performance.now() + seconds * 1000
      return () => performance.now() >= end
    }

    // Warm: the tenant's database is made on its first use, the session and project go into the caches.
    await sample(forSeconds(1))
    const base = await sample(forSeconds(WINDOW_S))
    const baseline = { status: base.status.map((x) => x.ms), rest: base.rest.map((x) => x.ms) }

    const parent = await linkedProject(server, cookie, work, 'demo-pro', 'sleepy', {
      'supabase/migrations/20240101000000_sleep.sql': `select pg_sleep(${SLEEP_S});\n`,
    }, { name: 'Sleepy' })
    const created = await fetch(`${server.url}/v1/projects/${parent}/branches`, { method: 'POST', headers: json, body: JSON.stringify({ branch_name: 'sleepy', git_branch: 'main' }) })
    if (created.status !== 201) throw new Error(`creating the branch: ${created.status} ${await created.text()}`)
    const { id } = BranchResponse.parse(await created.json())
    // Sampled from the branch's creation to the end of its build; the window is the sleeping migration's own run,
    // as its step records it (started_at, finished_at), since a store held by it would also hold any poll of it.
    let settled = false
    const sampling = sample(() => settled)
    let final = BranchMigrations.parse(await (await fetch(`${server.url}/platform/branches/${id}/migrations`, { headers: { cookie } })).json())
    while (final.status === 'CREATING_PROJECT' || final.status === 'RUNNING_MIGRATIONS') {
      await new Promise((r) => setTimeout(r, 100))
      final = BranchMigrations.parse(await (await fetch(`${server.url}/platform/branches/${id}/migrations`, { headers: { cookie } })).json())
    }
    settled = true
    const all = await sampling
    if (final.status !== 'MIGRATIONS_PASSED') throw new Error(`the branch ended ${final.status}`)
    const step = final.migrations[0]
    const from = Date.parse(step.started_at ?? '')
    const to = Date.parse(step.finished_at ?? '')
    if (!(to - from >= SLEEP_S * 1000)) throw new Error(`the migration's record does not span its sleep: ${step.started_at} – ${step.finished_at}`)
    // A request under way when the sleep began counts: it is the one a held store would make wait longest.
    const inWindow = (xs: { at: number; ms: number }[]) => xs.filter((x) => x.at + x.ms > from && x.at < to - WINDOW_MARGIN_MS).map((x) => x.ms)
    const sleeping = { status: inWindow(all.status), rest: inWindow(all.rest) }

    console.log(loadLine())
    const line = (name: string, base: number[], slow: number[]) => {
      const [b50, b99, s50, s99] = [percentile(base, 50), percentile(base, 99), percentile(slow, 50), percentile(slow, 99)]
      console.log(
        `${name}: no migration p50 ${b50.toFixed(1)} ms, p99 ${b99.toFixed(1)} ms (${base.length} requests); ` +
          `while a migration sleeps ${SLEEP_S} s: p50 ${s50.toFixed(1)} ms, p99 ${s99.toFixed(1)} ms (${slow.length} requests); ` +
          `ratio p50 ×${(s50 / b50).toFixed(2)}, p99 ×${(s99 / b99).toFixed(2)}`,
      )
    }
    line('status API (GET /platform/projects/<ref>/status)', baseline.status, sleeping.status)
    line(`another tenant's REST (${TENANT}, GET /rest/v1/recipes)`, baseline.rest, sleeping.rest)
    console.log(`the sleeping migration ran ${((to - from) / 1000).toFixed(1)} s; requests under way in it (but its last ${WINDOW_MARGIN_MS} ms) are its window`)
  } finally {
    await server.stop()
    removeDir(server.dataDir)
    removeDir(work)
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
