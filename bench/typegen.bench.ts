/**
 * The database page's heavy reads on a large schema: a project database with 1,000 tables (6 columns each, a foreign
 * key, comments, an enum column) and 200 functions, then the median time of
 *  - its TypeScript types (@supabase/postgrest-typegen, as GET /v1/projects/{ref}/types/typescript makes them),
 *  - its tables list (GET /platform/projects/{ref}/database/tables: catalog queries and bounded row counts).
 * The database is the platform's own kind: PGlite in a worker thread, or a database on DATABASE_URL's server when
 * set. `npx tsx bench/typegen.bench.ts` (or `npm run bench typegen`).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/server/config'
import { listTables } from '../src/server/features/database/tables'
import { generateTypes } from '../src/server/features/database/typescript'
import { createEngineDatabases } from '../src/server/projectdb'
import { median, removeDir } from './support'

const TABLES = 1_000
const FUNCTIONS = 200
const RUNS = 5
const REF = 'typegenbench'

function schemaSql(): string {
  const parts = [`create type level as enum ('low', 'mid', 'high');`]
  for (let i = 0; i < TABLES; i++) {
    const parent = i > 0 ? `, parent_id bigint references t${i - 1} (id)` : ''
    parts.push(
      `create table t${i} (id bigint generated always as identity primary key, name text not null, ` +
        `price numeric(10,2) default 0, meta jsonb, level level, created_at timestamptz not null default now()${parent});`,
      `comment on table t${i} is 'Table ${i}'; comment on column t${i}.name is 'The name';`,
    )
  }
  for (let i = 0; i < FUNCTIONS; i++) {
    const volatility = i % 2 === 0 ? 'stable' : 'volatile'
    parts.push(
      `create function f${i}(a int, b text default 'x') returns setof t${i % TABLES} language sql ${volatility} ` +
        `as $$ select * from t${i % TABLES} where id = a $$;`,
    )
  }
  parts.push(`insert into t0 (name) select 'n' || g from generate_series(1, 5000) g;`)
  return parts.join('\n')
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await fn()
  return { ms: performance.now() - started, value }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'typegen-bench-'))
  const base = loadConfig({ DATA_DIR: dataDir, ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) })
  const dbs = createEngineDatabases({ ...base, projectDb: { ...base.projectDb, queryTimeoutMs: 600_000 } })
  try {
    await dbs.drop(REF).catch(() => {})
    const created = await timed(() => dbs.create(REF, { schemaSql: schemaSql() }))
    console.log(`engine ${dbs.kind}: database with ${TABLES} tables and ${FUNCTIONS} functions made in ${(created.ms / 1000).toFixed(1)} s`)

    const typeTimes: number[] = []
    let size = 0
    for (let i = 0; i < RUNS; i++) {
      const run = await timed(() => dbs.transaction(REF, { readOnly: true }, (tx) => generateTypes(tx, ['public'])))
      typeTimes.push(run.ms)
      size = run.value.length
    }
    const tableTimes: number[] = []
    let listed = 0
    for (let i = 0; i < RUNS; i++) {
      const run = await timed(() => dbs.transaction(REF, { readOnly: true }, listTables))
      tableTimes.push(run.ms)
      listed = run.value.length
    }
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`
    console.log(`types (${(size / 1024).toFixed(0)} KB of TypeScript): ${fmt(typeTimes)}`)
    console.log(`tables list (${listed} relations): ${fmt(tableTimes)}`)
  } finally {
    await dbs.drop(REF).catch(() => {})
    await dbs.closeAll()
    removeDir(dataDir)
  }
}

await main()
