/**
 * A SQL script cut into its statements by the real PostgreSQL parser (libpg-query: PostgreSQL 18's grammar, a
 * superset of what a PostgreSQL 15 server accepts), so quotes, dollar quotes, comments and function bodies never
 * mislead a split. For each statement: its text, where it starts in the script (in characters, as Postgres counts
 * error positions), the command tag shown to a person, and whether its rows can be read as JSON made by Postgres
 * (see features/database/run.ts).
 */
import { parse } from 'libpg-query'

export interface Statement {
  /** The statement's text, as written (without its `;`). */
  text: string
  /** Offset of the statement in the script in characters (code points, as Postgres counts error positions). */
  start: number
  /** Offset of the statement in the script as a JavaScript string index (UTF-16 units), for slicing. */
  offset: number
  /** The command tag's verb: 'SELECT', 'INSERT', 'CREATE TABLE' … */
  command: string
  /** A row-returning statement that may be the query of a top-level WITH (see run.ts). */
  wrappable: boolean
  /** BEGIN, COMMIT, ROLLBACK, PREPARE TRANSACTION …: would end the transaction the query runs in. */
  endsTransaction: boolean
  /** COPY to or from a file or a program on the database server. */
  serverCopy: boolean
}

type AstNode = Record<string, unknown>

/** A statement node is `{ SelectStmt: {...} }`: its one key names its kind. */
function kindOf(node: unknown): [string, AstNode] {
  const entry = Object.entries((node ?? {}) as AstNode)[0]
  return entry ? [entry[0], (entry[1] ?? {}) as AstNode] : ['', {}]
}

const OBJECT_WORDS: Record<string, string> = {
  OBJECT_MATVIEW: 'MATERIALIZED VIEW',
  OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE',
  OBJECT_TABCONSTRAINT: 'TABLE',
  OBJECT_OPCLASS: 'OPERATOR CLASS',
  OBJECT_OPFAMILY: 'OPERATOR FAMILY',
  OBJECT_FDW: 'FOREIGN DATA WRAPPER',
  OBJECT_FOREIGN_SERVER: 'SERVER',
  OBJECT_STATISTIC_EXT: 'STATISTICS',
  OBJECT_TSCONFIGURATION: 'TEXT SEARCH CONFIGURATION',
  OBJECT_TSDICTIONARY: 'TEXT SEARCH DICTIONARY',
  OBJECT_TSPARSER: 'TEXT SEARCH PARSER',
  OBJECT_TSTEMPLATE: 'TEXT SEARCH TEMPLATE',
}

const objectWords = (type: unknown) =>
  typeof type === 'string' ? (OBJECT_WORDS[type] ?? type.replace(/^OBJECT_/, '').replace(/_/g, ' ')) : 'TABLE'

/** The command tag Postgres reports for a statement (its verb, without the row count). */
function commandOf(kind: string, node: AstNode): string {
  switch (kind) {
    case 'SelectStmt':
      return 'SELECT'
    case 'InsertStmt':
      return 'INSERT'
    case 'UpdateStmt':
      return 'UPDATE'
    case 'DeleteStmt':
      return 'DELETE'
    case 'MergeStmt':
      return 'MERGE'
    case 'CreateStmt':
      return 'CREATE TABLE'
    case 'ViewStmt':
      return 'CREATE VIEW'
    case 'IndexStmt':
      return 'CREATE INDEX'
    case 'CreateEnumStmt':
    case 'CompositeTypeStmt':
    case 'CreateRangeStmt':
      return 'CREATE TYPE'
    case 'AlterEnumStmt':
      return 'ALTER TYPE'
    case 'CreateFunctionStmt':
      return node.is_procedure ? 'CREATE PROCEDURE' : 'CREATE FUNCTION'
    case 'CreateTableAsStmt':
      return node.objtype === 'OBJECT_MATVIEW' ? 'CREATE MATERIALIZED VIEW' : 'CREATE TABLE AS'
    case 'RefreshMatViewStmt':
      return 'REFRESH MATERIALIZED VIEW'
    case 'CreateTrigStmt':
      return 'CREATE TRIGGER'
    case 'DropStmt':
      return `DROP ${objectWords(node.removeType)}`
    case 'AlterTableStmt':
      return `ALTER ${objectWords(node.objtype)}`
    case 'RenameStmt':
      return `ALTER ${objectWords(node.renameType === 'OBJECT_COLUMN' || node.renameType === 'OBJECT_TABCONSTRAINT' ? node.relationType : node.renameType)}`
    case 'AlterObjectSchemaStmt':
    case 'AlterOwnerStmt':
      return `ALTER ${objectWords(node.objectType)}`
    case 'GrantStmt':
    case 'GrantRoleStmt':
      return node.is_grant ? 'GRANT' : 'REVOKE'
    case 'TruncateStmt':
      return 'TRUNCATE TABLE'
    case 'LockStmt':
      return 'LOCK TABLE'
    case 'VariableSetStmt':
      return node.kind === 'VAR_RESET' || node.kind === 'VAR_RESET_ALL' ? 'RESET' : 'SET'
    case 'VariableShowStmt':
      return 'SHOW'
    case 'VacuumStmt':
      return node.is_vacuumcmd ? 'VACUUM' : 'ANALYZE'
    case 'CreatedbStmt':
      return 'CREATE DATABASE'
    case 'DropdbStmt':
      return 'DROP DATABASE'
    case 'CreateSeqStmt':
      return 'CREATE SEQUENCE'
    case 'AlterSeqStmt':
      return 'ALTER SEQUENCE'
    case 'CreateSchemaStmt':
      return 'CREATE SCHEMA'
    case 'CreatePolicyStmt':
      return 'CREATE POLICY'
    case 'AlterPolicyStmt':
      return 'ALTER POLICY'
    case 'TransactionStmt':
      return String(node.kind ?? '').replace(/^TRANS_STMT_/, '').replace(/_/g, ' ')
    default:
      // CreateExtensionStmt → CREATE EXTENSION, CommentStmt → COMMENT, DoStmt → DO, ExplainStmt → EXPLAIN …
      return kind.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase()
  }
}

function hasReturning(node: AstNode): boolean {
  const clause = (node.returningClause ?? {}) as { exprs?: unknown[] }
  const legacy = node.returningList as unknown[] | undefined
  return (clause.exprs?.length ?? 0) > 0 || (legacy?.length ?? 0) > 0
}

/** A WITH clause some query of which writes (INSERT/UPDATE/DELETE/MERGE): Postgres allows it only at the top level. */
function withWrites(node: AstNode): boolean {
  const ctes = ((node.withClause ?? {}) as { ctes?: unknown[] }).ctes ?? []
  return ctes.some((cte) => {
    const [, body] = kindOf(cte)
    const [kind] = kindOf(body.ctequery)
    return kind !== 'SelectStmt'
  })
}

function isWrappable(kind: string, node: AstNode): boolean {
  if (withWrites(node)) return false
  if (kind === 'SelectStmt') return !node.intoClause
  if (kind === 'InsertStmt' || kind === 'UpdateStmt' || kind === 'DeleteStmt' || kind === 'MergeStmt') return hasReturning(node)
  return false
}

const KEEPS_TRANSACTION = new Set(['TRANS_STMT_SAVEPOINT', 'TRANS_STMT_RELEASE', 'TRANS_STMT_ROLLBACK_TO'])

/** Characters (code points) in a string: Postgres's error positions count these. */
export const charLength = (text: string) => [...text].length

/** Why the parser refused a script, as Postgres itself would report it where it can. */
export interface ParseFailure {
  /** The parser's own message ('syntax error at or near "frm"'). */
  message: string
  /** SQLSTATE when known: 42601 for the grammar's syntax errors, 54001 for a script nested too deeply to parse. */
  code?: string
  /** 1-based character position in the script, as Postgres reports error positions. */
  position?: number
}

export type SplitResult = { ok: true; statements: Statement[] } | { ok: false; error: ParseFailure }

/** libpg-query throws an SqlError with `sqlDetails` for what the grammar refuses, a RangeError when it runs out of stack. */
function parseFailure(err: unknown): ParseFailure {
  const details = (err as { sqlDetails?: { message?: unknown; cursorPosition?: unknown; functionName?: unknown } })?.sqlDetails
  if (details && typeof details.message === 'string') {
    const cursor = details.cursorPosition
    return {
      message: details.message,
      // scanner_yyerror is the grammar's syntax error, ERRCODE_SYNTAX_ERROR in Postgres; other parser errors carry
      // codes of their own that the parser does not tell.
      ...(details.functionName === 'scanner_yyerror' ? { code: '42601' } : {}),
      // The parser counts from 0 in characters; Postgres reports positions from 1.
      ...(typeof cursor === 'number' && cursor >= 0 ? { position: cursor + 1 } : {}),
    }
  }
  const message = err instanceof Error ? err.message : String(err)
  if (err instanceof RangeError) {
    return { message: `the query is nested too deeply to parse (${message})`, code: '54001' }
  }
  return { message: `the query could not be parsed (${message})` }
}

/**
 * The statements of a script, or why the parser refuses it. A refused script is never run as it is: what the parser
 * cannot read, no check built on it can vouch for (a COMMIT hidden in it would end the transaction it runs in).
 */
export async function splitStatements(sql: string): Promise<SplitResult> {
  let stmts: { stmt?: unknown; stmt_location?: number; stmt_len?: number }[]
  try {
    stmts = (await parse(sql)).stmts ?? []
  } catch (err) {
    return { ok: false, error: parseFailure(err) }
  }
  const bytes = Buffer.from(sql, 'utf8')
  const statements = stmts.map((raw): Statement => {
    const from = raw.stmt_location ?? 0
    const to = raw.stmt_len ? from + raw.stmt_len : bytes.length
    const [kind, node] = kindOf(raw.stmt)
    // The parser counts bytes of UTF-8.
    const before = bytes.subarray(0, from).toString('utf8')
    return {
      text: bytes.subarray(from, to).toString('utf8'),
      start: charLength(before),
      offset: before.length,
      command: commandOf(kind, node),
      wrappable: isWrappable(kind, node),
      endsTransaction: kind === 'TransactionStmt' && !KEEPS_TRANSACTION.has(String(node.kind)),
      serverCopy: kind === 'CopyStmt' && (Boolean(node.is_program) || Boolean(node.filename)),
    }
  })
  return { ok: true, statements }
}
