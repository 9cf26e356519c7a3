/**
 * Schema realtime in a project database made before the template carried it: created the first time the realtime
 * service opens that database (the statements are idempotent; a database from the template already has everything).
 */
import { REALTIME_SCHEMA_SQL } from '../../projectdb/realtimeSchema'
import type { GatewayContext } from '../../gateway'

const ready = new Map<string, Promise<void>>()

export function ensureRealtimeSchema(gateway: GatewayContext): Promise<void> {
  const ref = gateway.project.ref
  let done = ready.get(ref)
  if (!done) {
    done = gateway
      .transaction({ role: 'postgres' }, async (tx) => {
        const { rows } = await tx.query<{ t: string | null; f: string | null }>(
          `select to_regclass('realtime.messages')::text as t, to_regprocedure('realtime.capture_change()')::text as f`,
        )
        if (rows[0]?.t && rows[0]?.f) return
        await tx.exec(REALTIME_SCHEMA_SQL)
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
ensureRealtimeSchema.forget = (ref: string) => void ready.delete(ref)
