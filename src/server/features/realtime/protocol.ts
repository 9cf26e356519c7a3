/**
 * The Phoenix channel protocol as @supabase/realtime-js speaks it, in both serializer versions it negotiates with the
 * `vsn` query parameter:
 *  - 1.0.0: every frame a JSON object `{ join_ref, ref, topic, event, payload }`;
 *  - 2.0.0 (realtime-js' default): every frame a JSON array `[join_ref, ref, topic, event, payload]`, except a
 *    broadcast the client pushes, which comes as a binary frame (kind 3: header lengths, then join_ref, ref, topic,
 *    event, metadata and the payload, JSON- or binary-encoded); a binary payload is sent on as a kind 4 frame.
 * Decoding never throws: a frame it cannot read is `undefined`, and the socket answers it with an error.
 */
export type Vsn = '1.0.0' | '2.0.0'
export const VSNS: readonly Vsn[] = ['1.0.0', '2.0.0']

export interface Frame {
  join_ref: string | null
  ref: string | null
  topic: string
  event: string
  payload: unknown
}

/** A broadcast whose user payload is binary (kept as bytes, sent on as such). */
export interface BinaryBroadcast {
  type: 'broadcast'
  event: string
  payload: Uint8Array
  meta?: Record<string, unknown>
}

const USER_BROADCAST_PUSH = 3
const USER_BROADCAST = 4
const JSON_ENCODING = 1

const str = (v: unknown): string | null => (typeof v === 'string' ? v : v === null || v === undefined ? null : null)

function frameOf(join_ref: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown): Frame | undefined {
  if (typeof topic !== 'string' || typeof event !== 'string') return undefined
  if (payload === null || typeof payload !== 'object') return undefined
  if ((join_ref !== null && join_ref !== undefined && typeof join_ref !== 'string') || (ref !== null && ref !== undefined && typeof ref !== 'string')) {
    return undefined
  }
  return { join_ref: str(join_ref), ref: str(ref), topic, event, payload }
}

export function decode(data: Buffer, isBinary: boolean, vsn: Vsn): Frame | undefined {
  if (isBinary) return vsn === '2.0.0' ? decodeBinary(data) : undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(data.toString('utf8'))
  } catch {
    return undefined
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return undefined
    return frameOf(parsed[0], parsed[1], parsed[2], parsed[3], parsed[4])
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined
  const o = parsed as Record<string, unknown>
  return frameOf(o.join_ref, o.ref, o.topic, o.event, o.payload)
}

function decodeBinary(buf: Buffer): Frame | undefined {
  if (buf.length < 7 || buf[0] !== USER_BROADCAST_PUSH) return undefined
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [buf[1], buf[2], buf[3], buf[4], buf[5], buf[6]]
  let at = 7
  const take = (n: number) => {
    const s = buf.subarray(at, at + n).toString('utf8')
    at += n
    return s
  }
  if (at + joinRefLen + refLen + topicLen + eventLen + metaLen > buf.length) return undefined
  const joinRef = take(joinRefLen)
  const ref = take(refLen)
  const topic = take(topicLen)
  const event = take(eventLen)
  const metaText = take(metaLen)
  const body = buf.subarray(at)
  let meta: Record<string, unknown> | undefined
  let payload: unknown
  try {
    if (metaText) meta = JSON.parse(metaText) as Record<string, unknown>
    payload = encoding === JSON_ENCODING ? JSON.parse(body.toString('utf8')) : new Uint8Array(body)
  } catch {
    return undefined
  }
  const inner: Record<string, unknown> = { type: 'broadcast', event, payload }
  if (meta) inner.meta = meta
  return { join_ref: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: inner }
}

/** A frame for the client in its version: text, or binary for a broadcast with a binary payload (2.0.0). */
export function encode(frame: Frame, vsn: Vsn): string | Buffer {
  const p = frame.payload as Partial<BinaryBroadcast> | null
  if (frame.event === 'broadcast' && p && p.payload instanceof Uint8Array) {
    if (vsn === '2.0.0') return encodeBinaryBroadcast(frame.topic, p.event ?? '', p.payload, p.meta)
    // 1.0.0 has no binary frames: the bytes go as an array of numbers.
    frame = { ...frame, payload: { ...p, payload: Array.from(p.payload) } }
  }
  if (vsn === '2.0.0') return JSON.stringify([frame.join_ref, frame.ref, frame.topic, frame.event, frame.payload])
  return JSON.stringify(frame)
}

function encodeBinaryBroadcast(topic: string, event: string, payload: Uint8Array, meta?: Record<string, unknown>): Buffer {
  const t = Buffer.from(topic)
  const e = Buffer.from(event)
  const m = Buffer.from(meta ? JSON.stringify(meta) : '')
  const header = Buffer.from([USER_BROADCAST, t.length, e.length, m.length, 0])
  return Buffer.concat([header, t, e, m, Buffer.from(payload)])
}

/** The reply to a push: `phx_reply` with `{ status, response }`, on the push's refs. */
export const reply = (to: Frame, status: 'ok' | 'error', response: Record<string, unknown> = {}): Frame => ({
  join_ref: to.join_ref,
  ref: to.ref,
  topic: to.topic,
  event: 'phx_reply',
  payload: { status, response },
})
