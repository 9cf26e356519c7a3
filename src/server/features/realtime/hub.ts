/**
 * The realtime service of one platform process: every project's sockets, the channels they joined, presence, and the
 * fan-out of broadcasts and database changes to them.
 *  - A socket is authorised by the gateway (its apikey); a channel's join may carry a user's `access_token`, verified
 *    by the gateway's own identity code against the project's current secret, and refreshed by `access_token` pushes:
 *    a token that expires closes the channel with the platform's system message.
 *  - Broadcast goes to every member of the topic (the sender too with `self`, a reply with `ack`); a private channel
 *    is joined only if the RLS policies of `realtime.messages` let the caller read it, and sent to only if they let
 *    it write (rls.ts). Presence keeps each topic's tracked metas, and sends `presence_state` on join and
 *    `presence_diff` on track, untrack and leave.
 *  - postgres_changes subscriptions are checked at join and served by changes.ts.
 *  - With several processes on one PostgreSQL store, broadcasts and presence diffs go to the other processes too
 *    (relay.ts); a process whose client joins a topic asks the others for their presence there.
 *  - Limits (limits.ts): sockets per project, channels per socket, events, bytes of messages, joins and presence
 *    events per second per project, keys of a presence object (over: an error reply on the channel, the socket
 *    kept), payload size, and a bounded send buffer per socket (a reader that does not keep up is
 *    closed rather than buffered without end). A socket silent past the idle time-out is closed.
 */
import { randomUUID } from 'node:crypto'
import type { WebSocket } from 'ws'
import type { RealtimeConfig } from '../../../contracts/realtime'
import type { Clock } from '../../config'
import { GatewayRefusal, identify, type Caller } from '../../gateway'
import type { ChangeFeedLike as ChangeFeed, ChangeSubscription, FeedProject } from './types'
import { newWindows, type ProjectWindows } from './limits'
import { decode, encode, reply, type Frame, type Vsn } from './protocol'
import type { PresenceDiff, Relay, RelayMessage } from './relay'
import { canUsePrivateChannel } from './rls'
import type { GatewayContext } from '../../gateway'

export interface HubOptions {
  /**
   * The server's clock (deps.clock): a token's and a channel's expiry are its time, as the gateway's are, and so are
   * the seconds the per-second limits count in.
   */
  clock: Clock
  idleTimeoutMs: number
  sendBufferBytes: number
  /** Messages carried and sockets held, per project (usage.ts). */
  onMessages?(projectId: number, count: number): void
  onConnections?(projectId: number, open: number): void
}

interface PresenceEntry {
  member: Member
  ref: string
  meta: Record<string, unknown>
}

export interface Member {
  id: string
  socket: Socket
  /** The topic as the client names it (`realtime:room1`). */
  topic: string
  private: boolean
  joinRef: string | null
  joinedAt: string
  caller: Caller
  broadcastSelf: boolean
  broadcastAck: boolean
  presenceKey: string
  presenceEnabled: boolean
  canWrite: boolean
  postgresChanges: ChangeSubscription[]
  expiryTimer?: NodeJS.Timeout
}

/** One project's sockets and topics on this process. */
export class ProjectRealtime implements FeedProject {
  readonly sockets = new Set<Socket>()
  /** Members by routing key (`private:` + topic for private channels, so they never mix with public ones). */
  readonly topics = new Map<string, Set<Member>>()
  readonly presence = new Map<string, Map<string, PresenceEntry[]>>()
  /** Presence tracked on other processes, by routing key, presence key, then the process's id: metas with phx_ref. */
  readonly remotePresence = new Map<string, Map<string, { origin: string; meta: Record<string, unknown> }[]>>()
  /** Routing keys whose presence this process asked the others for (while it has members there). */
  readonly askedPresence = new Set<string>()
  feed?: ChangeFeed

  constructor(
    readonly hub: Hub,
    readonly gateway: GatewayContext,
    public config: RealtimeConfig,
  ) {}

  get ref() {
    return this.gateway.project.ref
  }

  counted(messages: number) {
    this.hub.options.onMessages?.(this.gateway.project.id, messages)
  }

  /** The project's per-second counts, shared with its HTTP broadcasts (kept by the hub, not by the sockets). */
  private get windows(): ProjectWindows {
    return this.hub.windowsOf(this.ref)
  }

  /** One more client event this second; false when the project's events per second are spent. */
  takeEvent(): boolean {
    return this.windows.events.take(this.config.max_events_per_second)
  }

  /** `bytes` more of client messages this second; false when the project's bytes per second are spent. */
  takeBytes(bytes: number): boolean {
    return this.windows.bytes.take(this.config.max_bytes_per_second, bytes)
  }

  /** One more channel join this second; false when the project's joins per second are spent. */
  takeJoin(): boolean {
    return this.windows.joins.take(this.config.max_joins_per_second)
  }

  /** One more presence event (track, untrack) this second; false when the project's are spent. */
  takePresence(): boolean {
    return this.windows.presence.take(this.config.max_presence_events_per_second)
  }

  members(key: string): Set<Member> {
    return this.topics.get(key) ?? new Set()
  }

  /**
   * Sends a broadcast to a topic's members (not `except`), as the client sees it; counts the messages. One that
   * started on this process goes to the other processes too.
   */
  broadcast(key: string, topic: string, inner: Record<string, unknown>, except?: Member, relayed = false): number {
    if (!relayed) this.hub.relay?.publish({ kind: 'broadcast', ref: this.ref, key, topic, inner })
    let sent = 0
    for (const m of this.members(key)) {
      if (m === except) continue
      if (m.socket.send({ join_ref: null, ref: null, topic, event: 'broadcast', payload: inner })) sent++
    }
    this.hub.options.onMessages?.(this.gateway.project.id, sent)
    return sent
  }
}

/** The size of a client message's payload, as the payload limit and the bytes per second count it. */
function payloadBytes(frame: Frame): number {
  const inner = (frame.payload as { payload?: unknown }).payload
  return inner instanceof Uint8Array ? inner.byteLength : Buffer.byteLength(JSON.stringify(inner ?? null))
}

/** The presence of a topic on this process, as presence_state sends it (local members only). */
function localPresence(project: ProjectRealtime, key: string): PresenceDiff['joins'] {
  const out: PresenceDiff['joins'] = {}
  for (const [k, entries] of project.presence.get(key) ?? []) out[k] = { metas: entries.map((e) => ({ ...e.meta, phx_ref: e.ref })) }
  return out
}

/** Applies another process's presence diff to what this one knows of it, and tells the topic's members here. */
function applyRemotePresence(project: ProjectRealtime, key: string, origin: string, diff: PresenceDiff) {
  const members = project.members(key)
  if (members.size === 0) return
  let topic = project.remotePresence.get(key)
  if (!topic) project.remotePresence.set(key, (topic = new Map()))
  for (const [k, { metas }] of Object.entries(diff.leaves)) {
    const gone = new Set(metas.map((m) => m.phx_ref))
    const left = (topic.get(k) ?? []).filter((e) => !(e.origin === origin && gone.has(e.meta.phx_ref)))
    if (left.length) topic.set(k, left)
    else topic.delete(k)
  }
  for (const [k, { metas }] of Object.entries(diff.joins)) topic.set(k, [...(topic.get(k) ?? []), ...metas.map((meta) => ({ origin, meta }))])
  let sent = 0
  for (const m of members) {
    if (!m.presenceEnabled) continue
    if (m.socket.send({ join_ref: m.joinRef, ref: null, topic: m.topic, event: 'presence_diff', payload: diff })) sent++
  }
  project.counted(sent)
}

const routeKey = (topic: string, isPrivate: boolean) => (isPrivate ? `private:${topic}` : topic)

/** The realtime service of this process. */
export class Hub {
  readonly projects = new Map<string, ProjectRealtime>()
  /** The other processes of the store (PostgreSQL), when there can be any. */
  relay?: Relay
  /**
   * Each project's per-second counts on this process, by ref: kept apart from `projects` because a project's HTTP
   * broadcasts count too while none of its sockets is open here.
   */
  private readonly windows = new Map<string, ProjectWindows>()

  constructor(
    readonly options: HubOptions,
    private readonly feeds: (project: ProjectRealtime) => ChangeFeed,
  ) {}

  project(gateway: GatewayContext, config: RealtimeConfig): ProjectRealtime {
    let p = this.projects.get(gateway.project.ref)
    if (!p) {
      p = new ProjectRealtime(this, gateway, config)
      this.projects.set(gateway.project.ref, p)
    } else {
      p.config = config
    }
    return p
  }

  windowsOf(ref: string): ProjectWindows {
    let w = this.windows.get(ref)
    if (!w) {
      // Projects that only ever broadcast over HTTP would otherwise leave an entry each: past a few hundred, drop
      // those whose counts are of an earlier second (they would start from zero anyway).
      if (this.windows.size >= 256) {
        for (const [key, old] of this.windows) if (Object.values(old).every((rate) => rate.stale())) this.windows.delete(key)
      }
      this.windows.set(ref, (w = newWindows(this.options.clock)))
    }
    return w
  }

  /** New limits saved: they apply from now, each per-second count starting again. */
  limitsChanged(ref: string, config: RealtimeConfig) {
    this.windows.delete(ref)
    const open = this.projects.get(ref)
    if (open) open.config = config
  }

  /** Sockets open now for a project on this process. */
  connections(ref: string): number {
    return this.projects.get(ref)?.sockets.size ?? 0
  }

  feedOf(project: ProjectRealtime): ChangeFeed {
    project.feed ??= this.feeds(project)
    return project.feed
  }

  accept(ws: WebSocket, project: ProjectRealtime, caller: Caller, vsn: Vsn): Socket {
    const socket = new Socket(ws, project, caller, vsn, this.options)
    project.sockets.add(socket)
    this.options.onConnections?.(project.gateway.project.id, project.sockets.size)
    // A frame past the largest size, a broken frame: ws closes the socket itself (1009, 1002) after this.
    ws.on('error', () => {})
    ws.on('close', () => {
      socket.closed()
      project.sockets.delete(socket)
      if (project.sockets.size === 0 && this.projects.get(project.ref) === project) {
        this.projects.delete(project.ref)
        void project.feed?.stop()
      }
    })
    return socket
  }

  /** A broadcast from outside any socket (the HTTP API): to this process's members and the other processes. */
  broadcastFrom(ref: string, key: string, topic: string, inner: Record<string, unknown>) {
    const project = this.projects.get(ref)
    if (project) project.broadcast(key, topic, inner)
    else this.relay?.publish({ kind: 'broadcast', ref, key, topic, inner })
  }

  /**
   * The project is deleted: its sockets here are closed and its change feed stopped, and the other processes are
   * told to do the same. A client that reconnects is refused by the gateway (the project is gone).
   */
  async removeProject(ref: string, relayed = false): Promise<void> {
    if (!relayed) this.relay?.publish({ kind: 'project_removed', ref })
    this.windows.delete(ref)
    const project = this.projects.get(ref)
    if (!project) return
    this.projects.delete(ref)
    for (const s of project.sockets) s.end(1001, 'the project was deleted')
    await project.feed?.stop()
  }

  /** The processes whose presence this one keeps (relayed to it by their id). */
  remoteOrigins(): Set<string> {
    const out = new Set<string>()
    for (const p of this.projects.values()) {
      for (const topic of p.remotePresence.values()) for (const entries of topic.values()) for (const e of entries) out.add(e.origin)
    }
    return out
  }

  /** Drops the presence of processes that stopped without sending its leaves, as leaves to the members here. */
  forgetOrigins(dead: Set<string>) {
    if (dead.size === 0) return
    for (const p of this.projects.values()) {
      for (const [key, topic] of p.remotePresence) {
        const byOrigin = new Map<string, PresenceDiff['leaves']>()
        for (const [k, entries] of topic) {
          for (const e of entries) {
            if (!dead.has(e.origin)) continue
            const leaves = byOrigin.get(e.origin) ?? {}
            leaves[k] = { metas: [...(leaves[k]?.metas ?? []), e.meta] }
            byOrigin.set(e.origin, leaves)
          }
        }
        for (const [origin, leaves] of byOrigin) applyRemotePresence(p, key, origin, { joins: {}, leaves })
      }
    }
  }

  /** What another process sent (relay.ts). */
  fromRelay(m: RelayMessage, from: string) {
    const project = this.projects.get(m.ref)
    if (!project) return
    switch (m.kind) {
      case 'broadcast':
        return void project.broadcast(m.key, m.topic, m.inner, undefined, true)
      case 'presence_diff':
        return applyRemotePresence(project, m.key, from, m.diff)
      case 'presence_request': {
        const state = localPresence(project, m.key)
        if (Object.keys(state).length) this.relay?.publish({ kind: 'presence_state', ref: m.ref, key: m.key, to: from, state })
        return
      }
      case 'presence_state':
        if (m.to === this.relay?.origin) applyRemotePresence(project, m.key, from, { joins: m.state, leaves: {} })
        return
      case 'project_removed':
        return void this.removeProject(m.ref, true).catch((err: unknown) => console.error(`realtime: closing ${m.ref} failed: ${(err as Error).message}`))
    }
  }

  /** Closes every socket (the server stops). */
  async close(): Promise<void> {
    for (const p of this.projects.values()) {
      for (const s of p.sockets) s.ws.terminate()
      await p.feed?.stop()
    }
    this.projects.clear()
  }
}

const POSTGRES_EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE'])

/** One client's WebSocket. */
export class Socket {
  readonly id = randomUUID()
  readonly members = new Map<string, Member>()
  private idleTimer?: NodeJS.Timeout
  private open = true
  /** Frames are handled one after another, in the order sent (a leave never overtakes the join before it). */
  private handling: Promise<void> = Promise.resolve()

  constructor(
    readonly ws: WebSocket,
    readonly project: ProjectRealtime,
    readonly caller: Caller,
    readonly vsn: Vsn,
    private readonly options: HubOptions,
  ) {
    this.touch()
    ws.on('message', (data, isBinary) => {
      this.touch()
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
      this.handling = this.handling
        .then(() => this.receive(buf, isBinary))
        .catch((err: unknown) => {
          console.error(`realtime: a frame of ${project.ref} failed: ${(err as Error).message}`)
        })
    })
  }

  /** A socket that says nothing past the idle time-out is gone (closed without a close frame, say). */
  private touch() {
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.end(1000, 'idle: no heartbeat received'), this.options.idleTimeoutMs)
    this.idleTimer.unref()
  }

  /** Closes the socket with `code`; one whose client does not answer the close is ended a second later. */
  end(code: number, reason: string) {
    this.ws.close(code, reason)
    setTimeout(() => this.ws.terminate(), 1_000).unref()
  }

  /** Sends a frame; false (and the socket closed) when the client does not read what it was sent. */
  send(frame: Frame): boolean {
    if (!this.open || this.ws.readyState !== this.ws.OPEN) return false
    if (this.ws.bufferedAmount > this.options.sendBufferBytes) {
      this.open = false
      // The close frame would queue behind what the client is not reading: end the connection at once.
      this.ws.terminate()
      return false
    }
    this.ws.send(encode(frame, this.vsn))
    return true
  }

  closed() {
    this.open = false
    clearTimeout(this.idleTimer)
    for (const m of [...this.members.values()]) this.leave(m)
  }

  private error(to: Frame, reason: string) {
    this.send(reply(to, 'error', { reason }))
  }

  private async receive(buf: Buffer, isBinary: boolean) {
    const frame = decode(buf, isBinary, this.vsn)
    if (!frame) {
      this.send({ join_ref: null, ref: null, topic: 'phoenix', event: 'phx_error', payload: { reason: 'malformed frame: not a message of the Phoenix channel protocol in this serializer version (vsn ' + this.vsn + ')' } })
      return
    }
    if (frame.topic === 'phoenix' && frame.event === 'heartbeat') return void this.send(reply(frame, 'ok'))
    if (frame.event === 'phx_join') return this.join(frame)
    const member = this.members.get(frame.topic)
    if (!member) return this.error(frame, 'unmatched topic')
    switch (frame.event) {
      case 'phx_leave':
        this.leave(member)
        return void this.send(reply(frame, 'ok'))
      case 'access_token':
        return this.refreshToken(member, frame)
      case 'broadcast':
        return this.pushBroadcast(member, frame)
      case 'presence':
        return this.pushPresence(member, frame)
      default:
        return this.error(frame, `unknown event ${JSON.stringify(frame.event.slice(0, 64))}`)
    }
  }

  private payloadTooLarge(frame: Frame): boolean {
    const limit = (this.project.config.max_payload_size_in_kb ?? Number.POSITIVE_INFINITY) * 1024
    const size = payloadBytes(frame)
    if (size <= limit) return false
    this.error(frame, `Payload too large: ${size} bytes, the project allows ${limit}`)
    return true
  }

  /** The caller a channel acts as: the socket's key, or the user's token the join carried. */
  private async callerOf(token: unknown): Promise<Caller> {
    if (typeof token !== 'string' || token === '') return this.caller
    return (await identify({ authorization: `Bearer ${token}` }, this.project.gateway.project.jwtSecret, this.project.ref, false, this.options.clock.now()))!
  }

  private async join(frame: Frame) {
    const { topic } = frame
    const config = this.project.config
    if (config.suspend) return this.error(frame, 'RealtimeDisabledForTenant: Realtime is disabled for this project')
    if (!topic.startsWith('realtime:') || topic.length > 255) return this.error(frame, 'unmatched topic')
    if (!this.project.takeJoin()) {
      return this.error(frame, `ClientJoinRateLimitReached: Too many joins per second (the project allows ${config.max_joins_per_second})`)
    }
    const existing = this.members.get(topic)
    if (existing) this.leave(existing)
    if (this.members.size >= (config.max_channels_per_client ?? Number.POSITIVE_INFINITY)) {
      return this.error(frame, `ChannelRateLimitReached: Too many channels (a socket may join ${config.max_channels_per_client})`)
    }
    const payload = frame.payload as { config?: Record<string, unknown>; access_token?: unknown }
    const cfg = (payload.config ?? {}) as {
      broadcast?: { self?: unknown; ack?: unknown }
      presence?: { key?: unknown; enabled?: unknown }
      postgres_changes?: unknown
      private?: unknown
    }
    const isPrivate = cfg.private === true
    if (config.private_only && !isPrivate) return this.error(frame, 'PrivateOnly: This project only allows private channels')
    let caller: Caller
    try {
      caller = await this.callerOf(payload.access_token)
    } catch (err) {
      if (err instanceof GatewayRefusal) return this.error(frame, tokenReason(err))
      throw err
    }
    let canWrite = true
    if (isPrivate) {
      const rights = await canUsePrivateChannel(this.project.gateway, caller, topic.slice('realtime:'.length))
      if (!rights.read) return this.error(frame, 'Unauthorized: You do not have permissions to read from this Channel topic: ' + topic.slice('realtime:'.length))
      canWrite = rights.write
    }
    let subscriptions: ChangeSubscription[] = []
    const wanted = cfg.postgres_changes ?? []
    if (!Array.isArray(wanted) || wanted.length > 100) return this.error(frame, 'postgres_changes must be a list of at most 100 subscriptions')
    if (wanted.length > 0) {
      for (const w of wanted) {
        const o = (w ?? {}) as Record<string, unknown>
        if (typeof o.event !== 'string' || !POSTGRES_EVENTS.has(o.event.toUpperCase()) || typeof o.schema !== 'string') {
          return this.error(frame, 'Invalid postgres_changes: each needs an event (*, INSERT, UPDATE or DELETE) and a schema')
        }
      }
      try {
        subscriptions = await this.project.hub.feedOf(this.project).subscribe(wanted as Record<string, unknown>[])
      } catch (err) {
        return this.error(frame, (err as Error).message)
      }
    }
    if (this.members.size >= (config.max_channels_per_client ?? Number.POSITIVE_INFINITY)) {
      return this.error(frame, `ChannelRateLimitReached: Too many channels (a socket may join ${config.max_channels_per_client})`)
    }
    const member: Member = {
      id: randomUUID(),
      socket: this,
      topic,
      private: isPrivate,
      joinRef: frame.join_ref ?? frame.ref,
      joinedAt: this.options.clock.now().toISOString(),
      caller,
      broadcastSelf: cfg.broadcast?.self === true,
      broadcastAck: cfg.broadcast?.ack === true,
      presenceKey: typeof cfg.presence?.key === 'string' && cfg.presence.key !== '' ? cfg.presence.key : randomUUID(),
      presenceEnabled: cfg.presence?.enabled !== false && config.presence_enabled,
      canWrite,
      postgresChanges: subscriptions,
    }
    this.members.set(topic, member)
    const key = routeKey(topic, isPrivate)
    let set = this.project.topics.get(key)
    if (!set) this.project.topics.set(key, (set = new Set()))
    set.add(member)
    this.scheduleExpiry(member)
    const response = wanted.length > 0 ? { postgres_changes: subscriptions.map((s) => s.echo) } : {}
    this.send(reply(frame, 'ok', response))
    if (subscriptions.length > 0) {
      this.send({ join_ref: member.joinRef, ref: null, topic, event: 'system', payload: { message: 'Subscribed to PostgreSQL', status: 'ok', extension: 'postgres_changes', channel: topic.slice('realtime:'.length) } })
    }
    if (member.presenceEnabled) {
      this.send({ join_ref: member.joinRef, ref: null, topic, event: 'presence_state', payload: this.presenceState(key) })
      if (this.project.hub.relay && !this.project.askedPresence.has(key)) {
        this.project.askedPresence.add(key)
        this.project.hub.relay.publish({ kind: 'presence_request', ref: this.project.ref, key })
      }
    }
  }

  /**
   * Closes the channel when the token it joined with expires, with the platform's system message. How long it has
   * left is by the server's clock; the wait itself is a timer.
   */
  private scheduleExpiry(member: Member) {
    clearTimeout(member.expiryTimer)
    const exp = member.caller.claims.exp
    if (typeof exp !== 'number') return
    const ms = exp * 1000 - this.options.clock.now().getTime()
    member.expiryTimer = setTimeout(() => this.expire(member, `Token has expired ${Math.max(0, Math.round(-ms / 1000))} seconds ago`), Math.max(0, Math.min(ms, 2 ** 31 - 1)))
    member.expiryTimer.unref()
  }

  private expire(member: Member, message: string) {
    if (this.members.get(member.topic) !== member) return
    const channel = member.topic.slice('realtime:'.length)
    this.send({ join_ref: member.joinRef, ref: null, topic: member.topic, event: 'system', payload: { message, status: 'error', extension: 'system', channel } })
    this.leave(member)
    this.send({ join_ref: member.joinRef, ref: null, topic: member.topic, event: 'phx_close', payload: {} })
  }

  private async refreshToken(member: Member, frame: Frame) {
    const token = (frame.payload as { access_token?: unknown }).access_token
    try {
      const caller = await this.callerOf(token)
      member.caller = caller
      this.scheduleExpiry(member)
    } catch (err) {
      if (!(err instanceof GatewayRefusal)) throw err
      this.expire(member, tokenReason(err))
    }
  }

  leave(member: Member) {
    if (this.members.get(member.topic) !== member) return
    clearTimeout(member.expiryTimer)
    this.members.delete(member.topic)
    const key = routeKey(member.topic, member.private)
    const set = this.project.topics.get(key)
    set?.delete(member)
    if (set && set.size === 0) {
      this.project.topics.delete(key)
      // Nobody here follows the topic: what the other processes track there is asked again on the next join.
      this.project.askedPresence.delete(key)
      this.project.remotePresence.delete(key)
    }
    for (const s of member.postgresChanges) s.cancel()
    this.untrack(member, key)
  }

  private pushBroadcast(member: Member, frame: Frame) {
    if (this.payloadTooLarge(frame)) return
    if (!this.project.takeEvent()) return this.error(frame, `TooManyEventsPerSecond: the project allows ${this.project.config.max_events_per_second} events per second`)
    if (!this.project.takeBytes(payloadBytes(frame))) {
      return this.error(frame, `TooManyBytesPerSecond: the project allows ${this.project.config.max_bytes_per_second} bytes of messages per second`)
    }
    if (!member.canWrite) return this.error(frame, 'Unauthorized: You do not have permissions to write to this Channel topic')
    const inner = frame.payload as Record<string, unknown>
    this.project.broadcast(routeKey(member.topic, member.private), member.topic, { ...inner, type: 'broadcast' }, member.broadcastSelf ? undefined : member)
    if (member.broadcastAck && frame.ref) this.send(reply(frame, 'ok'))
  }

  private presenceState(key: string): Record<string, { metas: Record<string, unknown>[] }> {
    const out = localPresence(this.project, key)
    for (const [k, entries] of this.project.remotePresence.get(key) ?? []) out[k] = { metas: [...(out[k]?.metas ?? []), ...entries.map((e) => e.meta)] }
    return out
  }

  private pushPresence(member: Member, frame: Frame) {
    if (!member.presenceEnabled) return this.error(frame, 'Presence is not enabled on this channel')
    if (this.payloadTooLarge(frame)) return
    if (!this.project.takePresence()) {
      return this.error(frame, `PresenceRateLimitReached: Too many presence messages per second (the project allows ${this.project.config.max_presence_events_per_second})`)
    }
    if (!member.canWrite) return this.error(frame, 'Unauthorized: You do not have permissions to write to this Channel topic')
    const p = frame.payload as { event?: unknown; payload?: unknown }
    const key = routeKey(member.topic, member.private)
    if (p.event === 'track') {
      const meta = p.payload && typeof p.payload === 'object' && !Array.isArray(p.payload) ? (p.payload as Record<string, unknown>) : {}
      const keys = Object.keys(meta).length
      const maxKeys = this.project.config.max_presence_keys_per_object ?? Number.POSITIVE_INFINITY
      if (keys > maxKeys) return this.error(frame, `PresenceKeysLimitReached: A presence object has ${keys} keys, the project allows ${maxKeys}`)
      this.track(member, key, meta)
      return void this.send(reply(frame, 'ok'))
    }
    if (p.event === 'untrack') {
      this.untrack(member, key)
      return void this.send(reply(frame, 'ok'))
    }
    this.error(frame, 'presence events are track and untrack')
  }

  private track(member: Member, key: string, meta: Record<string, unknown>) {
    let topic = this.project.presence.get(key)
    if (!topic) this.project.presence.set(key, (topic = new Map()))
    const entries = topic.get(member.presenceKey) ?? []
    const previous = entries.filter((e) => e.member === member)
    const entry: PresenceEntry = { member, ref: randomUUID().replace(/-/g, '').slice(0, 20), meta }
    topic.set(member.presenceKey, [...entries.filter((e) => e.member !== member), entry])
    const diff = {
      joins: { [member.presenceKey]: { metas: [{ ...meta, phx_ref: entry.ref, ...(previous[0] ? { phx_ref_prev: previous[0].ref } : {}) }] } },
      leaves: previous.length ? { [member.presenceKey]: { metas: previous.map((e) => ({ ...e.meta, phx_ref: e.ref })) } } : {},
    }
    this.presenceDiff(key, diff)
  }

  private untrack(member: Member, key: string) {
    const topic = this.project.presence.get(key)
    const entries = topic?.get(member.presenceKey)
    if (!topic || !entries) return
    const gone = entries.filter((e) => e.member === member)
    if (gone.length === 0) return
    const left = entries.filter((e) => e.member !== member)
    if (left.length) topic.set(member.presenceKey, left)
    else topic.delete(member.presenceKey)
    if (topic.size === 0) this.project.presence.delete(key)
    this.presenceDiff(key, { joins: {}, leaves: { [member.presenceKey]: { metas: gone.map((e) => ({ ...e.meta, phx_ref: e.ref })) } } })
  }

  private presenceDiff(key: string, diff: PresenceDiff) {
    this.project.hub.relay?.publish({ kind: 'presence_diff', ref: this.project.ref, key, diff })
    let sent = 0
    for (const m of this.project.members(key)) {
      if (!m.presenceEnabled) continue
      if (m.socket.send({ join_ref: m.joinRef, ref: null, topic: m.topic, event: 'presence_diff', payload: diff })) sent++
    }
    this.options.onMessages?.(this.project.gateway.project.id, sent)
  }
}

/** The platform's words for a token the gateway refused. */
function tokenReason(err: GatewayRefusal): string {
  if (err.reason === 'token_expired') return 'InvalidJWTToken: Token has expired'
  return `InvalidJWTToken: ${err.message}`
}
