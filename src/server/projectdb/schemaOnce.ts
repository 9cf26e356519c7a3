/**
 * A schema a product adds to project databases made before the template carried it: made the first time the
 * product opens such a database, then known in this process (the script is idempotent; a database from the
 * template already has everything, and `present` says so without running it).
 */
import type { ProjectTx, TransactionOptions } from './types'

/** What a product holds of an open project: its ref and a transaction on its database. */
interface OpenProject {
  project: { ref: string }
  transaction<T>(opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T>
}

export interface EnsureSchema {
  (open: OpenProject): Promise<void>
  /** Forgets that a project's schema was checked (its database was replaced, or a test plays another process). */
  forget(ref: string): void
}

export function schemaOnce(present: (tx: ProjectTx) => Promise<boolean>, script: string): EnsureSchema {
  const ready = new Map<string, Promise<void>>()
  const ensure = (open: OpenProject): Promise<void> => {
    const ref = open.project.ref
    let done = ready.get(ref)
    if (!done) {
      done = open
        .transaction({ role: 'postgres' }, async (tx) => {
          if (!(await present(tx))) await tx.exec(script)
        })
        .catch((err: unknown) => {
          ready.delete(ref)
          throw err
        })
      ready.set(ref, done)
    }
    return done
  }
  return Object.assign(ensure, { forget: (ref: string) => void ready.delete(ref) })
}
