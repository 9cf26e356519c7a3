/**
 * Schema auth in a project database made before the template carried it: created the first time the auth service
 * opens that database (the statements are idempotent; a database from the template already has everything).
 */
import { AUTH_SCHEMA_SQL } from '../../projectdb/authSchema'
import type { GatewayContext } from '../../gateway'

const ready = new Map<string, Promise<void>>()

export function ensureAuthSchema(gateway: GatewayContext): Promise<void> {
  const ref = gateway.project.ref
  let done = ready.get(ref)
  if (!done) {
    done = gateway
      .transaction({ role: 'postgres' }, async (tx) => {
        const { rows } = await tx.query<{ t: string | null }>(`select to_regclass('auth.flow_state')::text as t`)
        if (rows[0]?.t) return
        await tx.exec(AUTH_SCHEMA_SQL)
      })
      .catch((err: unknown) => {
        ready.delete(ref)
        throw err
      })
    ready.set(ref, done)
  }
  return done
}

/** Forgets that a project's schema was checked (its database was replaced, or a test plays another process). */
ensureAuthSchema.forget = (ref: string) => void ready.delete(ref)
