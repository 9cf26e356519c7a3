/**
 * The walks' servers, started at once: Playwright starts its webServer entries one after another, each once the one
 * before answers, so four servers making their demo data took four starts' time in a row. This starts every server
 * in E2E_SERVERS (a JSON list of { name, port, env }) together, passes their output on, and answers 200 on
 * E2E_SERVERS_READY_PORT once every one answers its health URL — the one URL Playwright waits for. A server that ends
 * ends this (and so the run); when this is stopped, it stops them, and once they have ended deletes their data folders
 * (the demo data and every project's database: about 1.4 GB a run, which no run reads again) unless one ended by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { rmdirSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { createServer } from 'node:http'

interface ServerSpec {
  name: string
  port: number
  env: Record<string, string>
}

const specs = JSON.parse(process.env.E2E_SERVERS ?? '[]') as ServerSpec[]
const readyPort = Number(process.env.E2E_SERVERS_READY_PORT)
if (specs.length === 0 || !Number.isInteger(readyPort)) throw new Error('E2E_SERVERS and E2E_SERVERS_READY_PORT are required')

const children: ChildProcess[] = []
let stopping = false
let ready: ReturnType<typeof createServer> | undefined

const ended = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()))

/** Each server's folder, then the run's folder that held them (playwright.config.ts), once it is empty. */
function removeDataFolders() {
  const dirs = specs.flatMap((spec) => (spec.env.DATA_DIR ? [spec.env.DATA_DIR] : []))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  for (const parent of new Set(dirs.map((dir) => dirname(dir)))) {
    try {
      rmdirSync(parent)
    } catch {
      // Not empty: something else of the person's is in it.
    }
  }
}

function stopAll(code: number) {
  if (stopping) return
  stopping = true
  ready?.close()
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  const exit = () => {
    // A server that ended by itself leaves its data behind to be looked at.
    if (code === 0) removeDataFolders()
    else console.error(`e2e servers' data folders kept: ${specs.map((spec) => spec.env.DATA_DIR).join(', ')}`)
    process.exit(code)
  }
  // A server that has not ended by then is left to Playwright's SIGKILL; its folder goes all the same.
  setTimeout(exit, 10_000).unref()
  void Promise.all(children.map(ended)).then(exit)
}
process.on('SIGTERM', () => stopAll(0))
process.on('SIGINT', () => stopAll(0))

for (const spec of specs) {
  // Node with tsx's loader: one process per server, where `npx tsx` ran npx, tsx's command and then Node.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  child.on('exit', (code, signal) => {
    if (stopping) return
    console.error(`e2e server ${spec.name} (port ${spec.port}) ended (${signal ?? code})`)
    stopAll(1)
  })
  children.push(child)
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/platform/health`)).ok
  } catch {
    return false
  }
}

const waiting = new Set(specs.map((spec) => spec.port))
while (waiting.size > 0 && !stopping) {
  for (const port of [...waiting]) if (await healthy(port)) waiting.delete(port)
  if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 250))
}
if (!stopping) ready = createServer((_req, res) => res.end('ready')).listen(readyPort, '127.0.0.1')
