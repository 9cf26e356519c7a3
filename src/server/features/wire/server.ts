/**
 * The Postgres port (DB_PORT): every ACTIVE_HEALTHY project's database over the wire protocol, routed by the start-up
 * message's user name as the platform's pooler does (`postgres.<ref>`, or `<role>.<ref>` for the API roles), with the
 * project's database password (SCRAM-SHA-256 against the stored verifier).
 *
 * Before the start-up message the port reads the first packet itself: an SSLRequest or GSSENCRequest is answered 'N'
 * (no TLS here; clients fall back), a CancelRequest goes to the session it names, and a packet that is garbage, too
 * long, or never comes (WIRE_STARTUP_TIMEOUT_MS) ends the connection. The start-up and the SCRAM exchange are
 * pg-gateway's (a maintained server-side implementation of the protocol); once authenticated the connection is
 * detached from it and served by the engine's path:
 *  - PGlite (session.pglite.ts): the client's messages go to the project's one session through
 *    `execProtocolRaw`, in the project's turn; a client holds the session from its first message to the
 *    ReadyForQuery that says 'idle', so its transaction is never interleaved with anyone's statements;
 *  - PostgreSQL (session.postgres.ts): a proxy to the project's own database, logged in as the project's own role.
 * The project's network restrictions, status, password and connection count are checked at start-up; a refusal is
 * the Postgres error a client prints.
 */
import net from 'node:net'
import { randomInt, randomUUID } from 'node:crypto'
import { fromNodeSocket } from 'pg-gateway/node'
import { BackendError, type PostgresConnection } from 'pg-gateway'
import type { ServerConfig } from '../../config'
import type { Db } from '../../db'
import { startProcessEntry } from '../../core/processes'
import type { ProjectDatabases } from '../../projectdb/types'
import { CANCEL_REQUEST, errorResponse, GSSENC_REQUEST, MAX_STARTUP_BYTES, SSL_REQUEST, type PgErrorFields } from './messages'
import { mockScramData, parseVerifier, proofHolds, type ScramData } from './scram'
import { claimClient, findWireProject, releaseClient, type WireProject } from './store'
import { FUNCTIONS_DB_LOGIN, functionsDbVerifier } from '../../projectdb/password'
import { addressAllowed } from './cidr'
import { wirePorts } from '../../core/wirePort'
import { PgliteWireSession } from './session.pglite'
import { PostgresWireSession } from './session.postgres'

export interface WireDeps {
  db: Db
  projectDbs: ProjectDatabases
  config: Pick<ServerConfig, 'databaseUrl' | 'host' | 'wire' | 'projectDb' | 'processLiveMs'>
}

/** The port each platform's Postgres listener took, by its project databases (the pooler settings show it). */
export { wirePorts }

export interface WireServer {
  port: number
  /** Stops listening and ends every connection. */
  close(): Promise<void>
}

/**
 * The roles a login may name besides the owner (`postgres`): what the project's API keys run as, and the functions'
 * own login (the owner's rights, with a password of its own: their SUPABASE_DB_URL).
 */
const LOGIN_ROLES = new Set(['postgres', 'anon', 'authenticated', 'service_role', FUNCTIONS_DB_LOGIN])
const USER = /^([a-z_]+)\.([a-z0-9_]{1,40})$/

/** A refusal written as the Postgres error it is. */
export class WireRefusal extends Error {
  constructor(readonly fields: PgErrorFields) {
    super(fields.message)
  }
}

/** What a live session answers to: its cancel key, and how to stop what it runs. */
export interface CancelTarget {
  ref: string
  key: number
  cancel(): void
}

export interface ServedSession {
  /** Serves the authenticated client until it leaves; resolves then. */
  serve(): Promise<void>
  /** Ends it (server shutdown). */
  end(): void
}

export async function startWireServer(deps: WireDeps): Promise<WireServer> {
  const settings = deps.config.wire
  const sockets = new Set<net.Socket>()
  const sessions = new Set<ServedSession>()
  // The per-project connection count is kept in the store, per listener, so the limit holds across the processes
  // sharing it (store.ts: claimClient). The listener is a process entry (core/processes.ts): a killed process's
  // clients stop counting once its entry is not renewed.
  const liveMs = deps.config.processLiveMs
  const listener = startProcessEntry(deps.db, `wire:${randomUUID()}`, { liveMs })
  const listenerId = listener.id
  try {
    await listener.ready
  } catch (err) {
    await listener.stop().catch(() => {})
    throw err
  }
  const cancels = new Map<number, CancelTarget>()
  /** The functions' verifier of each project with the secret it came from (deriving one costs a PBKDF2). */
  const functionVerifiers = new Map<string, { secret: string; verifier: string }>()
  const functionsVerifier = async (ref: string, secret: string): Promise<string> => {
    const known = functionVerifiers.get(ref)
    if (known?.secret === secret) return known.verifier
    const verifier = await functionsDbVerifier(secret, ref)
    functionVerifiers.set(ref, { secret, verifier })
    return verifier
  }

  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.setNoDelay(true)
    void handle(socket)
  })

  async function handle(socket: net.Socket): Promise<void> {
    const first = await firstPacket(socket, settings.startupTimeoutMs).catch((err: unknown) => {
      if (err instanceof WireRefusal && !socket.destroyed) socket.end(errorResponse(err.fields))
      else socket.destroy()
      return undefined
    })
    if (!first) return
    if (first.kind === 'cancel') {
      // The key is random per session: a request naming another project's session cannot guess it, and any
      // mismatch is ignored silently, as PostgreSQL does.
      const target = cancels.get(first.pid)
      if (target && target.key === first.key) target.cancel()
      socket.destroy()
      return
    }
    socket.unshift(first.packet)
    await authenticate(socket)
  }

  async function authenticate(socket: net.Socket): Promise<void> {
    let project: WireProject | undefined
    let role = 'postgres'
    let counted: number | undefined
    let scram: ScramData | undefined
    let conn: PostgresConnection | undefined
    const release = () => {
      if (counted !== undefined) void releaseClient(deps.db, listenerId, counted).catch(() => {})
      counted = undefined
    }
    socket.once('close', release)
    conn = await fromNodeSocket(socket, {
      auth: {
        method: 'scram-sha-256',
        getScramSha256Data: ({ username }) => (scram ??= mockScramData(username)),
        validateCredentials: ({ authMessage, clientProof, scramSha256Data }) =>
          project?.verifier !== null && project !== undefined && proofHolds(authMessage, clientProof, scramSha256Data.storedKey),
      },
      onStartup: async (state) => {
        const user = state.clientParams?.user ?? ''
        const m = USER.exec(user)
        if (!m) {
          throw refusal('FATAL', '28000', `user name '${user}' names no project: connect as postgres.<project ref>`)
        }
        const [, who, ref] = m
        if (!LOGIN_ROLES.has(who)) throw refusal('FATAL', '28000', `role "${who}" may not log in here: use postgres, anon, authenticated or service_role`)
        project = await findWireProject(deps.db, ref)
        // Supavisor's words for a ref it does not know.
        if (!project) throw refusal('FATAL', 'XX000', 'Tenant or user not found')
        // The project's network restrictions, before any password is looked at (Supavisor's words).
        if (!addressAllowed(socket.remoteAddress, project.db_allowed_cidrs, project.db_allowed_cidrs_v6)) {
          throw refusal('FATAL', '28000', `Address not in tenant allow_list: ${socket.remoteAddress}`)
        }
        if (project.status === 'INACTIVE') throw refusal('FATAL', '57P03', 'project is paused', 'Restore the project from the dashboard to connect again')
        if (project.status !== 'ACTIVE_HEALTHY') {
          throw refusal('FATAL', '57P03', `project is not available while it is ${project.status}`)
        }
        if (!(await claimClient(deps.db, listenerId, project.id, settings.maxClientsPerProject, liveMs))) {
          throw refusal('FATAL', '53300', `too many connections for project ${ref} (at most ${settings.maxClientsPerProject})`)
        }
        // The client may have left while the slot was claimed: 'close' has fired already, so it is given back here.
        if (socket.destroyed) {
          void releaseClient(deps.db, listenerId, project.id).catch(() => {})
          throw refusal('FATAL', '08006', 'the client left')
        }
        counted = project.id
        if (who === FUNCTIONS_DB_LOGIN) {
          role = 'postgres'
          project = { ...project, verifier: project.jwt_secret ? await functionsVerifier(ref, project.jwt_secret) : null }
        } else role = who
        if (project.verifier) scram = parseVerifier(project.verifier)
      },
      onAuthenticated: async () => {
        const duplex = await conn!.detach()
        void startSession(socket, duplex, project!, role)
      },
    })
  }

  async function startSession(
    socket: net.Socket,
    duplex: { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> },
    project: WireProject,
    role: string,
  ): Promise<void> {
    // pg-gateway lets go of the streams once its loop sees it is detached.
    while (duplex.readable.locked || duplex.writable.locked) await new Promise((r) => setImmediate(r))
    const reader = duplex.readable.getReader()
    const writer = duplex.writable.getWriter()
    const pid = freePid()
    const key = randomInt(1, 2 ** 31 - 1)
    const io = {
      read: async () => {
        const { done, value } = await reader.read()
        return done ? undefined : value
      },
      write: (bytes: Uint8Array) => writer.write(bytes),
      end: async (last?: Uint8Array) => {
        if (last) await writer.write(last).catch(() => {})
        await writer.close().catch(() => {})
        socket.destroy()
      },
    }
    const common = { ref: project.ref, role, pid, key, settings, io }
    const session: ServedSession & { cancel(): void } =
      deps.projectDbs.kind === 'pglite'
        ? new PgliteWireSession({ ...common, projectDbs: deps.projectDbs, serverVersion: () => deps.projectDbs.serverVersion?.() ?? Promise.resolve('18') })
        : new PostgresWireSession({
            ...common,
            projectDbs: deps.projectDbs,
            databaseUrl: deps.config.databaseUrl!,
            // The project's own statement time-out is its database's setting, which a start-up option would override.
            statementTimeoutMs: project.statement_timeout ? undefined : deps.config.projectDb.queryTimeoutMs,
          })
    cancels.set(pid, { ref: project.ref, key, cancel: () => session.cancel() })
    sessions.add(session)
    try {
      await session.serve()
    } catch {
      // The session wrote what the client needs to know; the connection ends below.
    } finally {
      cancels.delete(pid)
      sessions.delete(session)
      socket.destroy()
    }
  }

  function freePid(): number {
    for (;;) {
      const pid = randomInt(1, 2 ** 31 - 1)
      if (!cancels.has(pid)) return pid
    }
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(settings.port, deps.config.host, () => resolve())
    })
  } catch (err) {
    await listener.stop().catch(() => {})
    throw err
  }
  const { port } = server.address() as net.AddressInfo
  wirePorts.set(deps.projectDbs, port)
  return {
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of sessions) s.end()
      for (const socket of sockets) socket.destroy()
      await closed
      await listener.stop().catch(() => {})
    },
  }
}

/** pg-gateway writes a BackendError thrown by a hook as the client's error, then closes the connection. */
function refusal(severity: 'FATAL' | 'ERROR', code: string, message: string, hint?: string): BackendError {
  return BackendError.create({ severity, code, message, hint })
}

type FirstPacket = { kind: 'startup'; packet: Buffer } | { kind: 'cancel'; pid: number; key: number }

/**
 * Reads the client's first packet (answering SSL and GSSAPI encryption requests with 'N' until the real one comes):
 * bounded in size and in time.
 */
function firstPacket(socket: net.Socket, timeoutMs: number): Promise<FirstPacket> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0)
    const timer = setTimeout(() => finish(new WireRefusal({ severity: 'FATAL', code: '08006', message: 'timeout waiting for the start-up packet' })), timeoutMs)
    const finish = (result: FirstPacket | Error) => {
      clearTimeout(timer)
      socket.off('data', onData)
      socket.off('close', onClose)
      socket.pause()
      if (result instanceof Error) reject(result)
      else resolve(result)
    }
    const onClose = () => finish(new Error('closed'))
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk])
      while (buf.length >= 8) {
        const length = buf.readInt32BE(0)
        if (length < 8 || length > MAX_STARTUP_BYTES) {
          return finish(new WireRefusal({ severity: 'FATAL', code: '08P01', message: `invalid length of startup packet (${length} bytes)` }))
        }
        if (buf.length < length) return
        const code = buf.readInt32BE(4)
        const packet = buf.subarray(0, length)
        const rest = buf.subarray(length)
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          if (length !== 8) return finish(new WireRefusal({ severity: 'FATAL', code: '08P01', message: 'invalid encryption request' }))
          socket.write('N')
          buf = rest
          continue
        }
        if (code === CANCEL_REQUEST) {
          if (length !== 16) return finish(new WireRefusal({ severity: 'FATAL', code: '08P01', message: 'invalid cancel request' }))
          return finish({ kind: 'cancel', pid: packet.readInt32BE(8), key: packet.readInt32BE(12) })
        }
        if (code >>> 16 !== 3) {
          return finish(new WireRefusal({ severity: 'FATAL', code: '0A000', message: `unsupported frontend protocol ${code >>> 16}.${code & 0xffff}: server supports 3.0` }))
        }
        if (rest.length) socket.unshift(rest)
        return finish({ kind: 'startup', packet: Buffer.from(packet) })
      }
    }
    socket.on('data', onData)
    socket.on('close', onClose)
  })
}
