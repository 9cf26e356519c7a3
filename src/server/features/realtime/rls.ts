/**
 * Who may use a private channel, decided as the platform decides it: by the row level security policies of
 * `realtime.messages`, checked as the caller (its role and claims), with `realtime.topic()` the channel's name.
 *  - read (join, receive): a probe row for the topic, written past RLS by the table's owner, is visible to the caller;
 *  - write (send, track): the caller may insert a row for the topic itself.
 * Both run in transactions that are always rolled back, so no probe row is ever kept.
 */
import type { Caller, GatewayContext } from '../../gateway'

class RolledBack extends Error {
  constructor(readonly result: boolean) {
    super('rolled back')
  }
}

async function probe(gateway: GatewayContext, role: 'postgres' | Caller['role'], claims: Record<string, unknown>, fn: Parameters<GatewayContext['transaction']>[1]): Promise<boolean> {
  try {
    await gateway.transaction({ role, claims }, async (tx) => {
      throw new RolledBack((await fn(tx)) as boolean)
    })
  } catch (err) {
    if (err instanceof RolledBack) return err.result
    // A policy that raises, a table the caller may not touch: no right.
    if ((err as { code?: string }).code && (err as { code?: string }).code !== 'database_unavailable') return false
    throw err
  }
  return false
}

export async function canUsePrivateChannel(gateway: GatewayContext, caller: Caller, topic: string): Promise<{ read: boolean; write: boolean }> {
  const read = await probe(gateway, 'postgres', caller.claims, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(`select realtime.authorization_probe($1, 'broadcast')::text as id`, [topic])
    await tx.query(`select set_config('realtime.topic', $1, true), set_config('role', $2, true)`, [topic, caller.role])
    const seen = await tx.query<{ seen: boolean }>(`select exists (select 1 from realtime.messages where id = $1::uuid) as seen`, [rows[0].id])
    return seen.rows[0].seen
  })
  if (!read) return { read, write: false }
  const write = await probe(gateway, caller.role, caller.claims, async (tx) => {
    await tx.query(`select set_config('realtime.topic', $1, true)`, [topic])
    await tx.query(`insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true)`, [topic])
    return true
  })
  return { read, write }
}
