/**
 * One project's PGlite, hosted in a worker thread so that terminating the worker gives its memory back (a closed
 * in-process PGlite keeps it). Plain JavaScript: it runs under tsx, vitest and node without a TypeScript loader.
 *
 * workerData: { dir, mode: 'serve' | 'initdb', sql?, system? }
 *  - 'serve': opens the data folder `dir`, answers { id, op: 'query' | 'exec' | 'close', sql, params } messages one
 *    at a time with { id, result } or { id, error };
 *  - 'initdb': creates a new cluster in `dir`, runs the `system` statements (ALTER SYSTEM) and `sql` on it, closes it
 *    and answers { type: 'done', version }.
 * The thread that owns the worker sends one message at a time (a project's queries are serialised there).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

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

async function initdb() {
  const pg = await PGlite.create(workerData.dir)
  // ALTER SYSTEM cannot run in the implicit transaction of a multi-statement script: one call each.
  for (const statement of workerData.system ?? []) await pg.exec(statement)
  if (workerData.sql) await pg.exec(workerData.sql)
  const { rows } = await pg.query('show server_version')
  await pg.close()
  parentPort.postMessage({ type: 'done', version: rows[0].server_version })
}

async function serve() {
  let pg
  try {
    pg = await PGlite.create(workerData.dir)
  } catch (err) {
    parentPort.postMessage({ type: 'failed', error: errorData(err) })
    return
  }
  parentPort.on('message', async (msg) => {
    try {
      if (msg.op === 'query') {
        parentPort.postMessage({ id: msg.id, result: resultData(await pg.query(msg.sql, msg.params ?? [])) })
      } else if (msg.op === 'exec') {
        const results = await pg.exec(msg.sql)
        parentPort.postMessage({ id: msg.id, result: results.map(resultData) })
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
