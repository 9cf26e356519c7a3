/**
 * Project databases on PGlite: a data folder per project under `root`/<ref>, each open one hosted in a child process
 * of its own (worker.mjs under Node's permission model). New folders are copies of a template folder made once by one initdb (cached per PGlite
 * version and template SQL); creating one copies into a partial folder, runs the optional schema there, and renames
 * it into place, so a folder named after a ref is always complete.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { appendFile, copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { copyDataDir, restrictDataDir } from '../db/pglite'
import { repoRoot, type WasmTier } from '../config'
import type { Backend, Session } from './manager'
import { toProjectDbError } from './manager'
import { REALTIME_CHANGES_CHANNEL } from './realtimeSchema'
import { PGLITE_LOCKDOWN_SQL, TEMPLATE_HASH, TEMPLATE_SQL } from './template'

/** The channels an open project database listens on from the start, for whoever asks (listen). */
const NOTIFY_CHANNELS = [REALTIME_CHANGES_CHANNEL]
import { ProjectDbError, type ProjectQueryResult } from './types'
import { missingUpgrades } from './upgrades'

const WORKER_URL = new URL('./worker.mjs', import.meta.url)
const WORKER_PATH = fileURLToPath(WORKER_URL)
const PGLITE_PACKAGE = path.join(repoRoot, 'node_modules/@electric-sql/pglite')

export const pgliteVersion = (
  JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }
).version

interface WorkerReply {
  id?: number
  type?: 'ready' | 'failed' | 'done' | 'notify'
  channel?: string
  payload?: string
  result?: unknown
  error?: { message: string; code?: string; position?: number; detail?: string; hint?: string }
  version?: string
}

function unavailable(message: string): ProjectDbError {
  return new ProjectDbError(message, { code: 'database_unavailable' })
}

/**
 * How a project's PGlite runs: a Node process of its own under Node's permission model, which may read PGlite's
 * package, its own script and its folder, write only its folder, and start no process and no thread; it gets no
 * environment (the platform's secrets stay here). People's SQL cannot leave Postgres now (the lock-down), and were
 * it to run JavaScript in PGlite's loader, it would have no more than that.
 */
export function projectProcessArgs(dir: string, wasmTier: WasmTier = 'optimizing'): string[] {
  const permission = Number(process.versions.node.split('.')[0]) >= 22 ? '--permission' : '--experimental-permission'
  return [
    ...(wasmTier === 'baseline' ? ['--liftoff-only'] : []),
    permission,
    '--disable-warning=ExperimentalWarning',
    `--allow-fs-read=${PGLITE_PACKAGE}/*`,
    `--allow-fs-read=${WORKER_PATH}`,
    // `<dir>/*` covers the folder itself too; Node 20 aborts when given both `<dir>` and `<dir>/*`.
    `--allow-fs-read=${dir}/*`,
    `--allow-fs-write=${dir}/*`,
  ]
}

/** Ends a child at once (SIGKILL) and waits for it to be gone. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

/** A PGlite in a child process (worker.mjs); one message at a time is what the manager sends. */
class ProcessSession implements Session {
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>()
  private gone: ProjectDbError | undefined

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    lost: () => void,
    notify?: (channel: string, payload: string) => void,
  ) {
    child.on('message', (msg: WorkerReply) => {
      if (msg.type === 'notify') return notify?.(msg.channel ?? '', msg.payload ?? '')
      if (msg.id === undefined) return
      const p = this.pending.get(msg.id)
      if (!p) return
      this.pending.delete(msg.id)
      if (msg.error) p.reject(toProjectDbError(msg.error))
      else p.resolve(msg.result)
    })
    const fail = (why: string) => {
      const unexpected = !this.gone
      this.gone ??= unavailable(why)
      for (const p of this.pending.values()) p.reject(this.gone)
      this.pending.clear()
      if (unexpected) lost()
    }
    child.on('error', (err) => fail(`the project database stopped: ${err.message}`))
    child.on('exit', () => fail('the project database is closed'))
  }

  static start(
    dir: string,
    wasmTier: WasmTier,
    lost: () => void = () => {},
    notify?: (channel: string, payload: string) => void,
  ): Promise<ProcessSession> {
    return new Promise((resolve, reject) => {
      const listen = notify ? NOTIFY_CHANNELS : []
      const child = fork(WORKER_PATH, [JSON.stringify({ dir, mode: 'serve', lockdown: PGLITE_LOCKDOWN_SQL, listen })], {
        execArgv: projectProcessArgs(dir, wasmTier),
        env: {},
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      const onMessage = (msg: WorkerReply) => {
        if (msg.type === 'ready') {
          cleanup()
          resolve(new ProcessSession(child, dir, lost, notify))
        } else if (msg.type === 'failed') {
          cleanup()
          void stopChild(child)
          reject(unavailable(`the project database could not be opened: ${msg.error?.message}`))
        }
      }
      const onError = (err: Error) => {
        cleanup()
        void stopChild(child)
        reject(unavailable(`the project database could not be opened: ${err.message}`))
      }
      const onExit = () => {
        cleanup()
        reject(unavailable('the project database could not be opened'))
      }
      const cleanup = () => {
        child.off('message', onMessage)
        child.off('error', onError)
        child.off('exit', onExit)
      }
      child.on('message', onMessage)
      child.on('error', onError)
      child.on('exit', onExit)
    })
  }

  private call<T>(op: 'query' | 'exec' | 'raw' | 'close', sql?: string, params?: unknown[], bytes?: Uint8Array): Promise<T> {
    if (this.gone) return Promise.reject(this.gone)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.child.send({ id, op, sql, params, bytes }, (err) => {
        if (!err) return
        this.pending.delete(id)
        reject(this.gone ?? unavailable(`the project database stopped: ${err.message}`))
      })
    })
  }

  query<R = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<ProjectQueryResult<R>> {
    return this.call('query', sql, params)
  }

  exec(sql: string): Promise<ProjectQueryResult[]> {
    return this.call('exec', sql)
  }

  async raw(bytes: Uint8Array): Promise<Uint8Array> {
    return new Uint8Array(await this.call<Uint8Array>('raw', undefined, undefined, bytes))
  }

  async close(): Promise<void> {
    try {
      await this.call('close')
    } finally {
      this.gone ??= unavailable('the project database is closed')
      await stopChild(this.child)
      await restrictDataDir(this.dir).catch(() => {})
    }
  }

  async kill(): Promise<void> {
    this.gone ??= unavailable('the project database was stopped')
    await stopChild(this.child)
  }
}

/**
 * Settings of every project cluster (in the template's postgresql.auto.conf). shared_buffers is 128MB by default, and
 * PGlite's WebAssembly memory holds all of it: an open project database took ~180–270 MB with it and ~75–120 MB with
 * 16MB (measured with three open at once), plenty for a project's small tables.
 */
const SYSTEM_SETTINGS = [`alter system set shared_buffers = '16MB'`]

/**
 * Made in the template while its session is still a superuser (the extension is no trusted one), where the platform
 * keeps it and the CLI's inspect queries look for it: schema extensions. Its objects stay the owner's, as on the
 * platform, so the owner may read every statement's figures and reset them.
 */
const PGLITE_EXTENSIONS_SQL = `
-- pg_stat_statements is preloaded by worker.mjs, which hands each folder's postgresql.conf back to PGlite.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists pg_stat_statements with schema extensions;
`

/** Runs initdb (the settings, then `sql`) into `dir` in a worker of its own, so the process keeps none of its memory. */
function initdbInWorker(dir: string, sql: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { dir, mode: 'initdb', sql, system: SYSTEM_SETTINGS, lockdown: PGLITE_LOCKDOWN_SQL },
    })
    worker.on('message', (msg: WorkerReply) => {
      if (msg.type === 'done') resolve(msg.version!)
      else if (msg.type === 'failed') reject(toProjectDbError(msg.error))
      void worker.terminate()
    })
    worker.on('error', reject)
    worker.on('exit', () => reject(new Error('initdb worker exited')))
  })
}

/** The template folder's name in its cache folder: one per PGlite version, template SQL, settings and lock-down. */
export const PGLITE_TEMPLATE_FOLDER = `.kp-projectdb-template-${pgliteVersion}-${createHash('sha256')
  .update(`${TEMPLATE_HASH}\n${SYSTEM_SETTINGS.join('\n')}\n${PGLITE_EXTENSIONS_SQL}\n${PGLITE_LOCKDOWN_SQL}`)
  .digest('hex')
  .slice(0, 12)}`

const TEMPLATE_INFO = 'kp-template.json'
const CONF_FILES = ['postgresql.conf', 'postgresql.auto.conf']
/**
 * The project's database-level settings (setDatabaseSettings), which PGlite's single-user start does not read from
 * the catalog: kept in its folder as JSON by the platform (the project's SQL writes no files) and added to the
 * configuration each start.
 */
const PROJECT_SETTINGS = 'kp-project-settings.json'

async function projectSettingsOf(dir: string): Promise<Record<string, string>> {
  try {
    return JSON.parse(await readFile(path.join(dir, PROJECT_SETTINGS), 'utf8')) as Record<string, string>
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw err
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface PgliteOptions {
  /** Where the project folders live (DATA_DIR/projects). */
  root: string
  /** Where the template folder is cached (default `root`; tests share one in the temp folder). */
  templateCacheDir?: string
  /** How V8 compiles Postgres in a project's process (config: PROJECT_DB_WASM_TIER). */
  wasmTier?: WasmTier
}

export function pgliteBackend(opts: PgliteOptions): Backend {
  const root = path.resolve(opts.root)
  const cacheDir = path.resolve(opts.templateCacheDir ?? root)
  const wasmTier = opts.wasmTier ?? 'optimizing'
  const templateDir = path.join(cacheDir, PGLITE_TEMPLATE_FOLDER)
  const dirOf = (ref: string) => path.join(root, ref)
  let template: Promise<{ dir: string; serverVersion: string }> | undefined
  /** Who listens to which channel of which project's database (the open process of a project hands them over). */
  const listeners = new Map<string, Set<{ channel: string; onPayload: (payload: string) => void }>>()
  const notifyOf = (ref: string) => (channel: string, payload: string) => {
    for (const l of listeners.get(ref) ?? []) if (l.channel === channel) l.onPayload(payload)
  }

  async function prepareTemplate(): Promise<{ dir: string; serverVersion: string }> {
    const info = path.join(templateDir, TEMPLATE_INFO)
    if (!existsSync(info)) {
      await mkdir(cacheDir, { recursive: true, mode: 0o700 })
      const partial = `${templateDir}.partial-${process.pid}-${randomBytes(4).toString('hex')}`
      try {
        const serverVersion = await initdbInWorker(partial, TEMPLATE_SQL + PGLITE_EXTENSIONS_SQL)
        await writeFile(path.join(partial, TEMPLATE_INFO), JSON.stringify({ serverVersion }))
        await restrictDataDir(partial)
        // Atomic: another process preparing the same template at once wins or loses as a whole.
        await rename(partial, templateDir).catch(async (err: NodeJS.ErrnoException) => {
          if (!existsSync(info)) throw err
        })
      } finally {
        await rm(partial, { recursive: true, force: true })
      }
    }
    const { serverVersion } = JSON.parse(await readFile(info, 'utf8')) as { serverVersion: string }
    return { dir: templateDir, serverVersion }
  }

  /**
   * What a stopped start or creation left: template builds, partial and half-dropped project folders whose process
   * is gone (another live process, or another engine of this one, may be making one now).
   */
  async function clearStalePartials(): Promise<void> {
    for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
      const builder = /^\.kp-projectdb-template-.*\.partial-(\d+)-[0-9a-f]+$/.exec(name)
      if (builder && !processAlive(Number(builder[1]))) await rm(path.join(cacheDir, name), { recursive: true, force: true })
    }
    for (const name of await readdir(root).catch(() => [] as string[])) {
      const maker = /^\.(?:partial|dropping)-[a-z0-9_]+-(\d+)-[0-9a-f]+$/.exec(name)
      if (maker && !processAlive(Number(maker[1]))) await rm(path.join(root, name), { recursive: true, force: true })
    }
  }
  let cleared: Promise<void> | undefined

  /**
   * The template with `schemaSql` already run in it, made once per schema (cached beside the template, named by its
   * hash): every project made with one demo schema starts from the same files, so making one is a copy rather than
   * a database process started, the schema run and the process stopped. Built in a partial folder and renamed into
   * place, as the template is.
   */
  const seeded = new Map<string, Promise<string>>()
  async function prepareSeeded(templateDir: string, schemaSql: string): Promise<string> {
    const folder = `${templateDir}-schema-${createHash('sha256').update(schemaSql).digest('hex').slice(0, 16)}`
    const info = path.join(folder, TEMPLATE_INFO)
    if (existsSync(info)) return folder
    const partial = `${folder}.partial-${process.pid}-${randomBytes(4).toString('hex')}`
    try {
      await copyDataDir(templateDir, partial)
      await rm(path.join(partial, TEMPLATE_INFO), { force: true })
      const session = await ProcessSession.start(partial, wasmTier)
      try {
        await session.exec(schemaSql)
      } finally {
        await session.close()
      }
      await writeFile(path.join(partial, TEMPLATE_INFO), JSON.stringify({ schema: true }))
      await restrictDataDir(partial)
      await rename(partial, folder).catch(async (err: NodeJS.ErrnoException) => {
        if (!existsSync(info)) throw err
      })
    } finally {
      await rm(partial, { recursive: true, force: true })
    }
    return folder
  }
  const seededTemplate = async (schemaSql: string): Promise<string> => {
    const { dir } = await ensureTemplate()
    let folder = seeded.get(schemaSql)
    if (!folder) {
      folder = prepareSeeded(dir, schemaSql)
      seeded.set(schemaSql, folder)
      folder.catch(() => seeded.delete(schemaSql))
    }
    return folder
  }

  const ensureTemplate = () => {
    cleared ??= clearStalePartials()
    template ??= cleared.then(prepareTemplate).catch((err: unknown) => {
      template = undefined
      throw err
    })
    return template
  }

  return {
    kind: 'pglite',
    killGraceMs: 0,
    // The worker's LISTENs (worker.mjs), in the one session the Postgres port's clients share.
    sessionListenSql: NOTIFY_CHANNELS.map((channel) => `listen ${channel};`).join(' '),
    prepare: async () => {
      await ensureTemplate()
    },
    async open(ref, lost) {
      if (!existsSync(path.join(dirOf(ref), 'PG_VERSION'))) throw unavailable(`project ${ref} has no database`)
      // The settings are the template's and nobody may change them (ALTER SYSTEM is refused): written again before
      // each start, so a folder whose settings a superuser changed before the lock-down (libraries preloaded at
      // start) gets the template's back.
      const { dir } = await ensureTemplate()
      for (const conf of CONF_FILES) await copyFile(path.join(dir, conf), path.join(dirOf(ref), conf))
      const own = Object.entries(await projectSettingsOf(dirOf(ref)))
      if (own.length) {
        const lines = own.map(([name, value]) => `${name} = '${value.replace(/'/g, "''")}'`)
        await appendFile(path.join(dirOf(ref), 'postgresql.conf'), `\n# The project's own settings (Management API)\n${lines.join('\n')}\n`)
      }
      const session = await ProcessSession.start(dirOf(ref), wasmTier, lost, notifyOf(ref))
      try {
        // A folder made before the template carried a schema gets it now, from its owner (upgrades.ts).
        for (const upgrade of await missingUpgrades(session)) await session.exec(`begin;\n${upgrade.sql}\ncommit;`)
      } catch (err) {
        await session.kill().catch(() => {})
        throw err
      }
      return session
    },
    async listen(ref, channel, onPayload) {
      if (!NOTIFY_CHANNELS.includes(channel)) throw unavailable(`a project database does not listen on ${channel}`)
      const entry = { channel, onPayload }
      let set = listeners.get(ref)
      if (!set) listeners.set(ref, (set = new Set()))
      set.add(entry)
      return async () => {
        set.delete(entry)
        if (set.size === 0 && listeners.get(ref) === set) listeners.delete(ref)
      }
    },
    async setSettings(ref, settings) {
      const dir = dirOf(ref)
      if (!existsSync(path.join(dir, 'PG_VERSION'))) throw unavailable(`project ${ref} has no database`)
      const next = { ...(await projectSettingsOf(dir)), ...settings }
      const partial = path.join(dir, `${PROJECT_SETTINGS}.${randomBytes(4).toString('hex')}`)
      await writeFile(partial, JSON.stringify(next), { mode: 0o600 })
      await rename(partial, path.join(dir, PROJECT_SETTINGS))
    },
    async exists(ref) {
      return existsSync(path.join(dirOf(ref), 'PG_VERSION'))
    },
    async create(ref, schemaSql) {
      if (existsSync(path.join(dirOf(ref), 'PG_VERSION'))) return
      const { dir } = await ensureTemplate()
      await mkdir(root, { recursive: true, mode: 0o700 })
      // What a crash left of an earlier attempt.
      for (const name of await readdir(root)) {
        if (name.startsWith(`.partial-${ref}-`)) await rm(path.join(root, name), { recursive: true, force: true })
      }
      const source = schemaSql ? await seededTemplate(schemaSql) : dir
      const partial = path.join(root, `.partial-${ref}-${process.pid}-${randomBytes(4).toString('hex')}`)
      try {
        await copyDataDir(source, partial)
        await rm(path.join(partial, TEMPLATE_INFO), { force: true })
        await rm(dirOf(ref), { recursive: true, force: true }) // an incomplete folder without PG_VERSION
        await rename(partial, dirOf(ref))
      } finally {
        await rm(partial, { recursive: true, force: true })
      }
    },
    async drop(ref) {
      if (!existsSync(dirOf(ref))) return
      const doomed = path.join(root, `.dropping-${ref}-${process.pid}-${randomBytes(4).toString('hex')}`)
      await rename(dirOf(ref), doomed)
      await rm(doomed, { recursive: true, force: true })
    },
    async serverVersion() {
      return (await ensureTemplate()).serverVersion
    },
    async end() {},
  }
}
