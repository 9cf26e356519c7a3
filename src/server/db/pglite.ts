import { chmod, copyFile, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { CHANGES_CHANNEL, type Db, type Queryable } from './types'

/** The data folder holds JWT secrets (tables and WAL): only the server's own user may read it. */
const DIR_MODE = 0o700
const FILE_MODE = 0o600

/**
 * Makes the folder and every folder under it 0700 and every file 0600. PGlite's file system layer chmods the
 * files it creates to 0666 whatever the umask, so this runs after opening (which fixes a folder made by an
 * older version too) and again on close (files made while running). While running, the 0700 folder alone
 * keeps other users out of everything below it.
 */
export async function restrictDataDir(dir: string): Promise<void> {
  await chmod(dir, DIR_MODE)
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) await restrictDataDir(full)
    else if (entry.isFile()) await chmod(full, FILE_MODE)
  }
}

/** Files copied at once by copyDataDir: enough to keep the disk busy, few enough to leave descriptors. */
const COPY_CONCURRENCY = 16

/**
 * Copies a data folder (a Postgres cluster: ~1,000 files, ~40 MB) into `to`, which must not exist, with the modes
 * restrictDataDir gives. Node's `fs.cp` takes one file after another with several checks each and costs about
 * three times the CPU; a project is made by one such copy.
 */
export async function copyDataDir(from: string, to: string): Promise<void> {
  const files: string[] = []
  const walk = async (rel: string): Promise<void> => {
    await mkdir(path.join(to, rel), { mode: DIR_MODE })
    await chmod(path.join(to, rel), DIR_MODE) // whatever the umask
    for (const entry of await readdir(path.join(from, rel), { withFileTypes: true })) {
      const name = path.join(rel, entry.name)
      if (entry.isDirectory()) await walk(name)
      else if (entry.isFile()) files.push(name)
      else throw new Error(`a data folder holds only folders and files: ${path.join(from, name)}`)
    }
  }
  await walk('')
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const name = files[next++]
      await copyFile(path.join(from, name), path.join(to, name))
      await chmod(path.join(to, name), FILE_MODE)
    }
  }
  await Promise.all(Array.from({ length: COPY_CONCURRENCY }, worker))
}

/**
 * The platform store's start parameters: PGlite's, with shared_buffers at 16MB instead of 128MB. PGlite's WebAssembly
 * memory holds the whole buffer pool and every start initialises it. With 16MB an open of the seeded demo store took
 * 124 ms instead of 224 (median of 5), and the server idled at 331–353 MB resident instead of 449–494 MB; the project
 * list API at 1,011 projects answered as fast (median 16 ms against 18). The pool only doubles the operating system's
 * cache of the same files (the store's tables are small: accounts, projects, usage figures, logs). The project
 * databases run with the same 16MB.
 */
const STORE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']

/**
 * A PGlite with the store's settings, in `dataDir` (undefined: in memory), given PGlite's other options (the tests'
 * stores start from a dump of a cluster this way).
 */
export function createStorePglite(dataDir: string | undefined, options: Omit<PGliteOptions, 'startParams'> = {}): Promise<PGlite> {
  const withParams = { ...options, startParams: [...STORE_START_PARAMS] }
  return dataDir ? PGlite.create(dataDir, withParams) : PGlite.create(withParams)
}

/**
 * PGlite store. `dataDir` undefined = in memory (tests). PGlite creates its folder non-recursively,
 * so the parent is made first.
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (!dataDir) return wrapPglite(await createStorePglite(undefined))
  const dir = path.resolve(dataDir)
  await mkdir(path.dirname(dir), { recursive: true })
  const pg = await createStorePglite(dir)
  await restrictDataDir(dir)
  return wrapPglite(pg, () => restrictDataDir(dir))
}

export function wrapPglite(pg: PGlite, afterClose?: () => Promise<void>): Db {
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pg.query<T>(sql, params)
      return { rows: r.rows }
    },
    async exec(sql: string) {
      await pg.exec(sql)
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return pg.transaction(async (tx) =>
        fn({
          async query<R>(sql: string, params: unknown[] = []) {
            const r = await tx.query<R>(sql, params)
            return { rows: r.rows }
          },
          async exec(sql: string) {
            await tx.exec(sql)
          },
        }),
      )
    },
    async listen(handlers) {
      // PGlite is one connection in this process: its notifications arrive while the COMMIT's answer is read.
      const stop = await pg.listen(CHANGES_CHANNEL, (payload) => handlers.payload(payload))
      return () => void stop().catch(() => {})
    },
    async close() {
      if (pg.closed) return
      await pg.close()
      await afterClose?.()
    },
  }
}
