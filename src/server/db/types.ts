/**
 * The store: one tiny interface over PGlite (embedded) and a real PostgreSQL server (`pg` Pool).
 * The same SQL runs on both. Inside `transaction(fn)` use only the `tx` handle: PGlite serialises
 * everything on one connection, so a query on the outer handle inside a transaction would wait forever.
 */
export interface Queryable {
  /** One statement, `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}
