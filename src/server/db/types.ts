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
  /**
   * Calls `payload` with the payload of every notification on CHANGES_CHANNEL (the triggers of migration 008), from
   * this process's own commits — before the COMMIT (or the single statement) resolves — and from other processes'.
   * `lost` is called when notifications may be missed (the listening connection dropped): whoever caches must forget
   * everything and stop caching until `restored`. Resolves once listening; the returned function stops.
   */
  listen(handlers: ChangeHandlers): Promise<() => void>
  close(): Promise<void>
}

export interface ChangeHandlers {
  payload(payload: string): void
  lost?(): void
  restored?(): void
}

/** The channel the triggers of migration 008 notify on. */
export const CHANGES_CHANNEL = 'kp_changes'
