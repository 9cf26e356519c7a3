/**
 * Preview branch builds, on a real server process (PGlite store and project databases): two repositories pushed
 * with git (the demo Owner's development access token as the password) to Demo Pro Org, each linked to its own new
 * project, then the time from POST /v1/projects/{ref}/branches to MIGRATIONS_PASSED (read by polling the branch's
 * build results, /platform/branches/{id}/migrations, every 50 ms) for
 *  - 3 migrations and a 1,000-row seed (median of RUNS branches), and
 *  - 50 migrations (median of RUNS branches).
 * LIFECYCLE_BRANCH_STEP_MS=0: the build's own work (the database from the template, each migration in its own
 * transaction and recorded, the seed), not the pacing between steps.
 * `npx tsx bench/branching.bench.ts` (or `npm run bench branching`).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BranchMigrations, BranchResponse } from '../src/contracts/branching'
import { linkedProject, loadLine, median, ownerCookie, removeDir, startServer, waitForIdle } from './support'

const RUNS = 5
const ORG = 'demo-pro'

async function main() {
  const server = await startServer({ LIFECYCLE_BRANCH_STEP_MS: '0' })
  const work = mkdtempSync(join(tmpdir(), 'branching-bench-'))
  try {
    await waitForIdle(server.process.pid!, 60_000)
    const cookie = await ownerCookie(server.url)
    const headers = { cookie }
    const json = { ...headers, 'content-type': 'application/json' }

    const linked = (name: string, files: Record<string, string>) => linkedProject(server, cookie, work, ORG, name, files, { name })

    /** One branch, from the request to MIGRATIONS_PASSED, in ms. */
    async function build(ref: string, branchName: string): Promise<number> {
      const started = performance.now()
      const res = await fetch(`${server.url}/v1/projects/${ref}/branches`, { method: 'POST', headers: json, body: JSON.stringify({ branch_name: branchName, git_branch: 'main' }) })
      if (res.status !== 201) throw new Error(`create ${branchName}: ${res.status} ${await res.text()}`)
      const { id } = BranchResponse.parse(await res.json())
      for (;;) {
        const branch = BranchMigrations.parse(await (await fetch(`${server.url}/platform/branches/${id}/migrations`, { headers })).json())
        if (branch.status === 'MIGRATIONS_PASSED') return performance.now() - started
        if (branch.status === 'MIGRATIONS_FAILED') throw new Error(`${branchName} failed`)
        await new Promise((r) => setTimeout(r, 50))
      }
    }

    const stamp = (i: number) => `2025${String(1 + Math.floor(i / 28)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}090000`
    const seedRows = Array.from({ length: 1000 }, (_, i) => `(${i + 1}, 'item ${i + 1}', ${(i % 97) + 1})`).join(',\n')
    const small = await linked('bench-three', {
      [`supabase/migrations/${stamp(0)}_create_items.sql`]: 'create table public.items (id bigint primary key, name text not null, qty int not null);',
      [`supabase/migrations/${stamp(1)}_items_index.sql`]: 'create index items_name_idx on public.items (name);',
      [`supabase/migrations/${stamp(2)}_items_rls.sql`]: 'alter table public.items enable row level security;\ncreate policy "items are readable" on public.items for select using (true);',
      'supabase/seed.sql': `insert into public.items (id, name, qty) values\n${seedRows};\n`,
    })
    const large = await linked(
      'bench-fifty',
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`supabase/migrations/${stamp(i)}_table_${i}.sql`, `create table public.t${i} (id bigint primary key, name text);\n`])),
    )

    const times = async (ref: string, prefix: string) => {
      await build(ref, `${prefix}-warm`)
      const xs: number[] = []
      for (let i = 0; i < RUNS; i++) xs.push(await build(ref, `${prefix}-${i}`))
      return xs
    }
    console.log(loadLine())
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, ${xs.length} runs after one warm-up)`
    console.log(`branch of 3 migrations and a 1,000-row seed, request to MIGRATIONS_PASSED: ${fmt(await times(small, 'three'))}`)
    console.log(`branch of 50 migrations, request to MIGRATIONS_PASSED: ${fmt(await times(large, 'fifty'))}`)
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
