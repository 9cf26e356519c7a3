/**
 * Each project's realtime service behind the gateway, `{origin}/p/{ref}/realtime/v1/…`:
 *   GET  /websocket?apikey=…&vsn=2.0.0      the Phoenix channel protocol over a WebSocket (hub.ts)
 *   POST /api/broadcast                      { messages: [{ topic, event, payload, private? }] } → 202
 *   POST /api/broadcast/{topic}/events/{event}   the payload as the body (realtime-js' httpSend) → 202
 *   (both count against the project's events and bytes per second, as its sockets' messages do: 429 past them)
 * The WebSocket is the HTTP server's 'upgrade' event handed to the app like any request (`upgradeHandler`), so the
 * app's defences and the gateway (project, key from the `apikey` query parameter) run first; the route then takes
 * the socket over with `ws`. Errors are `{ message }` (and `error`, the platform's code, where it has one).
 * For the dashboard: GET/PATCH /v1/projects/{ref}/config/realtime (the limits) and
 * GET /platform/projects/{ref}/realtime/channels (the inspector's channels on this process).
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { STATUS_CODES } from 'node:http'
import { Hono, type Context } from 'hono'
import { WebSocketServer, type WebSocket } from 'ws'
import * as z from 'zod'
import * as endpoints from '../../../contracts/endpoints'
import { RealtimeConfigUpdate, type RealtimeChannels, type RealtimeConfig } from '../../../contracts/realtime'
import type { Deps } from '../../core/deps'
import { startProcessEntry } from '../../core/processes'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import type { GatewayEnv, GatewayRefusal, Product } from '../../gateway'
import { memberProject } from '../projects/access'
import { ChangeFeed } from './changes'
import { Hub } from './hub'
import { MAX_FRAME_BYTES, SOCKET_DEFAULTS } from './limits'
import { createRelay } from './relay'
import { readRealtimeConfig, saveRealtimeConfig } from './store'
import { VSNS, type Vsn } from './protocol'
import { canUsePrivateChannel } from './rls'
import { createRealtimeUsage, type RealtimeUsage } from './usage'

/** What the upgrade handler lends the app for one request: the socket, taken over if the route accepts it. */
interface UpgradeSlot {
  accept(onSocket: (ws: WebSocket) => void): void
}

export interface Realtime {
  hub: Hub
  product: Product
  routes: Hono<AppEnv>
  usage: RealtimeUsage
  /** The Node server's 'upgrade' listener, serving through `app` (the whole platform app). */
  upgradeHandler(app: { fetch: (req: Request, env: unknown) => Response | Promise<Response> }): (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  close(): Promise<void>
}

/** Limits read from the store are kept this long (another process's change arrives within it). */
const CONFIG_TTL_MS = 5_000

const BroadcastMessages = z.object({
  messages: z
    .array(
      z.object({
        topic: z.string().min(1).max(255),
        event: z.string().min(1).max(255),
        payload: z.unknown(),
        private: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(100),
})

const realtimeError = (c: Context, status: 400 | 401 | 403 | 404 | 413 | 426 | 429 | 503, message: string, error?: string) =>
  c.json(error ? { error, message } : { message }, status)

export function createRealtime(deps: Deps): Realtime {
  const { db } = deps
  const usage = createRealtimeUsage(db, deps.clock, deps.config.realtime?.usageFlushMs)
  const hub = new Hub(
    {
      clock: deps.clock,
      idleTimeoutMs: deps.config.realtime?.idleTimeoutMs ?? SOCKET_DEFAULTS.idleTimeoutMs,
      sendBufferBytes: deps.config.realtime?.sendBufferBytes ?? SOCKET_DEFAULTS.sendBufferBytes,
      onMessages: (projectId, n) => usage.messages(projectId, n),
      onConnections: (projectId, open) => usage.connections(projectId, open),
    },
    (project) => new ChangeFeed(project, deps.projectDbs, deps.config.realtime?.newTablesRescanMs),
  )
  // Several processes may share a PostgreSQL store; a PGlite store has one.
  const relay = db.kind === 'postgres' && deps.config.databaseUrl ? createRelay(db, deps.config.databaseUrl, (m, from) => hub.fromRelay(m, from)) : undefined
  hub.relay = relay
  // This process's entry in the store while it runs; after each renewal, the presence other processes relayed is
  // dropped for those whose entries are no longer renewed (killed without closing: they never sent its leaves).
  const processes = relay
    ? startProcessEntry(db, relay.origin, {
        liveMs: deps.config.realtime?.processLiveMs ?? deps.config.processLiveMs,
        onRenewed: async () => {
          const origins = hub.remoteOrigins()
          if (origins.size === 0) return
          const live = await processes!.live(origins)
          hub.forgetOrigins(new Set([...origins].filter((o) => !live.has(o))))
        },
      })
    : undefined
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false })
  const configs = new Map<number, { at: number; config: Promise<RealtimeConfig> }>()
  const configOf = (projectId: number) => {
    const known = configs.get(projectId)
    if (known && Date.now() - known.at < CONFIG_TTL_MS) return known.config
    const config = readRealtimeConfig(db, projectId)
    configs.set(projectId, { at: Date.now(), config })
    config.catch(() => configs.delete(projectId))
    return config
  }
  // A deleted project's sockets close and its change feed stops, here and on the other processes.
  deps.lifecycle.onRemoval(async ({ id, ref }) => {
    configs.delete(id)
    await hub.removeProject(ref)
  })

  const product = new Hono<GatewayEnv>()

  product.get('/websocket', async (c) => {
    const gateway = c.var.gateway
    const slot = (c.env as { realtimeUpgrade?: UpgradeSlot } | undefined)?.realtimeUpgrade
    if (!slot || c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return realtimeError(c, 426, 'Upgrade Required: connect to this URL with a WebSocket')
    }
    const vsn = (c.req.query('vsn') ?? '1.0.0') as Vsn
    if (!VSNS.includes(vsn)) return realtimeError(c, 400, `Unsupported serializer version ${JSON.stringify(vsn.slice(0, 20))}: 1.0.0 or 2.0.0`)
    const config = await configOf(gateway.project.id)
    if (config.suspend) return realtimeError(c, 403, 'Realtime is disabled for this project', 'RealtimeDisabledForTenant')
    const limit = config.max_concurrent_users ?? Number.POSITIVE_INFINITY
    if (hub.connections(gateway.project.ref) >= limit) {
      return realtimeError(c, 429, `Too many connected users: the project allows ${limit}`, 'ConnectionRateLimitReached')
    }
    const project = hub.project(gateway, config)
    const caller = gateway.caller!
    slot.accept((ws) => hub.accept(ws, project, caller, vsn))
    return c.body(null, 200)
  })

  const deliver = async (c: Context<GatewayEnv>, messages: { topic: string; event: string; payload: unknown; private?: boolean }[]) => {
    const gateway = c.var.gateway
    const config = await configOf(gateway.project.id)
    if (config.suspend) return realtimeError(c, 403, 'Realtime is disabled for this project', 'RealtimeDisabledForTenant')
    const limit = (config.max_payload_size_in_kb ?? Number.POSITIVE_INFINITY) * 1024
    const sizes = messages.map((m) => Buffer.byteLength(JSON.stringify(m.payload ?? null)))
    if (sizes.some((size) => size > limit)) return realtimeError(c, 413, `Payload too large: the project allows ${limit} bytes`)
    for (const m of messages) {
      if (m.private) {
        const rights = await canUsePrivateChannel(gateway, gateway.caller!, m.topic)
        if (!rights.write) return realtimeError(c, 403, `You do not have permissions to write to the Channel topic ${m.topic}`, 'Unauthorized')
      }
    }
    // Counted after the awaits above, so no other request counts between the check and the take. The same
    // per-second counts as the project's sockets; a batch is let through whole or refused whole.
    const windows = hub.windowsOf(gateway.project.ref)
    const events = config.max_events_per_second
    if (!windows.events.fits(events, 1)) return realtimeError(c, 429, 'You have exceeded your rate limit')
    if (!windows.events.fits(events, messages.length)) return realtimeError(c, 429, 'Too many messages to broadcast, please reduce the batch size')
    const bytes = sizes.reduce((a, b) => a + b, 0)
    if (!windows.bytes.fits(config.max_bytes_per_second, bytes)) {
      return realtimeError(c, 429, `Too many bytes to broadcast: the project allows ${config.max_bytes_per_second} bytes of messages per second`)
    }
    windows.events.take(events, messages.length)
    windows.bytes.take(config.max_bytes_per_second, bytes)
    for (const m of messages) {
      const topic = `realtime:${m.topic}`
      hub.broadcastFrom(gateway.project.ref, m.private ? `private:${topic}` : topic, topic, { type: 'broadcast', event: m.event, payload: m.payload ?? {} })
    }
    return c.body(null, 202)
  }

  product.post('/api/broadcast', async (c) => {
    const body = await c.req.json().catch(() => undefined)
    const parsed = BroadcastMessages.safeParse(body)
    if (!parsed.success) return realtimeError(c, 400, `Invalid body: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`)
    return deliver(c, parsed.data.messages)
  })

  product.post('/api/broadcast/:topic/events/:event', async (c) => {
    const topic = c.req.param('topic')
    const event = c.req.param('event')
    if (!topic || !event || topic.length > 255 || event.length > 255) return realtimeError(c, 400, 'A topic and an event of at most 255 characters')
    const text = await c.req.text()
    let payload: unknown
    try {
      payload = JSON.parse(text)
    } catch {
      return realtimeError(c, 400, 'The body must be JSON')
    }
    return deliver(c, [{ topic, event, payload, private: c.req.query('private') === 'true' }])
  })

  const realtimeProduct: Product = {
    name: 'realtime',
    app: product,
    keys: 'required',
    keyInQuery: true,
    refuse: (c: Context, refusal: GatewayRefusal) =>
      c.json({ message: refusal.message, ...(refusal.hint ? { hint: refusal.hint } : {}) }, refusal.status, refusal.headers),
  }

  const routes = new Hono<AppEnv>()
  const member = memberProject(db)
  routes.on(...at(endpoints.getRealtimeConfig), member, async (c) => c.json((await readRealtimeConfig(db, c.var.project.id)) satisfies RealtimeConfig))
  routes.on(...at(endpoints.updateRealtimeConfig), member, validate('json', RealtimeConfigUpdate), async (c) => {
    if (!can(c.var.project.role, 'realtime:all')) return errorJson(c, 403, "You need the realtime:all permission to change this project's realtime settings")
    await saveRealtimeConfig(db, c.var.project.id, c.req.valid('json'))
    configs.delete(c.var.project.id)
    hub.limitsChanged(c.var.project.ref, await configOf(c.var.project.id))
    return c.body(null, 204)
  })
  routes.on(...at(endpoints.listRealtimeChannels), member, async (c) => {
    const project = hub.projects.get(c.var.project.ref)
    const channels: RealtimeChannels['channels'] = []
    for (const members of project?.topics.values() ?? []) {
      const first = [...members][0]
      channels.push({
        topic: first.topic.slice('realtime:'.length),
        private: first.private,
        clients: [...members].map((m) => ({ id: m.socket.id, role: m.caller.role, presence_key: m.presenceEnabled ? m.presenceKey : null, joined_at: m.joinedAt })),
      })
    }
    channels.sort((a, b) => a.topic.localeCompare(b.topic))
    return c.json({ connections: project?.sockets.size ?? 0, channels } satisfies RealtimeChannels)
  })

  return {
    hub,
    product: realtimeProduct,
    routes,
    usage,
    upgradeHandler(app) {
      return (req, socket, head) => {
        socket.on('error', () => {})
        let accepted = false
        const slot: UpgradeSlot = {
          accept(onSocket) {
            accepted = true
            wss.handleUpgrade(req, socket, head, onSocket)
          },
        }
        const headers = new Headers()
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
        }
        const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
        Promise.resolve(app.fetch(new Request(url, { method: req.method, headers }), { incoming: req, realtimeUpgrade: slot }))
          .then(async (res) => {
            if (accepted) return
            const body = Buffer.from(await res.arrayBuffer())
            const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`]
            res.headers.forEach((value, name) => {
              if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`)
            })
            lines.push(`content-length: ${body.length}`, 'connection: close')
            socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]))
          })
          .catch((err: unknown) => {
            console.error(`realtime: an upgrade failed: ${(err as Error).message}`)
            if (!accepted) socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
          })
      }
    },
    async close() {
      await hub.close()
      await relay?.close()
      await processes?.stop()
      wss.close()
      await usage.stop()
    },
  }
}
