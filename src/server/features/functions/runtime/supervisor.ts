/**
 * Runs each deployed function version in a Deno process of its own and hands it requests.
 *  - Permissions are narrowed to what a function may do: network yes; env only the names it is given (the project's
 *    secrets and the SUPABASE_* values); reading only its own bundle folder and its npm packages' files (the module
 *    cache's npm folder, public packages only); no writes, subprocesses, FFI or system
 *    information (anything not allowed is denied: `--no-prompt`). The process environment holds those names and the
 *    runtime's own settings, which are denied by name: any other name reads as unset, as on the platform (npm
 *    packages probe PG*, NODE_* … and must not fail on a name they may not read).
 *  - Bridge: the process serves the function's handler on a loopback port it picks (bootstrap.ts) and answers only
 *    requests carrying its one-time token; bodies stream both ways.
 *  - A worker stays warm for `idleMs` after its last request and is reused; a new version (or new secrets) gets a new
 *    worker and the old one is retired.
 *  - Limits: wall clock per request, CPU time while busy (read from /proc), heap (V8's max-old-space-size), request
 *    and response bytes, console output per request.
 *  - Each invocation's log entry carries the worker's CPU time during it (from /proc, read once the answer has ended)
 *    and its memory when it answered (the bootstrap's reading, on a header the caller never sees). Past one, the worker is killed (its requests end with 546
 *    WORKER_LIMIT) and the next request starts a fresh one.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { BOOTSTRAP_FILE, BOOTSTRAP_SOURCE, MEMORY_HEADER } from './bootstrap'
import type { FunctionLogEntry, LogSink } from './logs'

export interface FunctionLimits {
  /** Wall clock of one request, from its arrival to the end of its answer's body, on the free plan (platform: 150 s). */
  wallClockMs: number
  /** The same on a paid plan (platform: 400 s). */
  paidWallClockMs: number
  /** CPU time a worker may burn while it has requests in flight (platform: 2 s). */
  cpuMs: number
  /** The V8 heap of a worker (platform: 256 MB). */
  memoryMb: number
  maxRequestBytes: number
  maxResponseBytes: number
  /** Console output one request may cause. */
  maxOutputBytes: number
  /** How long a worker stays warm after its last request. */
  idleMs: number
  /** How long a worker may take to start (the first start of a function with npm: imports downloads them). */
  bootMs: number
}

export const DEFAULT_LIMITS: FunctionLimits = {
  wallClockMs: 150_000,
  paidWallClockMs: 400_000,
  cpuMs: 2_000,
  memoryMb: 256,
  maxRequestBytes: 20 * 1024 * 1024,
  maxResponseBytes: 20 * 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  idleMs: 60_000,
  bootMs: 60_000,
}

export interface FunctionFile {
  name: string
  content: string
}

/** One runnable version of a function with the environment it runs with. */
export interface FunctionBundle {
  /** The project the function belongs to: deleting the project ends its workers. */
  projectId: number
  functionId: string
  version: number
  entrypoint: string
  files: FunctionFile[]
  env: Record<string, string>
  /** Its wall clock limit (by its organization's plan); the supervisor's free-plan limit when absent. */
  wallClockMs?: number
}

export interface InvokeRequest {
  method: string
  /** Path and query the worker sees (`/{slug}/…?…`). */
  pathAndQuery: string
  /** The URL the function sees as `req.url`. */
  publicUrl: string
  headers: Headers
  body: ReadableStream<Uint8Array> | null
}

export type FunctionFailure = 'BOOT_ERROR' | 'WORKER_LIMIT' | 'WORKER_ERROR' | 'REQUEST_TOO_LARGE'

/** The platform's answer for each way an invocation fails. */
export function failureResponse(code: FunctionFailure, detail?: string): Response {
  const [status, message] = {
    BOOT_ERROR: [503, 'Function failed to start (please check logs)'],
    WORKER_LIMIT: [546, 'Function failed due to not having enough compute resources (please check logs)'],
    WORKER_ERROR: [500, 'Function exited due to an error (please check logs)'],
    REQUEST_TOO_LARGE: [413, 'Request body is larger than a function accepts'],
  }[code] as [number, string]
  // A body refused unread leaves the connection unusable for a next request: the client is told not to reuse it.
  const close: Record<string, string> = code === 'REQUEST_TOO_LARGE' ? { connection: 'close' } : {}
  return new Response(JSON.stringify({ code, message, ...(detail ? { detail } : {}) }), {
    status,
    headers: { 'content-type': 'application/json', ...close },
  })
}

/** The pinned Deno binary (the `deno` package's platform build), else `deno` on PATH. */
export function denoBinary(): string {
  try {
    const require = createRequire(import.meta.url)
    const bin = path.join(path.dirname(require.resolve('@deno/linux-x64-glibc/package.json')), 'deno')
    if (existsSync(bin)) return bin
  } catch {
    // not installed for this platform
  }
  return 'deno'
}

/**
 * How the machine reaches the registries (its certificate authorities, proxies, npm registry), passed on so Deno can
 * fetch a function's npm: imports where the platform itself can: the function cannot read them (denied by name). Deno trusts the system's authorities besides its own only when told.
 */
const FETCH_SETTINGS = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'DENO_CERT', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NPM_CONFIG_REGISTRY']
function fetchSettings(): Record<string, string> {
  const out: Record<string, string> = { DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? 'mozilla,system' }
  for (const name of FETCH_SETTINGS) {
    const value = process.env[name] ?? process.env[name.toLowerCase()]
    if (value !== undefined) out[name] = value
  }
  return out
}

/** What the runtime measured of one invocation (logs.ts). */
type Measured = Pick<FunctionLogEntry, 'cpu_time_ms' | 'memory_mb' | 'heap_memory_mb' | 'external_memory_mb'>

const MB = 1024 * 1024

/** The worker's memory when it answered, as the bootstrap reports it on the answer: `rss,heapUsed,external` in bytes. */
function memoryOf(header: string | null): Measured {
  const [rss, heap, external] = (header ?? '').split(',').map(Number)
  if (![rss, heap, external].every((n) => Number.isFinite(n) && n >= 0)) return {}
  const mb = (n: number) => Math.round((n / MB) * 100) / 100
  return { memory_mb: mb(rss), heap_memory_mb: mb(heap), external_memory_mb: mb(external) }
}

/** Answers up to this size with a Content-Length are relayed whole. */
const SMALL_ANSWER = 64 * 1024

const HOP_BY_HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-connection']

class Worker {
  readonly token = randomBytes(24).toString('hex')
  readonly proc: ChildProcess
  port = 0
  inflight = 0
  dead = false
  /** Why the supervisor ended it (a limit), or undefined while alive / when it died by itself. */
  endedFor: string | undefined
  ready: Promise<void>
  idleTimer: NodeJS.Timeout | undefined
  cpuAtBusy = 0
  lastCpu = 0
  outputAtBusy = 0
  output = 0
  stderrTail = ''
  exited: Promise<void>
  /** Settles once the process has exited and its bundle folder is deleted. */
  removed: Promise<void> = Promise.resolve()

  constructor(
    readonly key: string,
    readonly projectId: number,
    readonly functionId: string,
    args: string[],
    entry: string,
    env: Record<string, string>,
    private readonly logs: LogSink,
    bootMs: number,
    deno: string,
  ) {
    const marker = `__kp_ready_${randomBytes(8).toString('hex')}:`
    this.proc = spawn(deno, [...args, this.token, entry, marker], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.exited = new Promise((resolve) => this.proc.once('exit', () => resolve()))
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill(`did not start within ${bootMs} ms`)
        reject(new Error(`The function did not start within ${bootMs} ms`))
      }, bootMs)
      this.proc.once('exit', (code, signal) => {
        clearTimeout(timer)
        this.dead = true
        reject(new Error(this.stderrTail.trim() || `The function's process exited (${signal ?? code}) before serving`))
      })
      this.proc.once('error', (err) => {
        clearTimeout(timer)
        this.dead = true
        reject(err)
      })
      this.lines(this.proc.stdout!, 'log', (line) => {
        if (this.port === 0 && line.startsWith(marker)) {
          this.port = Number(line.slice(marker.length))
          clearTimeout(timer)
          resolve()
          return true
        }
        return false
      })
      this.lines(this.proc.stderr!, 'error')
    })
    this.ready.catch(() => {})
  }

  private lines(stream: NodeJS.ReadableStream, level: 'log' | 'error', intercept?: (line: string) => boolean) {
    let pending = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      this.output += chunk.length
      if (level === 'error') this.stderrTail = (this.stderrTail + chunk).slice(-2_000)
      pending += chunk
      // A write that never ends a line is cut into log entries rather than held.
      const parts = pending.split('\n')
      pending = parts.pop() ?? ''
      if (pending.length > 4_096) {
        parts.push(pending)
        pending = ''
      }
      for (const line of parts) {
        if (intercept?.(line)) continue
        if (line.trim() !== '') this.logs.add(this.functionId, { kind: 'console', level, event_message: line })
      }
    })
  }

  /** CPU seconds (user + system) the process has used, from /proc; 0 where /proc is not there. */
  async cpuMs(): Promise<number> {
    if (this.proc.pid === undefined) return 0
    try {
      const stat = await readFile(`/proc/${this.proc.pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the command.
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
    } catch {
      return 0
    }
  }

  kill(reason: string) {
    if (this.dead) return
    this.dead = true
    this.endedFor = reason
    this.proc.kill('SIGKILL')
  }
}

export interface SupervisorOptions {
  /** Where each version's files are written (one folder per version). */
  bundlesDir: string
  /** Deno's module cache (DENO_DIR): npm:/jsr: imports are fetched once, then served from here. */
  denoDir: string
  limits?: Partial<FunctionLimits>
  logs: LogSink
  deno?: string
}

export class FunctionSupervisor {
  readonly limits: FunctionLimits
  private readonly workers = new Map<string, Worker>()
  /** The current worker key of each function: a new key retires the old worker. */
  private readonly current = new Map<string, string>()
  private readonly deno: string
  private readonly monitor: NodeJS.Timeout
  private closed = false

  constructor(private readonly opts: SupervisorOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits }
    this.deno = opts.deno ?? denoBinary()
    this.monitor = setInterval(() => void this.watch(), 100)
    this.monitor.unref()
  }

  /** Live workers: their function, pid and requests in flight (for the status figures and tests). */
  workerList(): { functionId: string; pid: number | undefined; inflight: number }[] {
    return [...this.workers.values()].filter((w) => !w.dead).map((w) => ({ functionId: w.functionId, pid: w.proc.pid, inflight: w.inflight }))
  }

  private async watch() {
    for (const worker of this.workers.values()) {
      if (worker.dead) continue
      if (worker.inflight === 0) {
        worker.lastCpu = await worker.cpuMs()
        continue
      }
      if (worker.output - worker.outputAtBusy > this.limits.maxOutputBytes) {
        this.end(worker, `wrote more than ${this.limits.maxOutputBytes} bytes of console output`)
        continue
      }
      const cpu = await worker.cpuMs()
      if (cpu > 0) worker.lastCpu = cpu
      if (cpu - worker.cpuAtBusy > this.limits.cpuMs) this.end(worker, `used more than ${this.limits.cpuMs} ms of CPU time`)
    }
  }

  private end(worker: Worker, reason: string) {
    if (worker.dead) return
    this.opts.logs.add(worker.functionId, { kind: 'shutdown', level: 'error', event_message: `Worker ended: it ${reason}` })
    worker.kill(reason)
    this.forget(worker)
  }

  private forget(worker: Worker) {
    if (this.workers.get(worker.key) === worker) this.workers.delete(worker.key)
    clearTimeout(worker.idleTimer)
  }

  private keyOf(bundle: FunctionBundle): string {
    const hash = createHash('sha256')
    hash.update(JSON.stringify([bundle.entrypoint, bundle.files, Object.entries(bundle.env).sort()]))
    return `${bundle.functionId}@${bundle.version}#${hash.digest('hex').slice(0, 16)}`
  }

  private async start(bundle: FunctionBundle, key: string): Promise<Worker> {
    const dir = path.join(this.opts.bundlesDir, key.replace(/[^A-Za-z0-9_-]/g, '_'))
    await rm(dir, { recursive: true, force: true })
    for (const file of bundle.files) {
      const target = path.resolve(dir, file.name)
      if (!target.startsWith(dir + path.sep)) throw new Error(`A file name leaves the bundle: ${file.name}`)
      await mkdir(path.dirname(target), { recursive: true })
      await writeFile(target, file.content)
    }
    await mkdir(dir, { recursive: true })
    await writeFile(path.join(dir, BOOTSTRAP_FILE), BOOTSTRAP_SOURCE)
    const env: Record<string, string> = { ...bundle.env }
    const runtimeEnv: Record<string, string> = { ...fetchSettings(), DENO_DIR: this.opts.denoDir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }
    for (const [name, value] of Object.entries(runtimeEnv)) if (!(name in env)) env[name] = value
    // Deno sets these two itself (its Node shim's folder on PATH).
    const denied = [...Object.keys(runtimeEnv), 'PATH', 'DENO_NODE_SHIM_ACTIVE'].filter((name) => !(name in bundle.env))
    const args = [
      'run',
      '--quiet',
      '--no-prompt',
      '--no-config',
      '--no-lock',
      '--node-modules-dir=none',
      // A request's signal aborts when its client goes away, not when the answer is sent (the bootstrap passes it on).
      '--unstable-no-legacy-abort',
      '--allow-net',
      // Its npm packages' own files too (a wasm module beside the code): on the platform they are bundled with the
      // function. That folder holds only packages from the public registry; the rest of the cache stays closed.
      `--allow-read=${dir},${path.join(this.opts.denoDir, 'npm')}`,
      '--allow-env',
      `--deny-env=${denied.join(',')}`,
      `--v8-flags=--max-old-space-size=${this.limits.memoryMb}`,
      path.join(dir, BOOTSTRAP_FILE),
    ]
    const entry = new URL(`file://${path.resolve(dir, bundle.entrypoint)}`).href
    const worker = new Worker(key, bundle.projectId, bundle.functionId, args, entry, env, this.opts.logs, this.limits.bootMs, this.deno)
    worker.removed = worker.exited.then(() => rm(dir, { recursive: true, force: true }).catch(() => {}))
    worker.proc.once('exit', (code, signal) => {
      worker.dead = true
      this.forget(worker)
      if (worker.endedFor === undefined && /out of memory|heap limit/i.test(worker.stderrTail)) {
        worker.endedFor = `ran out of memory (${this.limits.memoryMb} MB)`
        this.opts.logs.add(bundle.functionId, { kind: 'shutdown', level: 'error', event_message: `Worker ended: it ${worker.endedFor}` })
      } else if (worker.endedFor === undefined && worker.port !== 0) {
        this.opts.logs.add(bundle.functionId, { kind: 'shutdown', level: 'error', event_message: `Worker exited (${signal ?? code})` })
      }
    })
    return worker
  }

  private async workerFor(bundle: FunctionBundle): Promise<Worker> {
    const key = this.keyOf(bundle)
    const previous = this.current.get(bundle.functionId)
    if (previous !== undefined && previous !== key) {
      const old = this.workers.get(previous)
      // A new version serves from now on; the old worker finishes what it has and goes.
      if (old && old.inflight === 0) {
        old.kill('replaced by a new version')
        this.forget(old)
      }
    }
    this.current.set(bundle.functionId, key)
    let worker = this.workers.get(key)
    if (!worker || worker.dead) {
      const started = performance.now()
      worker = await this.start(bundle, key)
      this.workers.set(key, worker)
      try {
        await worker.ready
      } catch (err) {
        this.forget(worker)
        this.opts.logs.add(bundle.functionId, { kind: 'boot', level: 'error', event_message: `Boot failed: ${(err as Error).message}` })
        throw new BootError((err as Error).message)
      }
      // What starting cost (loading and compiling its imports) is not the first request's CPU time.
      worker.lastCpu = await worker.cpuMs()
      this.opts.logs.add(bundle.functionId, { kind: 'boot', level: 'info', event_message: `Booted (${Math.round(performance.now() - started)} ms)` })
    } else {
      await worker.ready.catch((err: Error) => {
        throw new BootError(err.message)
      })
    }
    return worker
  }

  /** Runs one request through the function's worker; the answer streams. */
  async invoke(bundle: FunctionBundle, req: InvokeRequest): Promise<Response> {
    if (this.closed) return failureResponse('WORKER_ERROR', 'The platform is shutting down')
    const started = performance.now()
    const log = (status: number, measured: Measured = {}, ended = performance.now()) =>
      this.opts.logs.add(bundle.functionId, {
        kind: 'invocation',
        level: status >= 500 ? 'error' : 'info',
        event_message: `${req.method} | ${status} | ${req.pathAndQuery.split('?')[0]}`,
        method: req.method,
        path: req.pathAndQuery.split('?')[0],
        version: bundle.version,
        status,
        duration_ms: Math.round(ended - started),
        ...measured,
      })
    const declared = Number(req.headers.get('content-length') ?? Number.NaN)
    if (Number.isFinite(declared) && declared > this.limits.maxRequestBytes) {
      log(413)
      return failureResponse('REQUEST_TOO_LARGE', `at most ${this.limits.maxRequestBytes} bytes`)
    }
    let worker: Worker
    try {
      worker = await this.workerFor(bundle)
    } catch (err) {
      log(503)
      return failureResponse('BOOT_ERROR', err instanceof BootError ? err.message.slice(0, 1_000) : undefined)
    }
    if (worker.inflight === 0) {
      // The watcher's last reading (at most 100 ms old): reading /proc here would cost every call a file read.
      worker.cpuAtBusy = worker.lastCpu
      worker.outputAtBusy = worker.output
    }
    // The watcher's reading: while the worker was idle it is this call's start; with calls in flight it is at most
    // 100 ms old, and the CPU time of calls that overlap is counted in each of them (one process serves them all).
    const cpuAtStart = worker.lastCpu
    let memory: Measured = {}
    worker.inflight++
    clearTimeout(worker.idleTimer)
    let finished = false
    const finish = (status: number) => {
      if (finished) return
      finished = true
      clearTimeout(wallClock)
      worker.inflight--
      const ended = performance.now()
      // Read after the answer, never before it: the call does not wait for the measurement.
      this.opts.logs.track(worker.cpuMs().then((cpu) => log(status, { cpu_time_ms: Math.max(0, (cpu > 0 ? cpu : worker.lastCpu) - cpuAtStart), ...memory }, ended)))
      if (worker.inflight === 0 && !worker.dead) {
        worker.idleTimer = setTimeout(() => {
          if (worker.inflight === 0) {
            worker.kill('idle')
            this.forget(worker)
          }
        }, this.limits.idleMs)
        worker.idleTimer.unref()
      }
    }
    const wallClockMs = bundle.wallClockMs ?? this.limits.wallClockMs
    const wallClock = setTimeout(() => this.end(worker, `ran past the wall clock limit of ${wallClockMs} ms`), wallClockMs)
    let tooLarge = false
    const limitBody = (max: number, onOver: () => void) => {
      let seen = 0
      return new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength
          if (seen > max) {
            onOver()
            controller.error(new Error(`body larger than ${max} bytes`))
            return
          }
          controller.enqueue(chunk)
        },
      })
    }
    const headers = new Headers(req.headers)
    for (const name of HOP_BY_HOP) headers.delete(name)
    headers.set('x-kp-worker-token', worker.token)
    headers.set('x-kp-url', req.publicUrl)
    const body = req.body?.pipeThrough(limitBody(this.limits.maxRequestBytes, () => (tooLarge = true))) ?? null

    let answer: Response
    try {
      answer = await fetch(`http://127.0.0.1:${worker.port}${req.pathAndQuery}`, {
        method: req.method,
        headers,
        body,
        redirect: 'manual',
        // @ts-expect-error: Node's fetch needs `duplex` to send a streamed body (not yet in the DOM types).
        duplex: 'half',
      })
    } catch {
      if (tooLarge) {
        finish(413)
        return failureResponse('REQUEST_TOO_LARGE', `at most ${this.limits.maxRequestBytes} bytes`)
      }
      await Promise.race([worker.exited, new Promise((r) => setTimeout(r, 200))])
      const limit = worker.endedFor
      if (limit === undefined) this.end(worker, 'failed while answering')
      finish(limit === undefined ? 500 : 546)
      return limit === undefined ? failureResponse('WORKER_ERROR') : failureResponse('WORKER_LIMIT', `The worker ${limit}`)
    }
    const out = new Headers(answer.headers)
    for (const name of HOP_BY_HOP) if (name !== 'content-length') out.delete(name)
    memory = memoryOf(out.get(MEMORY_HEADER))
    out.delete(MEMORY_HEADER)
    if (answer.body === null) {
      finish(answer.status)
      return new Response(null, { status: answer.status, headers: out })
    }
    const declaredOut = Number(out.get('content-length') ?? Number.NaN)
    if (Number.isFinite(declaredOut) && declaredOut > this.limits.maxResponseBytes) {
      await answer.body.cancel().catch(() => {})
      this.end(worker, `answered more than ${this.limits.maxResponseBytes} bytes`)
      finish(546)
      return failureResponse('WORKER_LIMIT', `The worker answered more than ${this.limits.maxResponseBytes} bytes`)
    }
    const status = answer.status
    if (Number.isFinite(declaredOut) && declaredOut <= SMALL_ANSWER) {
      // A small answer of known length is read whole: relaying it chunk by chunk costs more than it streams.
      try {
        const bytes = await answer.arrayBuffer()
        finish(status)
        return new Response(bytes, { status, headers: out })
      } catch {
        finish(546)
        return failureResponse('WORKER_LIMIT', worker.endedFor === undefined ? undefined : `The worker ${worker.endedFor}`)
      }
    }
    const stream = answer.body.pipeThrough(limitBody(this.limits.maxResponseBytes, () => this.end(worker, `answered more than ${this.limits.maxResponseBytes} bytes`)))
    const reader = stream.getReader()
    const relayed = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read()
          if (done) {
            finish(status)
            controller.close()
          } else controller.enqueue(value)
        } catch (err) {
          finish(546)
          controller.error(err)
        }
      },
      async cancel(reason) {
        finish(499)
        await reader.cancel(reason).catch(() => {})
      },
    })
    return new Response(relayed, { status, headers: out })
  }

  /**
   * Ends the function's workers (deleted, or its settings changed); settles once their processes have exited and
   * their bundle folders are deleted.
   */
  retire(functionId: string): Promise<void> {
    return this.retireWhere((w) => w.functionId === functionId)
  }

  /** Ends the workers of every function of the project (the project is deleted), as retire does. */
  retireProject(projectId: number): Promise<void> {
    return this.retireWhere((w) => w.projectId === projectId)
  }

  private async retireWhere(match: (worker: Worker) => boolean): Promise<void> {
    const ended: Worker[] = []
    for (const worker of [...this.workers.values()]) {
      if (!match(worker)) continue
      this.current.delete(worker.functionId)
      worker.kill('retired')
      this.forget(worker)
      ended.push(worker)
    }
    await Promise.all(ended.map((w) => w.removed))
  }

  async close() {
    this.closed = true
    clearInterval(this.monitor)
    const all = [...this.workers.values()]
    for (const worker of all) {
      worker.kill('platform closing')
      this.forget(worker)
    }
    await Promise.all(all.map((w) => Promise.race([w.exited, new Promise((r) => setTimeout(r, 2_000))])))
  }
}

export class BootError extends Error {}
