/**
 * Runs a person's SQL on a project's database, in one transaction as the project owner (read-only when asked), and
 * answers the last statement's columns and rows.
 *
 * The rows are read as JSON made by Postgres, so every value arrives as Postgres prints it (values.ts): the script's
 * statements before the last run as they are, and the last one, when it returns rows and may be a WITH query, runs
 * as `with q as (<statement>) select t.*, row_to_json(q)::text from …` where `t.*` is the statement's own columns
 * kept empty (a left join to `limit 0`): their types name the columns even when there is no row, and only the JSON
 * carries the values. A WITH query runs once however often it is referred to, so an INSERT … RETURNING inserts once.
 * The few row-returning statements that cannot be a WITH query (EXPLAIN, SHOW, SELECT INTO, a WITH that writes …)
 * run as they are and their driver values are made JSON-safe instead.
 *
 * Postgres error positions are 1-based characters in the text it received; they are given back relative to the
 * person's script.
 *
 * What keeps a script inside its transaction (and a read-only one read-only) does not rest on reading its text alone:
 *  - a script the parser refuses is refused, never run as it is;
 *  - each statement is sent on its own, so the server reads one statement at a time, the one the parser saw (PGlite's
 *    query is the extended protocol, which takes one command per message; node-postgres sends a query without
 *    parameters through the simple protocol, where the check below of how text is read keeps the server's cut
 *    the parser's);
 *  - before the first statement and after each one, a guard query checks that the session is still in the
 *    transaction it began in (its virtual transaction id, which no statement can set), still read-only when asked,
 *    and still reads text as the parser did (standard_conforming_strings on, client_encoding UTF8: with them changed,
 *    Postgres would cut the next statement's text into other statements than the parser did). A statement that
 *    ended the transaction or changed them stops the script there, before anything else runs.
 * BEGIN READ ONLY is fixed by the guard's first query (a read-only transaction's mode can be changed only before
 * it), so SET TRANSACTION READ WRITE fails; COMMIT inside DO or a procedure fails in a transaction block.
 */
import type { QueryColumn } from '../../../contracts/database'
import { ProjectDbError, type DbRole, type ProjectDatabases, type ProjectQueryResult, type ProjectTx } from '../../projectdb/types'
import { charLength, splitStatements, type Statement } from '../../projectdb/statements'
import { decimalColumnNames, plainRow, rowFromJson } from './values'

export interface QueryRun {
  columns: QueryColumn[]
  rows: Record<string, unknown>[]
  rowCount: number
  command: string
  durationMs: number
  readOnly: boolean
}

/** A query refused before it reached the database, or stopped by the guard (400 with this message). */
export class QueryRefused extends Error {
  readonly code?: string
  readonly position?: number
  constructor(message: string, fields: { code?: string; position?: number } = {}) {
    super(message)
    this.name = 'QueryRefused'
    this.code = fields.code
    this.position = fields.position
  }
}

/**
 * Where the session stands: its transaction and the settings that decide how the next statement's text is read.
 * Every name is schema-qualified and `=` is pg_catalog's, so a script's search_path, functions or operators cannot
 * answer in the guard's place; the values are compared here, not in SQL.
 */
const GUARD_SQL = `select l.virtualtransaction::text as tx,
  pg_catalog.current_setting('transaction_read_only') as read_only,
  pg_catalog.current_setting('standard_conforming_strings') as conforming_strings,
  pg_catalog.current_setting('client_encoding') as encoding
from pg_catalog.pg_locks l
where l.locktype operator(pg_catalog.=) 'virtualxid' and l.pid operator(pg_catalog.=) pg_catalog.pg_backend_pid()`

interface Guard {
  /** Throws QueryRefused when the statement just run left the transaction or changed how text is read. */
  check(after: Statement | undefined): Promise<void>
}

async function guardOf(tx: ProjectTx, readOnly: boolean): Promise<Guard> {
  const stand = async () => {
    const { rows } = await tx.query(GUARD_SQL)
    const row = rows[0] ?? {}
    return {
      tx: typeof row.tx === 'string' ? row.tx : '',
      readOnly: row.read_only === 'on',
      conformingStrings: row.conforming_strings === 'on',
      encoding: String(row.encoding ?? ''),
    }
  }
  // The first query of the transaction: from here on its read-only mode cannot change.
  const begun = await stand()
  const check = async (after: Statement | undefined) => {
    const now = begun.tx === '' ? undefined : await stand()
    const where = after ? ` (stopped after the ${after.command} statement at position ${after.start + 1})` : ''
    if (!now || now.tx !== begun.tx) {
      throw new QueryRefused(`The query ended the transaction it runs in; nothing after that was run${where}`, { code: '25000' })
    }
    if (readOnly && !now.readOnly) {
      throw new QueryRefused(`The query left read-only mode; nothing after that was run${where}`, { code: '25006' })
    }
    if (!now.conformingStrings || now.encoding !== 'UTF8') {
      throw new QueryRefused(
        'standard_conforming_strings must stay on and client_encoding UTF8 here: the script is cut into statements ' +
          `as Postgres reads it with them${where}`,
        { code: '22023' },
      )
    }
  }
  await check(undefined)
  return { check }
}

const ROW = 'kp$row'
const WRAP_HEAD = 'with "kp$q" as ('
// With a row limit, only that many rows become JSON (a writing WITH query still runs to its end, as Postgres runs one).
const wrap = (text: string, limit?: number) =>
  `${WRAP_HEAD}${text}\n) select "kp$t".*, "kp$r"."${ROW}" from (select row_to_json("kp$q")::text as "${ROW}" from "kp$q"` +
  `${limit === undefined ? '' : ` limit ${Math.floor(limit)}`}) "kp$r" ` +
  `left join (select * from "kp$q" limit 0) "kp$t" on true`

/** Type names of builtin types (oids below 16384 are the same in every database of a major version). */
const builtinTypeNames = new Map<number, string>()
const FIRST_NORMAL_OID = 16384

async function typeNames(tx: ProjectTx, oids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>()
  const missing: number[] = []
  for (const oid of new Set(oids)) {
    const known = builtinTypeNames.get(oid)
    if (known) names.set(oid, known)
    else missing.push(oid)
  }
  if (missing.length > 0) {
    const { rows } = await tx.query(`select oid::int as oid, format_type(oid, null) as name from pg_type where oid = any($1::int[])`, [missing])
    for (const row of rows) {
      const oid = Number(row.oid)
      names.set(oid, String(row.name))
      if (oid < FIRST_NORMAL_OID) builtinTypeNames.set(oid, String(row.name))
    }
  }
  return names
}

/** Moves a Postgres error position from the text it ran to the person's script (undefined when outside it). */
function shifted(error: unknown, map: (position: number) => number | undefined): unknown {
  if (!(error instanceof ProjectDbError) || error.position === undefined) return error
  return new ProjectDbError(error.message, {
    code: error.code,
    position: map(error.position),
    detail: error.detail,
    hint: error.hint,
  })
}

async function inScript<T>(run: () => Promise<T>, map: (position: number) => number | undefined): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw shifted(error, map)
  }
}

interface LastResult {
  fields: { name: string; dataTypeID: number }[]
  rows: Record<string, unknown>[]
  rowCount: number
}

/** The last statement, its rows read as Postgres's JSON when it allows (at most `limit` rows, when given). */
async function runLast(tx: ProjectTx, last: Statement, parameters: unknown[] | undefined, limit?: number): Promise<LastResult> {
  if (last.wrappable) {
    const textLength = charLength(last.text)
    const result = await inScript(
      () => tx.query(wrap(last.text, limit), parameters),
      (p) => (p > WRAP_HEAD.length && p <= WRAP_HEAD.length + textLength ? last.start + p - WRAP_HEAD.length : undefined),
    )
    const fields = result.fields.slice(0, -1)
    const decimals = decimalColumnNames(fields)
    const rows = result.rows.map((row) => rowFromJson(String(row[ROW]), decimals))
    return { fields, rows, rowCount: rows.length }
  }
  const result = await inScript(() => tx.query(last.text, parameters), (p) => last.start + p)
  const read = lastOf(result)
  return limit === undefined || read.rows.length <= limit ? read : { ...read, rows: read.rows.slice(0, limit), rowCount: limit }
}

function lastOf(result: ProjectQueryResult | undefined): LastResult {
  if (!result) return { fields: [], rows: [], rowCount: 0 }
  const rows = result.rows.map((row) => plainRow(row, result.fields))
  return { fields: result.fields, rows, rowCount: rows.length > 0 ? rows.length : result.affectedRows }
}

export interface RunQueryOptions {
  parameters?: unknown[]
  readOnly: boolean
  /**
   * The role the script runs as (default the project owner) and, for an API role, the request.jwt.claims it runs
   * with: the transaction REST runs a request in, so row level security decides as it does there.
   */
  role?: DbRole
  claims?: Record<string, unknown>
}

/** One statement's answer in a script run statement by statement. */
export interface StatementRun {
  columns: QueryColumn[]
  rows: Record<string, unknown>[]
  rowCount: number
  command: string
  /** More rows than the row limit: `rows` holds the first `rowLimit`. */
  capped: boolean
}

/** The statements of a script the runner accepts, or QueryRefused. */
async function acceptedStatements(sql: string, parameters: unknown[] | undefined): Promise<Statement[]> {
  const split = await splitStatements(sql)
  if (!split.ok) throw new QueryRefused(split.error.message, { code: split.error.code, position: split.error.position })
  if (parameters && split.statements.length > 1) {
    throw new QueryRefused('A query with parameters must be a single statement')
  }
  if (split.statements.some((s) => s.endsTransaction)) {
    throw new QueryRefused(
      'BEGIN, COMMIT, ROLLBACK and PREPARE TRANSACTION cannot be used here: each query already runs in a transaction ' +
        'of its own, committed when every statement succeeds (SAVEPOINT and ROLLBACK TO SAVEPOINT work)',
    )
  }
  if (split.statements.some((s) => s.serverCopy)) {
    throw new QueryRefused('COPY to or from a file or program on the database server is not allowed')
  }
  return split.statements
}

const txOptions = (opts: RunQueryOptions) => ({ role: opts.role ?? ('postgres' as const), claims: opts.claims, readOnly: opts.readOnly })

/** Runs a script (or one statement with parameters) in one transaction. Throws ProjectDbError or QueryRefused. */
export async function runProjectQuery(dbs: ProjectDatabases, ref: string, sql: string, opts: RunQueryOptions): Promise<QueryRun> {
  const parameters = opts.parameters && opts.parameters.length > 0 ? opts.parameters : undefined
  const statements = await acceptedStatements(sql, parameters)

  const started = performance.now()
  const result = await dbs.transaction(ref, txOptions(opts), async (tx) => {
    const guard = await guardOf(tx, opts.readOnly)
    let last: LastResult
    let command = ''
    if (statements.length === 0) {
      last = { fields: [], rows: [], rowCount: 0 }
    } else {
      const final = statements[statements.length - 1]
      for (const statement of statements.slice(0, -1)) {
        await inScript(() => tx.query(statement.text), (p) => statement.start + p)
        await guard.check(statement)
      }
      last = await runLast(tx, final, parameters)
      await guard.check(final)
      command = final.command
    }
    const names = await typeNames(tx, last.fields.map((f) => f.dataTypeID))
    const columns = last.fields.map((f) => ({ name: f.name, type: names.get(f.dataTypeID) ?? String(f.dataTypeID) }))
    return { columns, rows: last.rows, rowCount: last.rowCount, command }
  })
  return { ...result, durationMs: Math.round((performance.now() - started) * 100) / 100, readOnly: opts.readOnly }
}

/**
 * Runs a script as runProjectQuery does (one transaction, the same guards, the same refusals), and answers every
 * statement's result, each read as the last one is and capped at `rowLimit` rows (one more is read to tell a capped
 * answer). Throws ProjectDbError or QueryRefused.
 */
export async function runProjectScript(
  dbs: ProjectDatabases,
  ref: string,
  sql: string,
  opts: RunQueryOptions & { rowLimit: number },
): Promise<{ results: StatementRun[]; durationMs: number; readOnly: boolean }> {
  const statements = await acceptedStatements(sql, undefined)
  const started = performance.now()
  const results = await dbs.transaction(ref, txOptions(opts), async (tx) => {
    const guard = await guardOf(tx, opts.readOnly)
    const runs: Array<{ statement: Statement; read: LastResult }> = []
    for (const statement of statements) {
      runs.push({ statement, read: await runLast(tx, statement, undefined, opts.rowLimit + 1) })
      await guard.check(statement)
    }
    const names = await typeNames(tx, runs.flatMap((r) => r.read.fields.map((f) => f.dataTypeID)))
    return runs.map(({ statement, read }): StatementRun => {
      const capped = read.rows.length > opts.rowLimit
      const rows = capped ? read.rows.slice(0, opts.rowLimit) : read.rows
      return {
        columns: read.fields.map((f) => ({ name: f.name, type: names.get(f.dataTypeID) ?? String(f.dataTypeID) })),
        rows,
        rowCount: capped ? rows.length : read.rowCount,
        command: statement.command,
        capped,
      }
    })
  })
  return { results, durationMs: Math.round((performance.now() - started) * 100) / 100, readOnly: opts.readOnly }
}
