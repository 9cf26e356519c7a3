/**
 * What opening a project database costs on PostgreSQL now that each project logs in as a role of its own, which the
 * platform sets back up (rights, settings) before each login:
 *  - open: the project's session closed, then `select 1` (set the role up, log in with SCRAM, run) → median, p95;
 *  - open after the tenant changed its own password: the login fails once, the password is set again, the login
 *    retried → median;
 *  - on an open session: `select 1` → median.
 * On a throw-away PostgreSQL 15 cluster (Debian's binaries). `npx tsx bench/projectdb-open.bench.ts`
 */
import pg from 'pg'
import { DatabaseManager } from '../src/server/projectdb/manager'
import { postgresBackend } from '../src/server/projectdb/postgres'
import { hasPostgres, startPgCluster } from '../tests/server/pgCluster'

const ROUNDS = 40
const ref = 'openbenchproject'

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]
const p95 = (xs: number[]) => sorted(xs)[Math.floor(xs.length * 0.95)]
const ms = (x: number) => `${x.toFixed(1)} ms`

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

if (!hasPostgres()) {
  console.log('projectdb-open: no PostgreSQL binaries (apt-get install -y postgresql-15); nothing measured')
  process.exit(0)
}
const cluster = await startPgCluster()
try {
  const admin = new pg.Client({ connectionString: cluster.url })
  await admin.connect()
  await admin.query('create database open_bench')
  await admin.end()
  const dbs = new DatabaseManager(postgresBackend(cluster.url.replace(/\/postgres$/, '/open_bench')), {
    maxOpen: 4,
    idleMs: 600_000,
    queryTimeoutMs: 15_000,
  })
  const select1 = () => dbs.transaction(ref, {}, (tx) => tx.query('select 1'))
  try {
    await dbs.create(ref)
    await select1()
    const open: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      await dbs.close(ref)
      open.push(await timed(select1))
    }
    const relock: number[] = []
    for (let i = 0; i < ROUNDS / 4; i++) {
      await dbs.transaction(ref, {}, (tx) => tx.query(`alter role current_user password 'the tenant''s own'`))
      await dbs.close(ref)
      relock.push(await timed(select1))
    }
    const warm: number[] = []
    for (let i = 0; i < ROUNDS * 5; i++) warm.push(await timed(select1))
    console.log(`open + select 1: median ${ms(median(open))}, p95 ${ms(p95(open))} (${ROUNDS} opens)`)
    console.log(`open after the tenant changed its password: median ${ms(median(relock))} (${ROUNDS / 4} opens)`)
    console.log(`select 1 on an open session: median ${ms(median(warm))}`)
  } finally {
    await dbs.closeAll()
  }
} finally {
  cluster.stop()
}
