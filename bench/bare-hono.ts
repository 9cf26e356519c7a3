/**
 * The yardstick of bench/load.bench.ts: a bare Hono app on @hono/node-server answering the status poll's path with
 * a constant body — what the same framework on the same machine does with no session, membership or store work.
 * `PORT=… node --import tsx bench/bare-hono.ts`
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('/platform/projects/:ref/status', (c) => c.json({ status: 'ACTIVE_HEALTHY' }))
app.get('/platform/health', (c) => c.json({ ok: true }))

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' })
process.on('SIGTERM', () => server.close(() => process.exit(0)))
