/**
 * Running migrations on a project database the way the platform's CLI does: each file in its own transaction,
 * statement by statement (so a failure names its statement), recorded in the same transaction in
 * supabase_migrations.schema_migrations (version, name, statements); the seed once, recorded in
 * supabase_migrations.seed_files (path, hash). What is recorded is never run again: a step repeated after a crash
 * (the project database committed, the store did not) finds its record and does nothing.
 */
import { createHash } from 'node:crypto'
import type { MigrationError, RecordedMigration } from '../../../contracts/branching'
import { splitStatements } from '../../projectdb/statements'
import { ProjectDbError, type ProjectTx } from '../../projectdb/types'

export const HISTORY_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, statements text[]);
create table if not exists supabase_migrations.seed_files (path text primary key, hash text not null);
`

/**
 * The statements of a script; transaction control (BEGIN, COMMIT …) is left out: the file runs in our transaction.
 * A script the parser refuses fails here with the parser's message, the whole file as its statement: it is never
 * run as it is, since what the parser cannot read could hide a COMMIT that ends our transaction.
 */
export async function statementsOf(sql: string): Promise<string[]> {
  const split = await splitStatements(sql)
  if (!split.ok) {
    throw new StatementFailure({ message: split.error.message, code: split.error.code ?? null, statement: sql })
  }
  return split.statements.filter((s) => !s.endsTransaction).map((s) => s.text.trim()).filter((s) => s !== '')
}

/** A failed statement's error as the contract reports it. */
export function migrationError(err: unknown, statement: string): MigrationError {
  if (err instanceof ProjectDbError) {
    return { message: err.message, code: /^[0-9A-Z]{5}$/.test(err.code) ? err.code : null, statement }
  }
  return { message: (err as Error)?.message ?? String(err), code: null, statement }
}

/** Thrown inside the transaction so it rolls back; carries the statement that failed. */
export class StatementFailure extends Error {
  constructor(readonly error: MigrationError) {
    super(error.message)
  }
}

async function runStatements(tx: ProjectTx, statements: string[]): Promise<void> {
  for (const statement of statements) {
    try {
      await tx.exec(statement)
    } catch (err) {
      throw new StatementFailure(migrationError(err, statement))
    }
  }
}

export type StepOutcome = { ran: boolean } | { error: MigrationError }

/**
 * Runs one migration in `tx` (its own transaction) unless the history has it. A version recorded under another
 * name is a failure (two files with one version). Throws StatementFailure for a failing statement.
 */
export async function applyMigration(tx: ProjectTx, m: { version: string; name: string; sql: string }): Promise<{ ran: boolean }> {
  await tx.exec(HISTORY_SQL)
  const { rows } = await tx.query('select name from supabase_migrations.schema_migrations where version = $1', [m.version])
  if (rows[0]) {
    if (rows[0].name === m.name) return { ran: false }
    throw new StatementFailure({
      message: `duplicate key value violates unique constraint "schema_migrations_pkey": version ${m.version} is already recorded for '${String(rows[0].name)}'`,
      code: '23505',
      statement: `insert into supabase_migrations.schema_migrations (version, name, statements) values ('${m.version}', '${m.name}', …)`,
    })
  }
  const statements = await statementsOf(m.sql)
  await runStatements(tx, statements)
  await tx.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
    m.version,
    m.name,
    statements,
  ])
  return { ran: true }
}

/** Runs an already recorded migration's statements (a merge, from the branch's history) with the same rule. */
export async function applyRecorded(tx: ProjectTx, m: RecordedMigration & { statements: string[] }): Promise<{ ran: boolean }> {
  await tx.exec(HISTORY_SQL)
  const { rows } = await tx.query('select 1 from supabase_migrations.schema_migrations where version = $1', [m.version])
  if (rows[0]) return { ran: false }
  await runStatements(tx, m.statements)
  await tx.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
    m.version,
    m.name,
    m.statements,
  ])
  return { ran: true }
}

/** Runs the seed once per path (recorded with its hash). */
export async function applySeed(tx: ProjectTx, path: string, sql: string): Promise<{ ran: boolean }> {
  await tx.exec(HISTORY_SQL)
  const { rows } = await tx.query('select 1 from supabase_migrations.seed_files where path = $1', [path])
  if (rows[0]) return { ran: false }
  await runStatements(tx, await statementsOf(sql))
  const hash = createHash('sha256').update(sql).digest('hex')
  await tx.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [path, hash])
  return { ran: true }
}

export interface HistoryEntry extends RecordedMigration {
  statements: string[]
}

/** The database's recorded migrations in version order ([] when it has no history yet). */
export async function readHistory(tx: ProjectTx, withStatements = false): Promise<HistoryEntry[]> {
  const { rows: exists } = await tx.query(`select to_regclass('supabase_migrations.schema_migrations') is not null as present`)
  if (!exists[0]?.present) return []
  const { rows } = await tx.query(
    `select version, coalesce(name, '') as name${withStatements ? ', coalesce(statements, array[]::text[]) as statements' : ''}
     from supabase_migrations.schema_migrations order by version`,
  )
  return rows.map((r) => ({
    version: String(r.version),
    name: String(r.name),
    statements: withStatements ? ((r.statements as string[] | null) ?? []) : [],
  }))
}
