/**
 * The cost of running a person's SQL one statement at a time behind the guard (database/run.ts), on one PGlite
 * project database (DATABASE_URL set: on that PostgreSQL instead). Run: npx tsx bench/sql-script.bench.ts
 * Prints the median time of BENCH_RUNS (20) runs of:
 *  - runProjectQuery on a one-statement read, and on a script of 100 statements (read-only and writable);
 *  - the same 100-statement script sent whole in one message (`tx.exec`, what ran before: no guard, no per-statement
 *    round trip), as the baseline.
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/server/config'
import { runProjectQuery } from '../src/server/features/database/run'
import { createEngineDatabases } from '../src/server/projectdb'
import { loadLine, median, removeDir } from './support'

const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const STATEMENTS = 100

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kp-sql-bench-'))
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir })
  const dbs = createEngineDatabases(config)
  const ref = `sqlbench${Date.now().toString(36)}`
  try {
    await dbs.create(ref, { schemaSql: 'create table t (id int primary key, note text); insert into t select i, md5(i::text) from generate_series(1, 1000) i;' })
    const script = Array.from({ length: STATEMENTS }, (_, i) => `select count(*) as n from t where id > ${i}`).join(';\n')
    const timed = async (label: string, run: () => Promise<unknown>) => {
      await run() // warm: the database opens, plans are cached
      const times: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await run()
        times.push(performance.now() - started)
      }
      console.log(`${label.padEnd(58)} median ${median(times).toFixed(2)} ms`)
    }
    console.log(`SQL scripts on ${dbs.kind}, ${RUNS} runs each ${loadLine()}`)
    await timed('one statement, read-only (runProjectQuery)', () => runProjectQuery(dbs, ref, 'select count(*) as n from t', { readOnly: true }))
    await timed('one statement, writable (runProjectQuery)', () => runProjectQuery(dbs, ref, 'select count(*) as n from t', { readOnly: false }))
    await timed(`${STATEMENTS} statements, read-only (runProjectQuery, guarded)`, () => runProjectQuery(dbs, ref, script, { readOnly: true }))
    await timed(`${STATEMENTS} statements, writable (runProjectQuery, guarded)`, () => runProjectQuery(dbs, ref, script, { readOnly: false }))
    await timed(`${STATEMENTS} statements in one message (tx.exec, baseline)`, () => dbs.transaction(ref, { readOnly: true }, (tx) => tx.exec(script)))
  } finally {
    await dbs.drop(ref).catch(() => {})
    await dbs.closeAll()
    removeDir(dataDir)
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
