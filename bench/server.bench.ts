/**
 * Local platform start-up and memory. Run: npx tsx bench/server.bench.ts
 *  - time from process spawn (tsx src/server/main.ts, PORT=0, temp DATA_DIR) to the first 200 from
 *    /platform/health, on a fresh data folder (new temp dir each run) and on an existing one;
 *  - peak RSS (VmHWM) of the server process with the demo data, after signing in and listing projects.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const tempDirs: string[] = []
const children = new Set<ChildProcess>()

interface Started {
  child: ChildProcess
  url: string
  ms: number
}

/** One process: node with tsx's loader (the same as `tsx src/server/main.ts`, without a wrapper process). */
async function start(dataDir: string): Promise<Started> {
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DEV_CONTROLS: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${err.slice(-500)}`)))
  })
  for (;;) {
    const res = await fetch(`${url}/platform/health`).catch(() => undefined)
    if (res?.status === 200) {
      await res.arrayBuffer()
      break
    }
    await new Promise((r) => setTimeout(r, 5))
  }
  return { child, url, ms: performance.now() - t0 }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return void children.delete(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
  children.delete(child)
}

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kp-bench-'))
  tempDirs.push(dir)
  return path.join(dir, 'data')
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

async function main(): Promise<void> {
  const fresh: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const s = await start(tempDataDir())
    fresh.push(s.ms)
    await stop(s.child)
  }
  console.log(`server start (fresh data dir): median ${Math.round(median(fresh))} ms over ${RUNS} runs`)

  const existing = tempDataDir()
  await stop((await start(existing)).child) // create and seed it once
  const again: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const s = await start(existing)
    again.push(s.ms)
    await stop(s.child)
  }
  console.log(`server start (existing data dir): median ${Math.round(median(again))} ms over ${RUNS} runs`)

  const s = await start(existing)
  try {
    const signIn = await fetch(`${s.url}/platform/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
    })
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`)
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]
    const list = await fetch(`${s.url}/platform/projects`, { headers: { cookie } })
    const projects = (await list.json()) as unknown[]
    if (list.status !== 200) throw new Error(`project list answered ${list.status}`)
    const pid = s.child.pid!
    console.log(
      `server peak RSS (existing data dir, signed in, ${projects.length} projects listed): ` +
        `${Math.round(procStatus(pid, 'VmHWM'))} MB (current ${Math.round(procStatus(pid, 'VmRSS'))} MB)`,
    )
  } finally {
    await stop(s.child)
  }
}

async function cleanup(): Promise<void> {
  await Promise.all([...children].map(stop))
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
}

process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))
main()
  .catch((err: Error) => {
    console.error('bench failed:', err.message)
    process.exitCode = 1
  })
  .finally(cleanup)
