/**
 * A client of the Postgres port on a PostgreSQL project: a proxy to the project's own database on the DATABASE_URL
 * server, logged in as the project's own login role (no superuser, CONNECT on its own database only: the platform's
 * database and other projects' are out of its reach). The port logs in upstream itself (SCRAM with the role's
 * platform-derived password, projectdb/postgres.ts), passes the server's parameters on, then relays bytes both ways.
 * A login as `anon` / `authenticated` / `service_role` runs `SET ROLE` first; RESET ROLE leads back only to the
 * project's owner, which the same password opens anyway.
 */
import net from 'node:net'
import { serialize } from 'pg-protocol'
import { Parser } from 'pg-protocol/dist/parser'
import type { BackendMessage } from 'pg-protocol/dist/messages'
// pg's own SCRAM client (the arithmetic of RFC 5802), as node-postgres logs in with it.
// @ts-expect-error pg ships no types for its internal modules
import saslModule from 'pg/lib/crypto/sasl'
import { projectLogin } from '../../projectdb/postgres'
import type { ProjectDatabases } from '../../projectdb/types'
import { backendKeyData, errorResponse, FrameReader, parameterStatus, query, readyForQuery, type PgErrorFields } from './messages'
import type { WireSessionOptions } from './session.pglite'

interface SaslSession {
  mechanism: string
  response: string
}
const sasl = saslModule as {
  startSession(mechanisms: string[]): SaslSession
  continueSession(session: SaslSession, password: string, serverData: string): Promise<void>
  finalizeSession(session: SaslSession, serverData: string): void
}

type Login = { role: string; password: string; database: string }
/** The logins are derived from a key in the store that never changes: read once per project. */
const logins = new Map<string, Promise<Login>>()

function loginFor(databaseUrl: string, ref: string): Promise<Login> {
  let p = logins.get(`${databaseUrl}\0${ref}`)
  if (!p) {
    p = projectLogin(databaseUrl, ref)
    p.catch(() => logins.delete(`${databaseUrl}\0${ref}`))
    logins.set(`${databaseUrl}\0${ref}`, p)
  }
  return p
}

export class PostgresWireSession {
  private upstream: net.Socket | undefined
  private upstreamKey: { pid: number; key: number } | undefined
  private ended = false

  constructor(
    private readonly o: WireSessionOptions & { projectDbs: ProjectDatabases; databaseUrl: string; statementTimeoutMs: number | undefined },
  ) {}

  async serve(): Promise<void> {
    const { io } = this.o
    try {
      // Makes the project's database and its role ready (and checks the project is up), as any first use does.
      await this.o.projectDbs.transaction(this.o.ref, { readOnly: true }, async () => {})
      const login = await loginFor(this.o.databaseUrl, this.o.ref)
      await this.connect(login)
    } catch (err) {
      await this.fatal({ severity: 'FATAL', code: '57P03', message: `the project's database is not available: ${(err as Error).message}` })
      return
    }
    const upstream = this.upstream!
    const frames = new FrameReader(this.o.settings.maxMessageBytes)
    const gone = new Promise<void>((resolve) => upstream.once('close', () => resolve()))
    upstream.on('data', (chunk: Buffer) => {
      upstream.pause()
      io.write(chunk).then(
        () => upstream.resume(),
        () => upstream.destroy(),
      )
    })
    const pump = (async () => {
      for (;;) {
        const chunk = await io.read()
        if (!chunk || this.ended) break
        try {
          // Framed only to bound a message's size; the bytes go on as they came.
          frames.push(chunk)
        } catch (err) {
          await this.fatal({ severity: 'FATAL', code: '08P01', message: (err as Error).message })
          break
        }
        if (!upstream.write(chunk)) await new Promise((r) => upstream.once('drain', r))
      }
      upstream.end()
    })()
    await Promise.race([gone, pump])
    upstream.destroy()
    if (!this.ended) await io.end()
  }

  cancel(): void {
    if (!this.upstreamKey) return
    const url = new URL(this.o.databaseUrl)
    const c = net.connect(Number(url.port || 5432), url.hostname, () => {
      c.end(serialize.cancel(this.upstreamKey!.pid, this.upstreamKey!.key))
    })
    c.on('error', () => {})
  }

  end(): void {
    void this.fatal({ severity: 'FATAL', code: '57P01', message: 'terminating connection due to administrator command' })
  }

  private async fatal(e: PgErrorFields): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.upstream?.destroy()
    await this.o.io.end(errorResponse(e))
  }

  /** Logs in upstream, passes its parameters to the client and ends with the client's ReadyForQuery. */
  private connect(login: Login): Promise<void> {
    const url = new URL(this.o.databaseUrl)
    const socket = net.connect(Number(url.port || 5432), url.hostname)
    socket.setNoDelay(true)
    this.upstream = socket
    const parser = new Parser()
    const toClient: Buffer[] = []
    let saslSession: SaslSession | undefined
    let setRole = this.o.role !== 'postgres'
    return new Promise<void>((resolve, reject) => {
      const fail = (why: Error) => {
        cleanup()
        socket.destroy()
        reject(why)
      }
      const onData = (chunk: Buffer) => {
        parser.parse(chunk, (msg: BackendMessage) => void handle(msg).catch(fail))
      }
      const handle = async (msg: BackendMessage) => {
        const m = msg as BackendMessage & Record<string, unknown>
        switch (msg.name) {
          case 'authenticationCleartextPassword':
            socket.write(serialize.password(login.password))
            break
          case 'authenticationSASL':
            saslSession = sasl.startSession(m.mechanisms as string[])
            socket.write(serialize.sendSASLInitialResponseMessage(saslSession.mechanism, saslSession.response))
            break
          case 'authenticationSASLContinue':
            await sasl.continueSession(saslSession!, login.password, m.data as string)
            socket.write(serialize.sendSCRAMClientFinalMessage(saslSession!.response))
            break
          case 'authenticationSASLFinal':
            sasl.finalizeSession(saslSession!, m.data as string)
            break
          case 'authenticationOk':
            break
          case 'parameterStatus':
            toClient.push(parameterStatus(m.parameterName as string, m.parameterValue as string))
            break
          case 'backendKeyData':
            this.upstreamKey = { pid: m.processID as number, key: m.secretKey as number }
            break
          case 'commandComplete':
            break
          case 'readyForQuery':
            if (setRole) {
              setRole = false
              socket.write(query(`set role ${this.o.role}`))
              break
            }
            cleanup()
            await this.o.io.write(Buffer.concat([...toClient, backendKeyData(this.o.pid, this.o.key), readyForQuery('I')]))
            resolve()
            break
          case 'error':
            fail(new Error(String(m.message)))
            break
          default:
            break
        }
      }
      const onError = (err: Error) => fail(err)
      const onClose = () => fail(new Error('the server closed the connection'))
      const cleanup = () => {
        socket.off('data', onData)
        socket.off('error', onError)
        socket.off('close', onClose)
      }
      socket.on('data', onData)
      socket.on('error', onError)
      socket.on('close', onClose)
      socket.once('connect', () =>
        socket.write(
          serialize.startup({
            user: login.role,
            database: login.database,
            client_encoding: 'UTF8',
            // The platform's query time-out, as on every other way in, unless the project set its own on its
            // database (the session may change its own either way).
            ...(this.o.statementTimeoutMs !== undefined && { options: `-c statement_timeout=${this.o.statementTimeoutMs}` }),
          }),
        ),
      )
    })
  }
}
