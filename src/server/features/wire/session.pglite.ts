/**
 * A client of the Postgres port on a PGlite project: its messages go to the project's one session (the project's
 * worker, PGlite's execProtocolRaw) in the project's turn. The client holds the session from its first message to
 * the ReadyForQuery that says 'idle' (a transaction, a COPY, an extended-protocol batch before its Sync); meanwhile
 * everything else on that database waits, at most WIRE_QUEUE_WAIT_MS for another client of the port. A client idle
 * inside a transaction longer than WIRE_IDLE_IN_TRANSACTION_MS is ended (its transaction rolled back), so it cannot
 * stall the project. When the session passes from one client to another, the session's state is discarded (the
 * pooler's transaction mode: settings, prepared statements and temporary tables do not outlive a transaction).
 */
import { ProjectDbError, type ProjectDatabases, type RawLease } from '../../projectdb/types'
import type { ServerConfig } from '../../config'
import {
  backendKeyData,
  copyFail,
  errorResponse,
  FrameReader,
  hasFatal,
  parameterStatus,
  query,
  readyForQuery,
  sessionStateAfter,
  SYNC,
  type PgErrorFields,
} from './messages'

export interface WireIo {
  /** The client's next bytes; undefined once it is gone. */
  read(): Promise<Uint8Array | undefined>
  write(bytes: Uint8Array): Promise<void>
  /** Writes `last` (a FATAL error) and closes the connection. */
  end(last?: Uint8Array): Promise<void>
}

export interface WireSessionOptions {
  ref: string
  role: string
  pid: number
  key: number
  settings: ServerConfig['wire']
  io: WireIo
}

/**
 * COPY … FROM STDIN in a simple query. PGlite's backend cannot wait for input between two execProtocolRaw calls (it
 * ends with exit(1) when it reads past what it was given), so the port answers CopyInResponse itself, gathers the
 * client's data up to its CopyDone, and hands PGlite the query and all of its data in one call.
 */
const COPY_FROM_STDIN = /^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i

/** Messages after which the client waits for an answer. */
const ANSWERED = new Set(['Q', 'S', 'H', 'c', 'f', 'F'])
/** COPY data is passed on in pieces of about this size, not gathered whole. */
const COPY_CHUNK_BYTES = 1024 * 1024

class Ended extends Error {}

/** The SQL of a Query message. */
function queryText(bytes: Buffer): string {
  return bytes.subarray(5, bytes.length - 1).toString('utf8')
}

/** The backend's messages without its CopyInResponse ('G'). */
function withoutCopyInResponse(out: Uint8Array): Buffer {
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength)
  const kept: Buffer[] = []
  let at = 0
  while (at + 5 <= view.length) {
    const length = view.readInt32BE(at + 1)
    const end = at + 1 + length
    if (view[at] !== 0x47) kept.push(view.subarray(at, end))
    at = end
  }
  return Buffer.concat(kept)
}

export class PgliteWireSession {
  private lease: RawLease | undefined
  private state: 'I' | 'T' | 'E' | 'copy-in' = 'I'
  private pending: Buffer[] = []
  private pendingBytes = 0
  private idleTimer: ReturnType<typeof setTimeout> | undefined
  private inFlight = false
  /** A COPY FROM STDIN being gathered (see COPY_FROM_STDIN): its query and data so far. */
  private copyIn: { bytes: Buffer[]; size: number } | undefined
  private cancelled = false
  private ended = false

  constructor(private readonly o: WireSessionOptions & { projectDbs: ProjectDatabases; serverVersion: () => Promise<string> }) {}

  async serve(): Promise<void> {
    const { io } = this.o
    const version = await this.o.serverVersion()
    await io.write(
      Buffer.concat([
        parameterStatus('server_version', version),
        parameterStatus('server_encoding', 'UTF8'),
        parameterStatus('client_encoding', 'UTF8'),
        parameterStatus('DateStyle', 'ISO, MDY'),
        parameterStatus('IntervalStyle', 'postgres'),
        parameterStatus('TimeZone', 'UTC'),
        parameterStatus('integer_datetimes', 'on'),
        parameterStatus('standard_conforming_strings', 'on'),
        parameterStatus('is_superuser', 'off'),
        parameterStatus('session_authorization', this.o.role),
        parameterStatus('application_name', ''),
        backendKeyData(this.o.pid, this.o.key),
        readyForQuery('I'),
      ]),
    )
    const frames = new FrameReader(this.o.settings.maxMessageBytes)
    try {
      for (;;) {
        const chunk = await io.read()
        if (!chunk || this.ended) return
        this.clearIdle()
        let messages
        try {
          messages = frames.push(chunk)
        } catch (err) {
          await this.fatal({ severity: 'FATAL', code: '08P01', message: (err as Error).message })
          return
        }
        for (const m of messages) {
          if (m.type === 'X') return
          if (this.copyIn || (m.type === 'Q' && COPY_FROM_STDIN.test(queryText(m.bytes)))) {
            await this.gatherCopy(m.type, m.bytes)
            if (this.ended) return
            continue
          }
          this.pending.push(m.bytes)
          this.pendingBytes += m.bytes.length
          if (ANSWERED.has(m.type) || (m.type === 'd' && this.pendingBytes >= COPY_CHUNK_BYTES)) await this.send()
          if (this.ended) return
        }
        this.armIdle()
      }
    } catch (err) {
      if (!(err instanceof Ended)) throw err
    } finally {
      this.clearIdle()
      await this.giveBack()
    }
  }

  /** One message of a COPY FROM STDIN: the query starts it, CopyDone or CopyFail sends it all to PGlite. */
  private async gatherCopy(type: string, bytes: Buffer): Promise<void> {
    if (!this.copyIn) {
      this.copyIn = { bytes: [bytes], size: bytes.length }
      // Text format, columns unknown until PGlite reads the query: clients send rows as they are either way.
      await this.o.io.write(Buffer.from([0x47, 0, 0, 0, 7, 0, 0, 0]))
      return
    }
    if (type === 'H' || type === 'S') return
    if (type !== 'd' && type !== 'c' && type !== 'f') {
      this.copyIn = undefined
      await this.o.io.write(
        Buffer.concat([
          errorResponse({ severity: 'ERROR', code: '08P01', message: `unexpected message type 0x${type.charCodeAt(0).toString(16)} during COPY from stdin` }),
          readyForQuery(this.state === 'copy-in' ? 'I' : this.state),
        ]),
      )
      return
    }
    this.copyIn.bytes.push(bytes)
    this.copyIn.size += bytes.length
    if (this.copyIn.size > this.o.settings.maxMessageBytes) {
      this.copyIn = undefined
      await this.fatal({ severity: 'FATAL', code: '54000', message: `COPY data past ${this.o.settings.maxMessageBytes} bytes: send it in smaller COPYs` })
      return
    }
    if (type === 'd') return
    const all = this.copyIn.bytes
    this.copyIn = undefined
    this.pending.push(...all)
    await this.send(true)
  }

  /** A CancelRequest: what runs now is stopped with the session (PGlite cannot cancel a statement). */
  cancel(): void {
    if (!this.inFlight || !this.lease) return
    this.cancelled = true
    this.lease.cancel()
  }

  end(): void {
    void this.fatal({ severity: 'FATAL', code: '57P01', message: 'terminating connection due to administrator command' })
  }

  /** `gatheredCopy`: the answer's own CopyInResponse is dropped (the client had the port's). */
  private async send(gatheredCopy = false): Promise<void> {
    const bytes = Buffer.concat(this.pending)
    this.pending = []
    this.pendingBytes = 0
    if (!this.lease) {
      try {
        if (!this.o.projectDbs.lease) throw new ProjectDbError('this engine lends no session', { code: 'database_unavailable' })
        this.lease = await this.o.projectDbs.lease(this.o.ref, {
          owner: this,
          prelude: this.o.role === 'postgres' ? undefined : `set role ${this.o.role}`,
          waitMs: this.o.settings.queueWaitMs,
        })
      } catch (err) {
        const e = err instanceof ProjectDbError ? err : new ProjectDbError(String(err), { code: 'database_error' })
        if (e.code === 'database_busy') {
          // The request is dropped whole; the client may try again.
          await this.o.io.write(
            Buffer.concat([
              errorResponse({ severity: 'ERROR', code: '53300', message: `the project's database is busy: ${e.message}`, hint: 'Try again; keep transactions short' }),
              readyForQuery('I'),
            ]),
          )
          return
        }
        await this.fatal({ severity: 'FATAL', code: '57P03', message: e.message })
        return
      }
    }
    const wasIn = this.state
    this.inFlight = true
    let out: Uint8Array
    try {
      out = await this.lease.raw(bytes)
    } catch (err) {
      this.inFlight = false
      this.lease.release()
      this.lease = undefined
      const e = err as ProjectDbError
      const cancelled = this.cancelled
      this.cancelled = false
      this.state = 'I'
      if ((cancelled || e.code === 'query_timeout') && wasIn === 'I') {
        // Nothing of the client's but this statement was in the stopped session: it goes on, as after a cancel.
        await this.o.io.write(
          Buffer.concat([
            errorResponse({
              severity: 'ERROR',
              code: '57014',
              message: cancelled ? 'canceling statement due to user request' : 'canceling statement due to statement timeout',
            }),
            readyForQuery('I'),
          ]),
        )
        return
      }
      await this.fatal({
        severity: 'FATAL',
        code: cancelled || e.code === 'query_timeout' ? '57014' : '57P03',
        message: cancelled ? 'canceling statement due to user request; the transaction was lost' : e.message,
      })
      return
    }
    this.inFlight = false
    if (hasFatal(out)) {
      // PGlite's backend does not survive a FATAL (it exits): the session is ended, the next use opens it again.
      this.lease.cancel()
      this.lease.release()
      this.lease = undefined
      this.ended = true
      await this.o.io.end(out)
      return
    }
    await this.o.io.write(gatheredCopy ? withoutCopyInResponse(out) : out)
    this.state = sessionStateAfter(out) ?? this.state
    if (this.state === 'I' && sessionStateAfter(out) === 'I') {
      this.lease.release()
      this.lease = undefined
    }
  }

  private armIdle(): void {
    if (!this.lease) return
    this.idleTimer = setTimeout(() => {
      void this.fatal({ severity: 'FATAL', code: '25P03', message: 'terminating connection due to idle-in-transaction timeout' })
    }, this.o.settings.idleInTransactionMs)
  }

  private clearIdle(): void {
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  private async fatal(e: PgErrorFields): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.clearIdle()
    await this.giveBack()
    await this.o.io.end(errorResponse(e))
  }

  /** Leaves the session clean for the next one: a COPY failed, a half-sent batch synced, a transaction rolled back. */
  private async giveBack(): Promise<void> {
    const lease = this.lease
    if (!lease) return
    this.lease = undefined
    try {
      if (this.state === 'copy-in') await lease.raw(copyFail('the client left'))
      await lease.raw(SYNC)
      await lease.raw(query('rollback'))
    } catch {
      // A session that failed here is ended by the manager; the next use opens a new one.
    } finally {
      lease.release()
    }
  }
}


