/**
 * One project's PGlite, hosted apart so that ending it gives its memory back (a closed in-process PGlite keeps it):
 * a project's database in a child process of its own under Node's permission model (forked with an IPC channel,
 * its workerData as the first argument), the template's initdb in a worker thread. Plain JavaScript: it runs under
 * tsx, vitest and node without a TypeScript loader.
 *
 * workerData: { dir, mode: 'serve' | 'initdb', sql?, system?, lockdown }
 *  - 'serve': opens the data folder `dir` and answers { id, op: 'query' | 'exec' | 'raw' | 'close', sql, params, bytes } messages
 *    one at a time with { id, result } or { id, error }. Its session must be no superuser: a folder made before the
 *    template was locked down gets `lockdown` first (then is opened again), and a folder whose session is still a
 *    superuser after that is refused;
 *  - 'initdb': creates a new cluster in `dir`, runs the `system` statements (ALTER SYSTEM), `sql` and then
 *    `lockdown` on it, closes it and answers { type: 'done', version }.
 * The thread that owns it sends one message at a time (a project's queries are serialised there).
 * A served database LISTENs, as soon as it is open and before any query, on the channels of `listen` and hands each
 * notification over as { type: 'notify', channel, payload } (the realtime service's change capture).
 */
import fs from 'node:fs'
import { parentPort as threadPort, workerData as threadData } from 'node:worker_threads'

/** A worker thread talks through its parentPort; a child process through its IPC channel. */
const parentPort = threadPort ?? {
  // The callback takes a failed send (the server already gone) instead of an unhandled 'error' event: the
  // 'disconnect' handler below ends the process then.
  postMessage: (msg) => process.send(msg, () => {}),
  on: (event, listener) => process.on(event, listener),
}
const workerData = threadData ?? JSON.parse(process.argv[2])
// A child whose server is gone (its IPC channel closed) ends with it.
if (!threadPort) process.on('disconnect', () => process.exit(0))

/**
 * PGlite's file layer chmods every host file to its mode inside the virtual file system (0666), whatever the umask:
 * this process's or thread's `fs` (a worker thread has its own) keeps group and others out from the moment a file
 * exists, so a build stopped half-way leaves nothing readable behind.
 */
function privateModes() {
  const mask = (mode) => (typeof mode === 'number' ? mode & 0o700 : mode)
  const { chmodSync, fchmodSync, mkdirSync, openSync, writeFileSync } = fs
  fs.chmodSync = (p, mode) => chmodSync(p, mask(mode))
  fs.fchmodSync = (fd, mode) => fchmodSync(fd, mask(mode))
  fs.mkdirSync = (p, opts) =>
    mkdirSync(p, typeof opts === 'object' && opts !== null ? { ...opts, mode: mask(opts.mode ?? 0o700) } : mask(opts ?? 0o700))
  fs.openSync = (p, flags, mode) => openSync(p, flags, mode === undefined ? 0o600 : mask(mode))
  fs.writeFileSync = (p, data, opts) =>
    writeFileSync(p, data, typeof opts === 'object' && opts !== null ? { ...opts, mode: mask(opts.mode ?? 0o600) } : opts)
}
privateModes()

const { PGlite } = await import('@electric-sql/pglite')
/**
 * pg_stat_statements, PGlite's contrib build: every cluster preloads it (PGlite sets shared_preload_libraries from
 * the extensions it is given), so the statistics the CLI's `inspect db outliers` and `calls` read are kept while the
 * database is open. They live in memory and start over at each open, as a server's do at each restart.
 */
const { pg_stat_statements } = await import('@electric-sql/pglite/contrib/pg_stat_statements')

/**
 * PGlite's options for the folder: the extensions, and the folder's own postgresql.conf handed back to it. Given
 * extensions, PGlite writes postgresql.conf itself (the preload line added to the text it is given): without the
 * folder's text it would write that line alone, and the project's own settings appended there would be lost.
 */
function openOptions(dir, extra = {}) {
  const conf = `${dir}/postgresql.conf`
  return { ...extra, extensions: { pg_stat_statements }, ...(fs.existsSync(conf) ? { postgresqlconf: fs.readFileSync(conf, 'utf8') } : {}) }
}

/**
 * PGlite's start parameters without `-O` (allow_system_table_mods): with it, the catalog's owner may change the
 * catalog's tables themselves. The template build sets it for itself where it needs it.
 */
const START_PARAMS = PGlite.defaultStartParams.filter((p) => p !== '-O')

/** A Postgres error as plain data (structured clone drops the class and its own fields' getters). */
function errorData(err) {
  const e = err ?? {}
  const position = e.position === undefined || e.position === null || e.position === '' ? undefined : Number(e.position)
  return {
    message: typeof e.message === 'string' ? e.message : String(err),
    code: typeof e.code === 'string' ? e.code : undefined,
    position: Number.isFinite(position) ? position : undefined,
    detail: typeof e.detail === 'string' ? e.detail : undefined,
    hint: typeof e.hint === 'string' ? e.hint : undefined,
  }
}

function resultData(r) {
  const rows = r.rows ?? []
  return {
    rows,
    fields: (r.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: r.affectedRows || rows.length,
  }
}

async function sessionIsSuperuser(pg) {
  const { rows } = await pg.query(`select rolsuper from pg_catalog.pg_roles where rolname = session_user`)
  return rows[0]?.rolsuper !== false
}

async function initdb() {
  // The cluster first without extensions: initdb writes the postgresql.conf that openOptions then hands back.
  let pg = await PGlite.create(workerData.dir)
  // ALTER SYSTEM cannot run in the implicit transaction of a multi-statement script: one call each.
  for (const statement of workerData.system ?? []) await pg.exec(statement)
  await pg.close()
  pg = await PGlite.create(workerData.dir, openOptions(workerData.dir))
  if (workerData.sql) await pg.exec(workerData.sql)
  await pg.exec(workerData.lockdown)
  const { rows } = await pg.query('show server_version')
  await pg.close()
  parentPort.postMessage({ type: 'done', version: rows[0].server_version })
}

/** Opens the folder with a session that is no superuser, locking down a folder made before that was the rule. */
async function openLockedDown() {
  let pg = await PGlite.create(workerData.dir, openOptions(workerData.dir, { startParams: START_PARAMS }))
  if (await sessionIsSuperuser(pg)) {
    await pg.exec(workerData.lockdown)
    await pg.close()
    // A new session: the one that ran the lock-down started as a superuser and keeps traces of it.
    pg = await PGlite.create(workerData.dir, openOptions(workerData.dir, { startParams: START_PARAMS }))
    if (await sessionIsSuperuser(pg)) {
      await pg.close()
      throw new Error('its session is still a superuser after the lock-down')
    }
  }
  return pg
}

async function serve() {
  let pg
  try {
    pg = await openLockedDown()
  } catch (err) {
    parentPort.postMessage({ type: 'failed', error: errorData(err) })
    return
  }
  for (const channel of workerData.listen ?? []) {
    await pg.listen(channel, (payload) => parentPort.postMessage({ type: 'notify', channel, payload }))
  }
  parentPort.on('message', async (msg) => {
    try {
      if (msg.op === 'query') {
        parentPort.postMessage({ id: msg.id, result: resultData(await pg.query(msg.sql, msg.params ?? [])) })
      } else if (msg.op === 'exec') {
        const results = await pg.exec(msg.sql)
        parentPort.postMessage({ id: msg.id, result: results.map(resultData) })
      } else if (msg.op === 'raw') {
        // Wire-protocol bytes of a client of the Postgres port (features/wire), answered with the backend's bytes.
        const out = await pg.execProtocolRaw(new Uint8Array(msg.bytes))
        parentPort.postMessage({ id: msg.id, result: out })
      } else if (msg.op === 'close') {
        await pg.close()
        parentPort.postMessage({ id: msg.id, result: null })
      } else {
        parentPort.postMessage({ id: msg.id, error: { message: `unknown op ${msg.op}` } })
      }
    } catch (err) {
      parentPort.postMessage({ id: msg.id, error: errorData(err) })
    }
  })
  parentPort.postMessage({ type: 'ready' })
}

if (workerData.mode === 'initdb') {
  initdb().catch((err) => parentPort.postMessage({ type: 'failed', error: errorData(err) }))
} else {
  await serve()
}
