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
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BranchMigrations, BranchResponse } from '../src/contracts/branching'
import { RepositoryList } from '../src/contracts/github'
import { loadLine, median, ownerCookie, removeDir, startServer, waitForIdle } from './support'

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
    const token = readFileSync(join(server.dataDir, 'dev-access-token'), 'utf8').trim()
    const env = { PATH: process.env.PATH, HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' }

    /** Pushes a repository of the given files and links it to a new project of the organization; returns its ref. */
    async function linkedProject(name: string, files: Record<string, string>): Promise<string> {
      const dir = join(work, name)
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, path, '..'), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' })
      run(['init', '-q', '-b', 'main'])
      run(['add', '-A'])
      run(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', name])
      run(['push', '-q', `${server.url.replace('http://', `http://x:${token}@`)}/git/${ORG}/${name}.git`, 'main'])
      const repos = RepositoryList.parse(await (await fetch(`${server.url}/platform/integrations/github/repositories`, { headers })).json())
      const repo = repos.repositories.find((r) => r.name === `${ORG}/${name}`)
      if (!repo) throw new Error(`${name} was not stored`)
      const created = await fetch(`${server.url}/dev/projects`, { method: 'POST', headers: json, body: JSON.stringify({ organization_slug: ORG, name }) })
      const project = (await created.json()) as { ref: string }
      const linked = await fetch(`${server.url}/platform/integrations/github/connections`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ installation_id: repo.installation_id, project_ref: project.ref, repository_id: repo.id }),
      })
      if (linked.status !== 201) throw new Error(`linking ${name}: ${linked.status} ${await linked.text()}`)
      return project.ref
    }

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
    const small = await linkedProject('bench-three', {
      [`supabase/migrations/${stamp(0)}_create_items.sql`]: 'create table public.items (id bigint primary key, name text not null, qty int not null);',
      [`supabase/migrations/${stamp(1)}_items_index.sql`]: 'create index items_name_idx on public.items (name);',
      [`supabase/migrations/${stamp(2)}_items_rls.sql`]: 'alter table public.items enable row level security;\ncreate policy "items are readable" on public.items for select using (true);',
      'supabase/seed.sql': `insert into public.items (id, name, qty) values\n${seedRows};\n`,
    })
    const large = await linkedProject(
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
