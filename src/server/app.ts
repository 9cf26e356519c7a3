/**
 * The local platform as a Hono app: tests call `app.request(...)`, main.ts serves it on a port.
 * createApp migrates the store (and seeds demo data into an empty one) before answering.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { refuseCrossSite, requireApiAuth, requireSession } from './auth'
import { systemClock, type Clock, type ServerConfig } from './config'
import type { Db } from './db'
import { migrate } from './db/migrate'
import type { Deps } from './deps'
import { errorJson, isApiPath, type AppEnv } from './http'
import { createEngine, type Engine } from './lifecycle'
import { backfillProjectKeys } from './keys'
import { registerDevRoutes } from './routes/dev'
import { registerKeysRoutes } from './routes/keys'
import { registerPauseRoutes } from './routes/pause'
import { registerPlatformRoutes, registerPublicPlatformRoutes } from './routes/platform'
import { registerV1Routes } from './routes/v1'
import { registerUpgradeDevRoutes, registerUpgradePlatformRoutes, registerUpgradeV1Routes } from './routes/upgrade'
import { seedDemoData } from './seed'
import { dashboard } from './static'

export interface PlatformServer {
  app: Hono<AppEnv>
  engine: Engine
  /** Stops the engine. The caller owns the Db and closes it. */
  close(): Promise<void>
}

export interface CreateAppOptions {
  db: Db
  config: ServerConfig
  clock?: Clock
  /** Seed demo data into an empty database (default true). */
  seed?: boolean
}

export async function createApp({ db, config, clock = systemClock, seed = true }: CreateAppOptions): Promise<PlatformServer> {
  await migrate(db, seed ? async (tx) => void (await seedDemoData(tx, clock.now(), config.lifecycle)) : undefined)
  // Projects past setting up that have no API keys yet (created before migration 005) get them now.
  await db.transaction((tx) => backfillProjectKeys(tx, clock.now()))

  const engine = createEngine({ db, clock, tickMs: config.lifecycle.tickMs })
  const deps: Deps = { db, config, clock, engine, latency: { ms: 0 } }
  const app = new Hono<AppEnv>()

  if (config.logRequests) {
    app.use('*', async (c, next) => {
      const started = performance.now()
      await next()
      // Method, path and status only: never headers, cookies, query strings or bodies.
      console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${Math.round(performance.now() - started)}ms`)
    })
  }

  app.use('*', refuseCrossSite(config.allowedOrigins))

  const slow = async (c: { req: { path: string } }, next: () => Promise<void>) => {
    if (deps.latency.ms > 0 && c.req.path !== '/platform/health') {
      await new Promise((resolve) => setTimeout(resolve, deps.latency.ms))
    }
    await next()
  }
  app.use('/platform/*', slow)
  app.use('/v1/*', slow)

  registerPublicPlatformRoutes(app, deps)
  app.use('/platform/*', requireSession(db, clock))
  registerPlatformRoutes(app, deps)
  registerUpgradePlatformRoutes(app, deps)
  app.use('/v1/*', requireApiAuth(db, clock))
  registerV1Routes(app, deps)
  registerKeysRoutes(app, deps)
  registerUpgradeV1Routes(app, deps)
  registerPauseRoutes(app, deps)
  if (config.devControls) registerDevRoutes(app, deps)
  if (config.devControls) registerUpgradeDevRoutes(app, deps)

  app.use('*', dashboard(config.distDir))

  app.notFound((c) =>
    isApiPath(c.req.path) ? errorJson(c, 404, `No route ${c.req.method} ${c.req.path}`) : c.text('Not found', 404),
  )

  app.onError((err, c) => {
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own 4xx (e.g. malformed JSON body) answered as JSON like every other error.
      return errorJson(c, err.status, err.message || 'Bad request')
    }
    // The message and stack only: never the request's headers or body.
    console.error(`${c.req.method} ${c.req.path} failed:`, err instanceof Error ? (err.stack ?? err.message) : err)
    return errorJson(c, 500, 'Internal server error')
  })

  return {
    app,
    engine,
    close: () => engine.stop(),
  }
}
