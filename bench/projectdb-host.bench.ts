/**
 * What hosting a project's PGlite in a process of its own under Node's permission model costs against the worker
 * thread it used to run in. Run: npx tsx bench/projectdb-host.bench.ts
 * One project folder (made from the template in a fresh temporary folder), opened BENCH_RUNS times (5) each way,
 * alternating: the time from start to ready (the folder opened, its session checked) and of the first `select 1`,
 * medians. Both run the same worker.mjs; the worker thread's figures are the old way's. The process runs once per
 * PROJECT_DB_WASM_TIER ('optimizing', the default, and 'baseline'), with the CPU its start and first query cost
 * (user + system, read from /proc before it is stopped).
 */
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { WasmTier } from '../src/server/config'
import { createEngineDatabases } from '../src/server/projectdb/index'
import { projectProcessArgs } from '../src/server/projectdb/pglite'
import { PGLITE_LOCKDOWN_SQL } from '../src/server/projectdb/template'
import { median } from './support'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const WORKER = fileURLToPath(new URL('../src/server/projectdb/worker.mjs', import.meta.url))

type Reply = { type?: string; id?: number; error?: { message: string } }
interface Channel {
  send(msg: unknown): void
  on(listener: (msg: Reply) => void): void
  stop(): Promise<unknown>
}

function timed(channel: Channel): Promise<[number, number]> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    let ready = 0
    channel.on((msg) => {
      if (msg.type === 'failed') reject(new Error(msg.error?.message))
      else if (msg.type === 'ready') {
        ready = performance.now() - started
        channel.send({ id: 1, op: 'query', sql: 'select 1 as one' })
      } else if (msg.id === 1) {
        const query = performance.now() - started - ready
        void channel.stop().then(() => resolve([ready, query]))
      }
    })
  })
}

function inThread(dir: string): Promise<[number, number]> {
  const worker = new Worker(WORKER, { workerData: { dir, mode: 'serve', lockdown: PGLITE_LOCKDOWN_SQL } })
  return timed({ send: (m) => worker.postMessage(m), on: (l) => worker.on('message', l), stop: () => worker.terminate() })
}

/** A process's CPU so far (user + system), in ms. */
function cpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

function inProcess(dir: string, tier: WasmTier, cpu: number[]): Promise<[number, number]> {
  const child = fork(WORKER, [JSON.stringify({ dir, mode: 'serve', lockdown: PGLITE_LOCKDOWN_SQL })], {
    execArgv: projectProcessArgs(dir, tier),
    env: {},
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return timed({
    send: (m) => child.send(m as object),
    on: (l) => child.on('message', l),
    stop: () => {
      cpu.push(cpuMs(child.pid!))
      return new Promise((r) => (child.once('exit', r), child.kill('SIGKILL')))
    },
  })
}

const work = await mkdtemp(path.join(os.tmpdir(), 'kp-bench-host-'))
try {
  const root = path.join(work, 'projects')
  const dbs = createEngineDatabases(
    { dataDir: work, databaseUrl: undefined, projectDb: { maxOpen: 1, idleMs: 60_000, queryTimeoutMs: 60_000, slotWaitMs: 60_000, minResidencyMs: 0, templateCacheDir: os.tmpdir(), wasmTier: 'optimizing' } },
    { root, templateCacheDir: os.tmpdir() },
  )
  await dbs.create('bench')
  await dbs.closeAll()
  const dir = path.join(root, 'bench')
  const thread: [number, number][] = []
  const proc: [number, number][] = []
  const baseline: [number, number][] = []
  const cpu = { optimizing: [] as number[], baseline: [] as number[] }
  for (let i = 0; i < RUNS; i++) {
    thread.push(await inThread(dir))
    proc.push(await inProcess(dir, 'optimizing', cpu.optimizing))
    baseline.push(await inProcess(dir, 'baseline', cpu.baseline))
  }
  const ms = (xs: number[]) => `${Math.round(median(xs))} ms`
  console.log(`project database open (start → ready), median of ${RUNS}: worker thread ${ms(thread.map((t) => t[0]))}, ` +
    `process under the permission model ${ms(proc.map((t) => t[0]))}, the same with PROJECT_DB_WASM_TIER=baseline ${ms(baseline.map((t) => t[0]))}`)
  console.log(`first select 1 after ready, median: worker thread ${ms(thread.map((t) => t[1]))}, process ${ms(proc.map((t) => t[1]))}, ` +
    `baseline ${ms(baseline.map((t) => t[1]))}`)
  console.log(`CPU of a process's start and first query, median: optimizing ${ms(cpu.optimizing)}, baseline ${ms(cpu.baseline)} ` +
    `(ratio ${(median(cpu.baseline) / median(cpu.optimizing)).toFixed(2)})`)
  console.log(`load average while measured: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`)
} finally {
  await rm(work, { recursive: true, force: true })
}
