/**
 * What preloading pg_stat_statements costs a project database on PGlite (the project processes preload it:
 * src/server/projectdb/worker.mjs). Two folders from one initdb, opened in turn in processes of their own, one plain
 * and one with the extension (its postgresql.conf handed back, as the worker does), ROUNDS times each:
 *  - open: PGlite.create until `select 1` answers → median of each, and their ratio;
 *  - 500 one-row statements on the open database (what the extension adds to each statement) → median, ratio;
 *  - the process's RSS after them → median, difference.
 * `npx tsx bench/pg-stat-statements.bench.ts` (quote the machine's load: the figures move with it).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { repoRoot } from '../src/server/config'

const ROUNDS = 7
const pglite = pathToFileURL(path.join(repoRoot, 'node_modules/@electric-sql/pglite/dist/index.js')).href
const contrib = pathToFileURL(path.join(repoRoot, 'node_modules/@electric-sql/pglite/dist/contrib/pg_stat_statements.js')).href

const script = (dir: string, preload: boolean) => `
import fs from 'node:fs'
import { PGlite } from '${pglite}'
import { pg_stat_statements } from '${contrib}'
const dir = ${JSON.stringify(dir)}
const options = ${preload} ? { extensions: { pg_stat_statements }, postgresqlconf: fs.readFileSync(dir + '/postgresql.conf', 'utf8') } : {}
let t = performance.now()
const db = await PGlite.create(dir, options)
await db.query('select 1')
const open = performance.now() - t
t = performance.now()
for (let i = 0; i < 500; i++) await db.query('select $1::int + 1 as n', [i])
const statements = performance.now() - t
console.log(JSON.stringify({ open, statements, rss: process.memoryUsage().rss }))
await db.close()
`
const run = (code: string) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }).trim().split('\n').at(-1)!)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const work = mkdtempSync(path.join(os.tmpdir(), 'kp-pgss-bench-'))
try {
  const plain = path.join(work, 'plain')
  run(`import { PGlite } from '${pglite}'; const db = await PGlite.create(${JSON.stringify(plain)}); await db.close(); console.log('{}')`)
  const preloaded = path.join(work, 'preloaded')
  cpSync(plain, preloaded, { recursive: true })
  const figures = { plain: [] as { open: number; statements: number; rss: number }[], preloaded: [] as { open: number; statements: number; rss: number }[] }
  for (let i = 0; i < ROUNDS; i++) {
    figures.plain.push(run(script(plain, false)))
    figures.preloaded.push(run(script(preloaded, true)))
  }
  const of = (which: keyof typeof figures, key: 'open' | 'statements' | 'rss') => median(figures[which].map((f) => f[key]))
  console.log(`open: plain ${of('plain', 'open').toFixed(0)} ms, preloaded ${of('preloaded', 'open').toFixed(0)} ms (×${(of('preloaded', 'open') / of('plain', 'open')).toFixed(2)}), medians of ${ROUNDS}`)
  console.log(`500 statements: plain ${of('plain', 'statements').toFixed(0)} ms, preloaded ${of('preloaded', 'statements').toFixed(0)} ms (×${(of('preloaded', 'statements') / of('plain', 'statements')).toFixed(2)})`)
  console.log(`RSS: plain ${(of('plain', 'rss') / 2 ** 20).toFixed(0)} MB, preloaded ${(of('preloaded', 'rss') / 2 ** 20).toFixed(0)} MB (${((of('preloaded', 'rss') - of('plain', 'rss')) / 2 ** 20).toFixed(0)} MB)`)
  console.log(`load: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
