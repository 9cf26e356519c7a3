/**
 * The Git hosting's reads, on a real server process: a repository with 50 migrations is pushed with git (the demo
 * Owner's development access token as the password), linked to a project, then the median time of
 *  - a branch check (GET /platform/integrations/github/branches/{connection}/{branch}), for a branch that exists
 *    and one that does not;
 *  - reading the 50-file migrations directory through the contents API: the directory listing alone, and the listing
 *    plus each file (one after the other, as a client building the initial migration script does; and 8 at a time).
 * `npx tsx bench/git.bench.ts` (or `npm run bench git`).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConnectionList, ContentsResponse, FileContent, RepositoryList } from '../src/contracts/github'
import { loadLine, median, ownerCookie, removeDir, startServer, waitForIdle } from './support'

const FILES = 50
const RUNS = 25

async function main() {
  const server = await startServer()
  const work = mkdtempSync(join(tmpdir(), 'git-bench-'))
  try {
    await waitForIdle(server.process.pid!, 60_000)
    const cookie = await ownerCookie(server.url)
    const headers = { cookie }
    const token = readFileSync(join(server.dataDir, 'dev-access-token'), 'utf8').trim()

    // A repository of 50 migrations, pushed with git.
    const env = { PATH: process.env.PATH, HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' }
    const dir = join(work, 'repo')
    mkdirSync(join(dir, 'supabase/migrations'), { recursive: true })
    for (let i = 0; i < FILES; i++) {
      const stamp = `202501${String(1 + Math.floor(i / 24)).padStart(2, '0')}${String(i % 24).padStart(2, '0')}0000`
      writeFileSync(join(dir, `supabase/migrations/${stamp}_table_${i}.sql`), `create table t${i} (id bigint primary key, name text);\n`.repeat(20))
    }
    writeFileSync(join(dir, 'supabase/seed.sql'), 'insert into t0 values (1, \'x\');\n')
    const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' })
    run(['init', '-q', '-b', 'main'])
    run(['add', '-A'])
    run(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'Fifty migrations'])
    const remote = `${server.url.replace('http://', 'http://x:' + token + '@')}/git/demo-free/bench-app.git`
    const pushStarted = performance.now()
    run(['push', '-q', remote, 'main'])
    console.log(`git push of ${FILES} migrations (new repository): ${(performance.now() - pushStarted).toFixed(0)} ms`)

    const repos = RepositoryList.parse(await (await fetch(`${server.url}/platform/integrations/github/repositories`, { headers })).json())
    const repo = repos.repositories.find((r) => r.name === 'demo-free/bench-app')!
    const projects = (await (await fetch(`${server.url}/platform/projects`, { headers })).json()) as { ref: string; name: string }[]
    const project = projects.find((p) => p.name === 'Recipe Box')!
    await fetch(`${server.url}/platform/integrations/github/connections`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ installation_id: repo.installation_id, project_ref: project.ref, repository_id: repo.id }),
    })
    const orgs = (await (await fetch(`${server.url}/platform/organizations`, { headers })).json()) as { id: number; slug: string }[]
    const org = orgs.find((o) => o.slug === 'demo-free')!
    const connections = ConnectionList.parse(await (await fetch(`${server.url}/platform/integrations/github/connections?organization_id=${org.id}`, { headers })).json())
    const connection = connections.connections.find((c) => c.repository.id === repo.id)!

    const time = async (fn: () => Promise<void>) => {
      await fn() // warm
      const xs: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await fn()
        xs.push(performance.now() - started)
      }
      return xs
    }
    const get = async (path: string, expected: number) => {
      const res = await fetch(`${server.url}${path}`, { headers })
      if (res.status !== expected) throw new Error(`${path}: ${res.status}`)
      return res.json() as Promise<unknown>
    }
    console.log(loadLine())
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}, ${xs.length} runs)`

    console.log(`branch check, branch exists: ${fmt(await time(async () => void (await get(`/platform/integrations/github/branches/${connection.id}/main`, 200))))}`)
    console.log(`branch check, no such branch: ${fmt(await time(async () => void (await get(`/platform/integrations/github/branches/${connection.id}/nope`, 404))))}`)

    const listing = '/platform/git-api/repos/demo-free/bench-app/contents/supabase/migrations?ref=main'
    console.log(`contents: the ${FILES}-file migrations directory: ${fmt(await time(async () => void (await get(listing, 200))))}`)
    const readAll = async (concurrency: number) => {
      const entries = ContentsResponse.parse(await get(listing, 200))
      if (!Array.isArray(entries) || entries.length !== FILES) throw new Error('not the 50 files')
      let next = 0
      const worker = async () => {
        while (next < entries.length) {
          const entry = entries[next++]
          FileContent.parse(await get(`/platform/git-api/repos/demo-free/bench-app/contents/${entry.path}?ref=main`, 200))
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
    }
    console.log(`contents: the directory and each of its ${FILES} files, one at a time: ${fmt(await time(() => readAll(1)))}`)
    console.log(`contents: the directory and its ${FILES} files, 8 at a time: ${fmt(await time(() => readAll(8)))}`)
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
