/**
 * The few backend messages the port writes itself (the rest come from the project's Postgres), and the framing of
 * the client's messages after its start-up. Formats: PostgreSQL's "Message Formats" chapter.
 */

/** PostgreSQL's own bound on a start-up packet (MAX_STARTUP_PACKET_LENGTH). */
export const MAX_STARTUP_BYTES = 10_000
export const SSL_REQUEST = 80877103
export const GSSENC_REQUEST = 80877104
export const CANCEL_REQUEST = 80877102

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5)
  head.write(type, 0, 'latin1')
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

const cstr = (s: string) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])])

export interface PgErrorFields {
  severity: 'ERROR' | 'FATAL'
  code: string
  message: string
  detail?: string
  hint?: string
}

export function errorResponse(e: PgErrorFields): Buffer {
  const parts = [Buffer.from('S'), cstr(e.severity), Buffer.from('V'), cstr(e.severity), Buffer.from('C'), cstr(e.code), Buffer.from('M'), cstr(e.message)]
  if (e.detail) parts.push(Buffer.from('D'), cstr(e.detail))
  if (e.hint) parts.push(Buffer.from('H'), cstr(e.hint))
  parts.push(Buffer.from([0]))
  return message('E', Buffer.concat(parts))
}

export function parameterStatus(name: string, value: string): Buffer {
  return message('S', Buffer.concat([cstr(name), cstr(value)]))
}

export function backendKeyData(pid: number, key: number): Buffer {
  const b = Buffer.alloc(8)
  b.writeInt32BE(pid, 0)
  b.writeInt32BE(key, 4)
  return message('K', b)
}

export function readyForQuery(status: 'I' | 'T' | 'E'): Buffer {
  return message('Z', Buffer.from(status, 'latin1'))
}

export function query(sql: string): Buffer {
  return message('Q', cstr(sql))
}

export function copyFail(why: string): Buffer {
  return message('f', cstr(why))
}

export const SYNC = message('S', Buffer.alloc(0))

/**
 * What the backend's answer leaves the session in: the status of its last ReadyForQuery, 'copy-in' when it asked
 * for COPY data after that, or undefined when it has not said (a Flush, part of a COPY).
 */
export function sessionStateAfter(out: Uint8Array): 'I' | 'T' | 'E' | 'copy-in' | undefined {
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength)
  let state: 'I' | 'T' | 'E' | 'copy-in' | undefined
  let at = 0
  while (at + 5 <= view.length) {
    const type = String.fromCharCode(view[at])
    const length = view.readInt32BE(at + 1)
    if (length < 4) break
    if (type === 'Z' && at + 5 < view.length) state = String.fromCharCode(view[at + 5]) as 'I' | 'T' | 'E'
    else if (type === 'G') state = 'copy-in'
    at += 1 + length
  }
  return state
}

/** Splits the client's bytes into whole messages (type byte + length), keeping the rest for later. */
export class FrameReader {
  private buf = Buffer.alloc(0)
  constructor(private readonly maxBytes: number) {}

  /** The whole messages the bytes complete; throws on a length out of bounds. */
  push(chunk: Uint8Array): { type: string; bytes: Buffer }[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk)
    const out: { type: string; bytes: Buffer }[] = []
    while (this.buf.length >= 5) {
      const length = this.buf.readInt32BE(1)
      if (length < 4 || length > this.maxBytes) throw new RangeError(`invalid message length ${length}`)
      if (this.buf.length < 1 + length) break
      out.push({ type: String.fromCharCode(this.buf[0]), bytes: this.buf.subarray(0, 1 + length) })
      this.buf = this.buf.subarray(1 + length)
    }
    return out
  }
}

/** Whether the backend's answer holds a FATAL (or PANIC) error: its session is over. */
export function hasFatal(out: Uint8Array): boolean {
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength)
  let at = 0
  while (at + 5 <= view.length) {
    const length = view.readInt32BE(at + 1)
    if (length < 4) break
    if (view[at] === 0x45) {
      const fields = view.subarray(at + 5, at + 1 + length).toString('utf8').split('\0')
      if (fields.some((f) => f === 'SFATAL' || f === 'SPANIC')) return true
    }
    at += 1 + length
  }
  return false
}
