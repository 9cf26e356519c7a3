/**
 * Who may use a private channel, decided as the platform decides it: by the row level security policies of
 * `realtime.messages`, checked as the caller (its role and claims), with `realtime.topic()` the channel's name.
 *  - read (join, receive): a probe row for the topic, written past RLS by the table's owner, is visible to the caller;
 *  - write (send, track): the caller may insert a row for the topic itself.
 * Both run in transactions that are always rolled back, so no probe row is ever kept.
 */
import type { Caller, GatewayContext } from '../../gateway'
import { topicReadable, writeTopicProbe } from './store'

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
  const read = await probe(gateway, 'postgres', caller.claims, (tx) => topicReadable(tx, topic, caller.role))
  if (!read) return { read, write: false }
  const write = await probe(gateway, caller.role, caller.claims, async (tx) => {
    await writeTopicProbe(tx, topic)
    return true
  })
  return { read, write }
}
