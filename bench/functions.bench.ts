/**
 * Edge function runtime figures (the supervisor alone, no HTTP server in front, so the numbers are the runtime's own):
 *  - cold start of a hello function: the first invocation of a new version (process start, module load, first answer);
 *  - warm invocation p50/p99 over N sequential calls, beside the same handler served straight by Deno measured the same
 *    way (the latency the bridge adds);
 *  - requests/s through a warm function (CONCURRENCY calls in flight) vs the same Deno.serve handler run straight by
 *    Deno on a port (the ratio is the bridge's cost);
 *  - memory (RSS) per warm worker, from /proc;
 *  - then, through a real platform server: the project status API's p50/p99 while runaway functions (an endless loop
 *    and a memory hog, called again as soon as their limits end them) burn CPU and memory, beside a quiet reference
 *    measured the same way by the same process just before (that the limits end them is tested in
 *    tests/server/functions-runtime.test.ts; here they only need to keep running).
 * `npx tsx bench/functions.bench.ts` (N, default 500; COLD, default 5; CONCURRENCY, default 8; SECONDS, default 5;
 * STATUS_SECONDS, default 10).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { LogSink } from '../src/server/features/functions/runtime/logs'
import { demoProjectKeys, formatFigures, isHealthy, loadFigures, loadLine, removeDir, startServer, waitForIdle } from './support'
import { denoBinary, FunctionSupervisor, type FunctionBundle } from '../src/server/features/functions/runtime/supervisor'

const N = Number(process.env.N ?? 500)
const COLD = Number(process.env.COLD ?? 5)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8)
const SECONDS = Number(process.env.SECONDS ?? 5)
const STATUS_SECONDS = Number(process.env.STATUS_SECONDS ?? 10)
const HELLO = `Deno.serve(() => new Response(JSON.stringify({ message: 'Hello world!' }), { headers: { 'content-type': 'application/json' } }))`

const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-fn-bench-'))
// The supervisor alone: its log entries (with each call's CPU reading) are made and dropped, not written to a store.
const discard: LogSink = { add: () => undefined, track: (adding) => void adding }
const supervisor = new FunctionSupervisor({ bundlesDir: path.join(dir, 'bundles'), denoDir: path.join(dir, 'deno'), logs: discard })
const bundle = (id: string): FunctionBundle => ({ projectId: 0, functionId: id, version: 1, entrypoint: 'index.ts', files: [{ name: 'index.ts', content: HELLO }], env: {} })
const call = async (b: FunctionBundle) => {
  const res = await supervisor.invoke(b, { method: 'GET', pathAndQuery: '/hello', publicUrl: 'http://localhost/hello', headers: new Headers(), body: null })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`status ${res.status}`)
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]

async function throughput(fn: () => Promise<void>): Promise<number> {
  let done = 0
  const until = performance.now() + SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await fn()
        done++
      }
    }),
  )
  return done / SECONDS
}

try {
  const colds: number[] = []
  for (let i = 0; i < COLD; i++) {
    const started = performance.now()
    await call(bundle(`cold-${i}`))
    colds.push(performance.now() - started)
    await supervisor.retire(`cold-${i}`)
  }
  const warm = bundle('warm')
  await call(warm)
  const warmTimes: number[] = []
  for (let i = 0; i < N; i++) {
    const started = performance.now()
    await call(warm)
    warmTimes.push(performance.now() - started)
  }
  const viaRuntime = await throughput(() => call(warm))
  const pid = supervisor.workerList().find((w) => w.functionId === 'warm')!.pid!
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1])

  // The same handler served straight by Deno.
  const bare = path.join(dir, 'bare.ts')
  await writeFile(bare, HELLO.replace('Deno.serve(', "Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log('PORT ' + port) }, "))
  const child = spawn(denoBinary(), ['run', '--quiet', '--allow-net', bare], { stdio: ['ignore', 'pipe', 'inherit'], env: { DENO_DIR: path.join(dir, 'deno'), NO_COLOR: '1' } })
  const port = await new Promise<number>((resolve) => child.stdout.on('data', (d: Buffer) => { const m = /PORT (\d+)/.exec(d.toString()); if (m) resolve(Number(m[1])) }))
  const direct = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/hello`)
    await res.arrayBuffer()
  }
  await direct()
  const directTimes: number[] = []
  for (let i = 0; i < N; i++) {
    const started = performance.now()
    await direct()
    directTimes.push(performance.now() - started)
  }
  const straight = await throughput(direct)
  child.kill('SIGKILL')

  console.log(`cold start (first call of a new version), median of ${COLD}: ${pct(colds, 50).toFixed(0)} ms (min ${Math.min(...colds).toFixed(0)}, max ${Math.max(...colds).toFixed(0)})`)
  console.log(`warm invocation over ${N} calls: p50 ${pct(warmTimes, 50).toFixed(2)} ms, p99 ${pct(warmTimes, 99).toFixed(2)} ms`)
  console.log(
    `Deno.serve straight over ${N} calls: p50 ${pct(directTimes, 50).toFixed(2)} ms, p99 ${pct(directTimes, 99).toFixed(2)} ms (runtime/straight p50 ${(pct(warmTimes, 50) / pct(directTimes, 50)).toFixed(2)}x)`,
  )
  console.log(`requests/s (${CONCURRENCY} in flight, ${SECONDS} s): through the runtime ${viaRuntime.toFixed(0)}, Deno.serve straight ${straight.toFixed(0)}, ratio ${(viaRuntime / straight).toFixed(2)}`)
  console.log(`memory per warm worker (RSS): ${(rssKb / 1024).toFixed(1)} MB`)
  console.log(loadLine())
} finally {
  await supervisor.close()
  await rm(dir, { recursive: true, force: true })
}

// The status API while functions run away, against the same API quiet.
const server = await startServer()
try {
  // On a busy machine the start may take longer than startServer waits.
  for (let tries = 0; !(await isHealthy(server.url)); tries++) {
    if (tries > 240 || server.process.exitCode !== null) throw new Error('the platform server did not start')
    await new Promise((r) => setTimeout(r, 500))
  }
  await waitForIdle(server.process.pid!)
  const { ref, anon, cookie } = await demoProjectKeys(server.url)
  const runaways = {
    spinner: 'Deno.serve(() => { while (true) {} })',
    hog: 'const keep = []\nDeno.serve(() => { while (true) keep.push(new Array(1e5).fill(Math.random())) })',
  }
  for (const [slug, body] of Object.entries(runaways)) {
    const res = await fetch(`${server.url}/v1/projects/${ref}/functions`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ slug, name: slug, body, verify_jwt: false }),
    })
    if (res.status !== 201) throw new Error(`creating ${slug} answered ${res.status}: ${await res.text()}`)
  }
  const status = () => loadFigures({ url: `${server.url}/platform/projects/${ref}/status`, headers: { cookie }, connections: 4, duration: STATUS_SECONDS })
  const quiet = await status()
  let running = true
  const ended: Record<string, number[]> = { spinner: [], hog: [] }
  const burn = Object.keys(runaways).map(async (slug) => {
    while (running) {
      const res = await fetch(`${server.url}/p/${ref}/functions/v1/${slug}`, { headers: { apikey: anon } })
      await res.arrayBuffer()
      ended[slug].push(res.status)
    }
  })
  const busy = await status()
  running = false
  await Promise.all(burn)
  const summary = (xs: number[]) => `${xs.length} calls, ${xs.filter((x) => x === 546).length} ended with 546`
  console.log(`status API, quiet: ${formatFigures(quiet)}`)
  console.log(`status API, with an endless loop and a memory hog running: ${formatFigures(busy)} (p99 ${(busy.p99 / Math.max(1, quiet.p99)).toFixed(1)}x quiet)`)
  console.log(`runaways meanwhile: endless loop ${summary(ended.spinner)}; memory hog ${summary(ended.hog)}`)
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
