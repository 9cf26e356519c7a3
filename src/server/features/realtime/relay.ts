/**
 * Broadcast and presence between the platform's processes on one PostgreSQL store (DATABASE_URL): each process
 * LISTENs on `realtime_relay` over one dedicated connection and sends what its own clients broadcast or track with
 * NOTIFY; the other processes hand it to their clients of the same project and topic. (Database changes need no
 * relay: their NOTIFY in the project's database already reaches every process.) On PGlite there is one process per
 * data folder, so no relay.
 *  - NOTIFY carries at most 8,000 bytes: a message is base64 of its JSON, cut into parts sent in one transaction
 *    (delivered together and in order), put together again by the receivers.
 *  - A process's own notifications come back to it: it knows them by its id and drops them.
 *  - Messages are sent one after another, so they arrive in the order the clients sent them.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Db } from '../../db'

export const RELAY_CHANNEL = 'realtime_relay'
const PART_CHARS = 7_000

export type RelayMessage =
  | { kind: 'broadcast'; ref: string; key: string; topic: string; inner: Record<string, unknown> }
  | { kind: 'presence_diff'; ref: string; key: string; diff: PresenceDiff }
  /** A process whose client joined a topic asks the others for their presence there. */
  | { kind: 'presence_request'; ref: string; key: string }
  | { kind: 'presence_state'; ref: string; key: string; to: string; state: PresenceDiff['joins'] }
  /** The project was deleted: every process closes its sockets. */
  | { kind: 'project_removed'; ref: string }

export interface PresenceDiff {
  joins: Record<string, { metas: Record<string, unknown>[] }>
  leaves: Record<string, { metas: Record<string, unknown>[] }>
}

export interface Relay {
  readonly origin: string
  publish(message: RelayMessage): void
  close(): Promise<void>
}

/** Binary broadcast payloads travel as base64 (JSON has no bytes). */
const toWire = (m: RelayMessage): unknown =>
  m.kind === 'broadcast' && m.inner.payload instanceof Uint8Array
    ? { ...m, inner: { ...m.inner, payload: undefined }, bytes: Buffer.from(m.inner.payload).toString('base64') }
    : m
const fromWire = (o: RelayMessage & { bytes?: string }): RelayMessage => {
  if (o.kind === 'broadcast' && typeof o.bytes === 'string') {
    const { bytes, ...rest } = o
    return { ...rest, inner: { ...rest.inner, payload: new Uint8Array(Buffer.from(bytes, 'base64')) } }
  }
  return o
}

export function createRelay(db: Db, databaseUrl: string, onMessage: (m: RelayMessage, from: string) => void): Relay {
  const origin = randomUUID()
  const partial = new Map<string, { parts: string[]; got: number }>()
  let client: pg.Client | undefined
  let closing = false
  let retry: NodeJS.Timeout | undefined

  const receive = (payload: string) => {
    // origin|id|index|count|part
    const [from, id, index, count, part] = payload.split('|')
    if (from === origin || part === undefined) return
    const n = Number(count)
    let entry = partial.get(id)
    if (!entry) partial.set(id, (entry = { parts: new Array<string>(n), got: 0 }))
    entry.parts[Number(index)] = part
    if (++entry.got < n) return
    partial.delete(id)
    try {
      onMessage(fromWire(JSON.parse(Buffer.from(entry.parts.join(''), 'base64').toString('utf8')) as RelayMessage & { bytes?: string }), from)
    } catch (err) {
      console.error(`realtime relay: a message was not read: ${(err as Error).message}`)
    }
  }

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl })
    c.on('notification', (n) => {
      if (n.channel === RELAY_CHANNEL && n.payload) receive(n.payload)
    })
    c.on('error', (err) => console.error(`realtime relay: ${err.message}`))
    c.on('end', () => {
      if (client !== c || closing) return
      client = undefined
      partial.clear()
      retry = setTimeout(() => void connect().catch(() => {}), 1_000)
      retry.unref()
    })
    await c.connect()
    await c.query(`listen ${RELAY_CHANNEL}`)
    if (closing) return void (await c.end().catch(() => {}))
    client = c
  }
  const ready = connect().catch((err: unknown) => console.error(`realtime relay: not listening: ${(err as Error).message}`))

  let sending: Promise<void> = Promise.resolve()
  return {
    origin,
    publish(message) {
      const text = Buffer.from(JSON.stringify(toWire(message))).toString('base64')
      const id = randomUUID().slice(0, 8)
      const count = Math.max(1, Math.ceil(text.length / PART_CHARS))
      const parts = Array.from({ length: count }, (_, i) => `${origin}|${id}|${i}|${count}|${text.slice(i * PART_CHARS, (i + 1) * PART_CHARS)}`)
      sending = sending
        .then(() =>
          parts.length === 1
            ? db.query('select pg_notify($1, $2)', [RELAY_CHANNEL, parts[0]]).then(() => {})
            : db.transaction(async (tx) => {
                for (const p of parts) await tx.query('select pg_notify($1, $2)', [RELAY_CHANNEL, p])
              }),
        )
        .catch((err: unknown) => console.error(`realtime relay: not sent: ${(err as Error).message}`))
    },
    async close() {
      closing = true
      clearTimeout(retry)
      await ready
      await sending
      await client?.end().catch(() => {})
      client = undefined
    },
  }
}
