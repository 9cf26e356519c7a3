/**
 * A project's own Postgres database, one interface over both engines:
 *  - embedded (no DATABASE_URL): a PGlite data folder per project under DATA_DIR/projects/<ref>, each open one
 *    hosted in a process of its own (closing it frees its memory), at most PROJECT_DB_MAX_OPEN open at once, closed
 *    after PROJECT_DB_IDLE_MS unused;
 *  - DATABASE_URL: a database per project on that server, `CREATE DATABASE … TEMPLATE …`.
 * New databases come from a template prepared once (roles anon, authenticated, service_role with BYPASSRLS, the
 * grants of schema public, schema storage), never from an initdb per project.
 * A project's queries are serialised (PGlite has one connection); each `transaction` is one Postgres transaction
 * run as the role asked for, with `request.jwt.claims` set for it, committed when `fn` resolves and rolled back
 * when it throws. A query past its time-out is stopped (on PGlite by ending the project's process) and throws
 * ProjectDbError with code 'query_timeout'; the next query works.
 */

/** The roles a request can run as: the owner (SQL Editor, Management API) or one of the API roles. */
export type DbRole = 'postgres' | 'anon' | 'authenticated' | 'service_role'
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const

/** `R` is the shape of a row, as the caller's SQL names its columns (Record<string, unknown> when it does not say). */
export interface ProjectQueryResult<R = Record<string, unknown>> {
  rows: R[]
  /** The result's columns in order (present even with no rows); dataTypeID is the type's oid. */
  fields: { name: string; dataTypeID: number }[]
  /** Rows affected by INSERT/UPDATE/DELETE (or returned by SELECT). */
  affectedRows: number
}

export interface ProjectTx {
  /**
   * One statement with `$1`-style parameters. `R` declares the shape of its rows, as the store's `query<R>` does: the
   * caller's word for what its SQL selects, not checked when it runs.
   */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<ProjectQueryResult<R>>
  /** A script of one or more statements, no parameters; one result per statement. */
  exec(sql: string): Promise<ProjectQueryResult[]>
}

export interface TransactionOptions {
  /** Default 'postgres' (the project owner). */
  role?: DbRole
  /** Set as `request.jwt.claims` (JSON) for the transaction, as PostgREST does; `auth.uid()`-style SQL reads it. */
  claims?: Record<string, unknown>
  /** BEGIN READ ONLY. */
  readOnly?: boolean
  /**
   * BEGIN ISOLATION LEVEL REPEATABLE READ: every statement sees the database as the first one did, so two looks at
   * the same rows agree even when another session commits between them. Default: read committed.
   */
  repeatableRead?: boolean
  /** Stops the transaction past this many ms (default: the configured query time-out). */
  timeoutMs?: number
  /**
   * The platform's own work on a database it is building (a preview branch's migrations run while its project is
   * COMING_UP): no status check and no read of the store. The database must exist. The lifecycle engine runs it as
   * a transition's project work, with no store transaction open.
   */
  platform?: boolean
  /**
   * Who the project belongs to (its organization), for the fair sharing of the open databases (manager.ts); the
   * platform's wrapper (index.ts) tells it, callers do not.
   */
  tenant?: string
}

/** A Postgres error (or one of ours) with the fields PostgREST and the SQL Editor report. */
export class ProjectDbError extends Error {
  /**
   * SQLSTATE ('42P01'), or one of ours: 'query_timeout', 'database_unavailable' (the project is not ACTIVE_HEALTHY,
   * or its database cannot be opened), 'invalid_ref', 'transaction_closed' (a query after the transaction ended),
   * 'database_error' (an error without a SQLSTATE), 'database_busy' (every open-database slot is held by others
   * past the wait bound; `retryAfterSeconds` says when to try again).
   */
  readonly code: string
  /** 1-based character position in the query, when Postgres reports one. */
  readonly position?: number
  readonly detail?: string
  readonly hint?: string
  /** 'database_busy': seconds after which a retry may find a slot (the answer's Retry-After). */
  readonly retryAfterSeconds?: number
  constructor(message: string, fields: { code: string; position?: number; detail?: string; hint?: string; retryAfterSeconds?: number }) {
    super(message)
    this.name = 'ProjectDbError'
    this.code = fields.code
    this.position = fields.position
    this.detail = fields.detail
    this.hint = fields.hint
    this.retryAfterSeconds = fields.retryAfterSeconds
  }
}

export interface ProjectDatabases {
  readonly kind: 'pglite' | 'postgres'
  /**
   * Creates the project's database from the template unless it exists (idempotent: a crash half-way leaves
   * nothing that counts as existing, and the next call finishes it). `schemaSql`, when given, runs once on the
   * new database as the owner (the demo schemas).
   */
  create(ref: string, opts?: { schemaSql?: string; tenant?: string }): Promise<void>
  exists(ref: string): Promise<boolean>
  /** One transaction on the project's database (opened on demand). Throws ProjectDbError. */
  transaction<T>(ref: string, opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T>
  /** Closes the project's database if open (pause closes it; the next transaction reopens it). */
  close(ref: string): Promise<void>
  /** Closes and deletes the project's database. */
  drop(ref: string): Promise<void>
  /** Refs of the databases open now. */
  openRefs(): string[]
  /**
   * Prepares the template now (PGlite: its one initdb; PostgreSQL: the roles and the template database), so the first
   * database made later is only a copy. The server calls it once it listens; creation prepares it anyway when needed.
   */
  prepare?(): Promise<void>
  /** Closes every open database (server shutdown). */
  closeAll(): Promise<void>
  /**
   * Calls `onPayload` with each NOTIFY on `channel` of the project's database, from any session, once its
   * transaction commits (the realtime service's change capture). Listening does not open the database: PGlite's
   * process listens whenever it is open, and notifications only happen while it is; on PostgreSQL one dedicated
   * connection per listened database. The returned function stops listening.
   */
  listen?(ref: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** The engine's `server_version` ('18.6' on PGlite, '15.x' on PostgreSQL 15): new projects' db_version. */
  serverVersion?(): Promise<string>
  /**
   * PGlite: lends the project's one session to a client of the Postgres port until it releases it (manager.ts).
   * The platform's wrapper (index.ts) refuses a project that is not ACTIVE_HEALTHY, as `transaction` does.
   */
  lease?(ref: string, opts: LeaseOptions): Promise<RawLease>
  /**
   * Sets database-level settings of the project's database (names and values checked by the caller; a value replaces
   * the one set before), then closes the platform's open session of it, so every session after starts with them:
   * PostgreSQL `ALTER DATABASE … SET` by the platform's own user; PGlite, which reads no database-level settings,
   * its folder's configuration, written again before each start.
   */
  setDatabaseSettings?(ref: string, settings: Record<string, string>): Promise<void>
}

/** See manager.ts. */
export interface RawLease {
  raw(bytes: Uint8Array): Promise<Uint8Array>
  /** Stops what runs now by ending the session (PGlite cannot cancel a statement): its state is gone. */
  cancel(): void
  release(): void
}
export interface LeaseOptions {
  owner: object
  prelude?: string
  waitMs: number
  tenant?: string
}
