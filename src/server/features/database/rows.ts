/**
 * The Table Editor's routes (the shapes: src/contracts/tableEditor.ts): a table's rows read with sort, filters and
 * pages and a count; a row inserted, updated (only if it still holds what the editor read) or rows deleted, each
 * one statement by primary key; a table made or changed from a form, answering its SQL first and running it on
 * confirmation; CSV imported and exported. Reads are open to every member; writes take `projects:write`.
 * Everything runs through the SQL runner (run.ts) as the project owner, except the import's batches, which need
 * savepoints inside one transaction to tell the bad rows apart: they run in one transaction of the same role and
 * database layer, with a longer time-out (a 100,000-row file takes seconds).
 *
 * The CSV is read as it streams in (decoded as strict UTF-8, or UTF-16 after its byte order mark; parsed by csv-parse) into batches of JSON before the
 * transaction opens: a project's queries are serialised, so a slow upload must not hold its database. A file with
 * a row of the wrong width, a NUL or bytes that are not UTF-8 is refused with its bad rows before anything runs;
 * a row the database refuses (a value of the wrong type, a duplicate key) is found and reported, and the whole
 * import rolls back: nothing is half-imported.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { parse as parseCsv, CsvError } from 'csv-parse'
import { stringify } from 'csv-stringify'
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import * as zm from 'zod/mini'
import { ProjectRef } from '../../../contracts/common'
import {
  DeleteRowsBody, InsertRowBody, RowFilter, RowSearch, RowSort, TableDefinitionBody, UpdateRowBody,
  type DeletedRows, type ImportAnswer, type ImportFailure, type RowConflict, type RowsPage, type TableDefinitionAnswer, type WrittenRow,
} from '../../../contracts/tableEditor'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { failure } from './routes'
import { runProjectQuery } from './run'
import {
  EditorRefusal, alterTableSql, countSql, createTableSql, currentTable, deleteSql, importBatchSql, insertSql, pageSql,
  relationOf, rowByKeySql, selectionOf, tableReferences, updateSql, type Relation, type Runner,
} from './rowsStore'

const TableParam = z.object({ ref: ProjectRef, table: z.string().min(1, 'table is required').max(256) })

/** The most a CSV may be; the route counts the bytes as they stream (the guard admits it by Content-Length). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024
/** Rows per INSERT of an import. */
const IMPORT_BATCH = 1_000
/** Bad rows listed in a refusal (the message counts them all). */
const BAD_ROWS_LISTED = 100
/** Rows per read of an export. */
const EXPORT_PAGE = 1_000

const jsonList = <T>(text: string | undefined, schema: zm.ZodMiniType<T>, what: string): T[] => {
  if (text === undefined || text === '') return []
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new EditorRefusal(400, `${what} must be a JSON array`)
  }
  const result = zm.array(schema).safeParse(parsed)
  if (!result.success) throw new EditorRefusal(400, `${what}: ${result.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`)
  return result.data
}

const jsonOne = <T>(text: string | undefined, schema: zm.ZodMiniType<T>, what: string): T | undefined => {
  if (text === undefined || text === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new EditorRefusal(400, `${what} must be a JSON object`)
  }
  const result = schema.safeParse(parsed)
  if (!result.success) throw new EditorRefusal(400, `${what}: ${result.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`)
  return result.data
}

class BadRows extends Error {
  constructor(readonly rows: ImportFailure['bad_rows'], readonly total: number) {
    super('bad rows')
  }
}

const cellText = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value))

export function tableEditorRoutes(deps: Deps) {
  const { db, projectDbs, config } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const timeoutMs = config.projectDb.queryTimeoutMs
  const importTimeoutMs = Math.max(timeoutMs, 300_000)

  const runnerOf = (c: Context<MemberProjectEnv>): Runner => (sql, parameters, readOnly) =>
    runProjectQuery(projectDbs, c.var.project.ref, sql, { parameters, readOnly: readOnly || !can(c.var.project.role, 'projects:write') })

  function answer(c: Context, err: unknown) {
    if (err instanceof EditorRefusal) return c.json({ message: err.message, ...err.extra }, err.status)
    return failure(c, err, timeoutMs)
  }

  const gate = (c: Context<MemberProjectEnv>, write: boolean) => {
    if (write && !can(c.var.project.role, 'projects:write')) {
      return errorJson(c, 403, "A Read-only member cannot change the project's tables or rows")
    }
    return refuseUnlessActive(c, DATABASE_UNAVAILABLE)
  }

  app.on(...at(endpoints.getRows), validate('param', TableParam), validate('query', endpoints.getRows.query), project, async (c) => {
    const refused = gate(c, false)
    if (refused) return refused
    const { table } = c.req.valid('param')
    const { offset, limit, sort, filters, search } = c.req.valid('query')
    try {
      const run = runnerOf(c)
      const rel = await relationOf(run, table)
      const selection = selectionOf(rel, jsonList(filters, RowFilter, 'filters'), jsonList(sort, RowSort, 'sort'), jsonOne(search, RowSearch, 'search'))
      const parameters = [limit, offset, ...selection.parameters]
      const page = await run(pageSql(rel, selection), parameters, true)
      const count = await run(countSql(rel, selection), parameters, true)
      const body: RowsPage = {
        columns: rel.columns,
        rows: page.rows,
        offset,
        limit,
        total: Number(count.rows[0]?.n ?? 0),
        primary_keys: rel.primaryKey,
      }
      return c.json(body)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.insertRow), validate('param', TableParam), validate('json', InsertRowBody), project, async (c) => {
    const refused = gate(c, true)
    if (refused) return refused
    try {
      const run = runnerOf(c)
      const rel = await relationOf(run, c.req.valid('param').table)
      const { sql, parameters } = insertSql(rel, c.req.valid('json').values)
      const done = await run(sql, parameters, false)
      return c.json({ row: done.rows[0] ?? {}, sql } satisfies WrittenRow, 201)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.updateRow), validate('param', TableParam), validate('json', UpdateRowBody), project, async (c) => {
    const refused = gate(c, true)
    if (refused) return refused
    const { key, previous, values } = c.req.valid('json')
    try {
      const run = runnerOf(c)
      const rel = await relationOf(run, c.req.valid('param').table)
      const { sql, parameters } = updateSql(rel, key, previous, values)
      const done = await run(sql, parameters, false)
      const row = done.rows.at(0)
      if (row) return c.json({ row, sql } satisfies WrittenRow)
      // Nothing matched: the row is gone, or it no longer holds what the editor read.
      const now = rowByKeySql(rel, key)
      const current = (await run(now.sql, now.parameters, true)).rows.at(0)
      if (!current) return errorJson(c, 404, 'The row no longer exists: it was deleted after it was read. Reload to see the table as it is.')
      const body: RowConflict = {
        message: 'The row was changed after it was read (in another tab or by someone else): nothing was overwritten. Reload it to see its values now.',
        code: 'row_changed',
        current,
      }
      return c.json(body, 409)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.deleteRows), validate('param', TableParam), validate('json', DeleteRowsBody), project, async (c) => {
    const refused = gate(c, true)
    if (refused) return refused
    try {
      const run = runnerOf(c)
      const rel = await relationOf(run, c.req.valid('param').table)
      const { sql, parameters } = deleteSql(rel, c.req.valid('json').keys)
      const done = await run(sql, parameters, false)
      return c.json({ deleted: done.rowCount, sql } satisfies DeletedRows)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.createTable), refParam, validate('json', TableDefinitionBody), project, async (c) => {
    const { definition, run: confirmed } = c.req.valid('json')
    const refused = gate(c, confirmed)
    if (refused) return refused
    try {
      const sql = await createTableSql(definition)
      if (confirmed) await runnerOf(c)(sql, [], false)
      return c.json({ sql, ran: confirmed } satisfies TableDefinitionAnswer, confirmed ? 201 : 200)
    } catch (err) {
      return answer(c, err)
    }
  })

  // The alter form starts from the table as the catalog has it (its columns keep their names as `original_name`).
  app.on(...at(endpoints.getTableDefinition), validate('param', TableParam), project, async (c) => {
    const refused = gate(c, false)
    if (refused) return refused
    try {
      return c.json((await currentTable(runnerOf(c), c.req.valid('param').table)).definition)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.getTableReferences), refParam, project, async (c) => {
    const refused = gate(c, false)
    if (refused) return refused
    try {
      return c.json(await tableReferences(runnerOf(c)))
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.alterTable), validate('param', TableParam), validate('json', TableDefinitionBody), project, async (c) => {
    const { definition, run: confirmed } = c.req.valid('json')
    const refused = gate(c, confirmed)
    if (refused) return refused
    try {
      const run = runnerOf(c)
      const sql = await alterTableSql(await currentTable(run, c.req.valid('param').table), definition)
      if (confirmed && sql !== '') await run(sql, [], false)
      return c.json({ sql, ran: confirmed && sql !== '' } satisfies TableDefinitionAnswer)
    } catch (err) {
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.importCsv), validate('param', TableParam), project, async (c) => {
    const refused = gate(c, true)
    if (refused) return refused
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
    if (mediaType !== 'text/csv') return errorJson(c, 415, 'The request body must be a CSV file (Content-Type: text/csv)')
    const body = c.req.raw.body
    if (!body) return errorJson(c, 400, 'The CSV file is empty: it needs a header row naming the columns')
    try {
      const rel = await relationOf(runnerOf(c), c.req.valid('param').table)
      if (rel.kind !== 'table') throw new EditorRefusal(400, `'${rel.name}' is a view: rows cannot be imported into it`)
      const read = await readCsv(rel, body)
      if ('failure' in read) return c.json(read.failure, read.status)
      const sql = importBatchSql(rel, read.columns)
      await projectDbs.transaction(c.var.project.ref, { role: 'postgres', timeoutMs: importTimeoutMs }, async (tx) => {
        const bad: ImportFailure['bad_rows'] = []
        let total = 0
        for (const batch of read.batches) {
          await tx.query('savepoint "kp$batch"')
          try {
            await tx.query(sql, [batch.json])
            await tx.query('release savepoint "kp$batch"')
            continue
          } catch {
            await tx.query('rollback to savepoint "kp$batch"')
          }
          // The batch failed: each row on its own tells which ones the database refuses.
          const rows = JSON.parse(batch.json) as unknown[]
          for (const [i, row] of rows.entries()) {
            await tx.query('savepoint "kp$row"')
            try {
              await tx.query(sql, [JSON.stringify([row])])
              await tx.query('release savepoint "kp$row"')
            } catch (err) {
              await tx.query('rollback to savepoint "kp$row"')
              total++
              if (bad.length < BAD_ROWS_LISTED) bad.push({ line: batch.lines[i], message: err instanceof Error ? err.message : String(err) })
            }
          }
          if (bad.length >= BAD_ROWS_LISTED) break
        }
        // Throwing rolls the whole import back.
        if (bad.length > 0) throw new BadRows(bad, total)
      })
      return c.json({ inserted: read.rows } satisfies ImportAnswer, 201)
    } catch (err) {
      if (err instanceof BadRows) {
        const body: ImportFailure = {
          message: `${err.total}${err.rows.length >= BAD_ROWS_LISTED ? ' or more' : ''} row${err.total === 1 ? '' : 's'} could not be inserted; nothing was imported`,
          bad_rows: err.rows,
        }
        return c.json(body, 400)
      }
      return answer(c, err)
    }
  })

  app.on(...at(endpoints.exportCsv), validate('param', TableParam), project, async (c) => {
    const refused = gate(c, false)
    if (refused) return refused
    const run = runnerOf(c)
    let rel: Relation
    try {
      rel = await relationOf(run, c.req.valid('param').table)
    } catch (err) {
      return answer(c, err)
    }
    const names = rel.columns.map((col) => col.name)
    const selection = selectionOf(rel, [], [])
    const csv = stringify({ header: true, columns: names })
    // Pages are read as the stream drains, so a large table is never held whole.
    void (async () => {
      try {
        for (let offset = 0; ; offset += EXPORT_PAGE) {
          const page = await run(pageSql(rel, selection), [EXPORT_PAGE, offset], true)
          for (const row of page.rows) {
            if (!csv.write(names.map((n) => cellText(row[n])))) await new Promise((resolve) => csv.once('drain', resolve))
          }
          if (page.rows.length < EXPORT_PAGE) break
        }
        csv.end()
      } catch (err) {
        csv.destroy(err instanceof Error ? err : new Error(String(err)))
      }
    })()
    const filename = `${rel.name.replace(/[^\w.-]+/g, '_') || 'table'}.csv`
    return new Response(Readable.toWeb(csv) as ReadableStream, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(`${rel.name}.csv`)}`,
      },
    })
  })

  return app
}

/**
 * Bytes to text: UTF-8, or UTF-16 when the file starts with its byte order mark (spreadsheets save "Unicode text" so);
 * strict either way, so bytes of another encoding (Latin-1) are refused, never read as the wrong characters.
 */
function csvDecoder(): ReadableWritablePair<string, Uint8Array> {
  let decoder: TextDecoder | null = null
  let head = new Uint8Array(0)
  const pick = (bytes: Uint8Array) =>
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8'
  return new TransformStream<Uint8Array, string>({
    transform(chunk, controller) {
      if (decoder === null) {
        // The mark is two bytes: wait for them should the first chunk be shorter.
        head = new Uint8Array([...head, ...chunk])
        if (head.byteLength < 2) return
        decoder = new TextDecoder(pick(head), { fatal: true })
        chunk = head
      }
      const text = decoder.decode(chunk, { stream: true })
      if (text !== '') controller.enqueue(text)
    },
    flush(controller) {
      // A file shorter than the mark was never decoded: read it as UTF-8.
      const text = decoder === null ? new TextDecoder('utf-8', { fatal: true }).decode(head) : decoder.decode()
      if (text !== '') controller.enqueue(text)
    },
  })
}

type CsvRead =
  | { columns: string[]; batches: { json: string; lines: number[] }[]; rows: number }
  | { failure: ImportFailure; status: 400 | 413 }

/** Streams the body through strict UTF-8 and csv-parse into batches of JSON rows, or the file's refusal. */
async function readCsv(rel: Relation, body: ReadableStream<Uint8Array>): Promise<CsvRead> {
  let bytes = 0
  let tooLarge = false
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength
        if (bytes > MAX_IMPORT_BYTES) {
          tooLarge = true
          controller.error(new Error('too large'))
        } else controller.enqueue(chunk)
      },
    }),
  )
  const decoded = counted.pipeThrough(csvDecoder())
  const parser = parseCsv({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true })
  const piped = pipeline(Readable.fromWeb(decoded as import('node:stream/web').ReadableStream<string>), parser)
  piped.catch(() => {})

  let columns: string[] | undefined
  const batches: { json: string; lines: number[] }[] = []
  let pending: Record<string, string | null>[] = []
  let lines: number[] = []
  const bad: ImportFailure['bad_rows'] = []
  let badTotal = 0
  let rows = 0
  const flush = () => {
    if (pending.length === 0) return
    batches.push({ json: JSON.stringify(pending), lines })
    pending = []
    lines = []
  }
  const refuse = (message: string, status: 400 | 413 = 400): CsvRead => ({ failure: { message, bad_rows: bad }, status })
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const { record, info } = item
      if (!columns) {
        // Text of two bytes a character read as UTF-8 puts a NUL beside every ASCII letter: say so, not which names.
        if (record.some((name) => name.includes('\u0000'))) {
          return refuse('The CSV file looks like UTF-16 without its byte order mark: save it as UTF-8 (or UTF-16 with a byte order mark) and try again; nothing was imported')
        }
        columns = record.map((name) => name.trim())
        const unknown = columns.filter((name) => !rel.columns.some((col) => col.name === name))
        if (unknown.length > 0) {
          return refuse(`The header names columns table '${rel.name}' does not have: ${unknown.map((n) => `'${n}'`).join(', ')}; nothing was imported`)
        }
        if (new Set(columns).size !== columns.length) return refuse('The header names a column twice; nothing was imported')
        continue
      }
      const problem =
        record.length !== columns.length
          ? `has ${record.length} field${record.length === 1 ? '' : 's'} where the header has ${columns.length}`
          : record.some((value) => value.includes('\u0000'))
            ? 'contains a NUL character, which Postgres text cannot hold'
            : undefined
      if (problem) {
        badTotal++
        if (bad.length < BAD_ROWS_LISTED) bad.push({ line: info.lines, message: `Line ${info.lines} ${problem}` })
        continue
      }
      if (badTotal > 0) continue
      const row: Record<string, string | null> = {}
      columns.forEach((name, i) => {
        row[name] = record[i] === '' ? null : record[i]
      })
      pending.push(row)
      lines.push(info.lines)
      rows++
      if (pending.length >= IMPORT_BATCH) flush()
    }
    await piped
  } catch (err) {
    if (tooLarge) return refuse(`The CSV file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; nothing was imported`, 413)
    if (err instanceof CsvError) return refuse(`The CSV file could not be read: ${err.message}; nothing was imported`)
    if (err instanceof TypeError) return refuse('The CSV file is not UTF-8 text, nor UTF-16 with its byte order mark (save it as UTF-8 and try again); nothing was imported')
    throw err
  }
  if (!columns) return refuse('The CSV file is empty: it needs a header row naming the columns')
  if (badTotal > 0) {
    return refuse(`${badTotal} row${badTotal === 1 ? '' : 's'} of the CSV file ${badTotal === 1 ? 'is' : 'are'} malformed; nothing was imported`)
  }
  flush()
  return { columns, batches, rows }
}
