/**
 * The TypeScript types of a project's database, made by `@supabase/postgrest-typegen` (the engine of the platform's
 * `gen types`) from the database itself: its introspection needs only a `query(sql)` method, given here over a
 * project transaction.
 */
import { generateTypescript, sortGeneratorMetadata } from '@supabase/postgrest-typegen/generation'
import { introspect } from '@supabase/postgrest-typegen/introspection'
import type { ProjectTx } from '../../projectdb/types'
import { plainValue } from './values'

/**
 * The introspection sends its queries all at once; a project transaction takes them one at a time, so they queue
 * here. PGlite gives int8 values as bigint, which the introspection does not expect: they become numbers (text past
 * 2^53), as it makes of the `pg` driver's text.
 */
function queryable(tx: ProjectTx) {
  let queue: Promise<unknown> = Promise.resolve()
  return {
    query(sql: string): Promise<{ rows: Record<string, unknown>[] }> {
      const next = queue.then(async () => {
        const { rows } = await tx.query(sql)
        return { rows: rows.map((row) => driverRow(row)) }
      })
      queue = next.catch(() => {})
      return next
    },
  }
}

function driverRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) {
    out[k] = typeof v === 'bigint' ? plainValue(v) : v
  }
  return out
}

export async function generateTypes(tx: ProjectTx, includedSchemas: string[]): Promise<string> {
  const metadata = await introspect(queryable(tx), { includedSchemas })
  return generateTypescript(sortGeneratorMetadata(metadata), { postgrestVersion: '12' })
}
