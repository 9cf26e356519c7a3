/**
 * The local platform as a Hono app: tests call `app.request(...)`, main.ts serves it on a port.
 * createApp migrates the store (and seeds demo data into an empty one), registers every feature's transitions
 * on this app's lifecycle, and mounts every feature's routes behind the app-wide defences. It composes; the
 * features (src/server/features/*) hold their routes, their SQL and their transitions.
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { Hono, type MiddlewareHandler } from 'hono'
import { systemClock, type Clock, type ServerConfig } from './config'
import { addedLatency, logRequests, notFound, onError } from './core/defences'
import type { Deps } from './core/deps'
import type { ObjectBytes } from './core/objectBytes'
import { customDomains } from './gateway/customDomain'
import { hostAllowed, jsonOrNoBody, limitBodies, refuseNul, requireKnownHost, securityHeaders } from './core/guards'
import { initialOwnUrl, type AppEnv } from './core/http'
import type { Db } from './db'
import { migrate } from './db/migrate'
import { createEngine, createLifecycle, type Engine, type Lifecycle } from './engine/lifecycle'
import { accountRoutes, publicAccountRoutes } from './features/accounts/routes'
import { memberRoutes } from './features/members/routes'
import { publicVerificationRoutes, verificationRoutes } from './features/accounts/verification'
import { registerBranchingLifecycle } from './features/branching/transitions'
import { branchingRoutes } from './features/branching/routes'
import { databaseRoutes } from './features/database/routes'
import { databaseObjectRoutes } from './features/database/objects/routes'
import { tableEditorRoutes } from './features/database/rows'
import { devRoutes } from './features/dev/routes'
import { functionRoutes } from './features/functions/routes'
import { createFunctionRuntime, type FunctionRuntime } from './features/functions/runtime'
import { functionsProduct } from './features/functions/runtime/product'
import { functionManageRoutes } from './features/functions/runtime/manage'
import { functionAnalyticsRoutes } from './features/functions/runtime/analytics'
import { functionFilesRoutes } from './features/functions/runtime/files'
import { gitHostFor, gitRoutes } from './features/github'
import { backfillProjectKeys } from './features/keys/store'
import { registerKeysLifecycle } from './features/keys/transitions'
import { keysDevRoutes, keysRoutes } from './features/keys/routes'
import { registerStatusLifecycle } from './features/lifecycle/transitions'
import { organizationRoutes } from './features/organizations/routes'
import { aiSettingsRoutes } from './features/orgSettings/aiSettings'
import { orgSettingsRoutes } from './features/orgSettings/routes'
import { createProjectDatabases } from './projectdb'
import { registerProjectDbLifecycle } from './projectdb/lifecycle'
import type { ProjectDatabases } from './projectdb/types'
import { pauseDevRoutes, pauseRoutes } from './features/pause/routes'
import { pauseV1Routes } from './features/pause/v1'
import { registerPauseLifecycle } from './features/pause/transitions'
import { projectRoutes } from './features/projects/routes'
import { projectV1Routes } from './features/projects/v1'
import { statusPollOnNode, type NodeRoute } from './features/projects/statusPoll'
import { restProduct, restRoutes } from './features/rest/routes'
import { authProduct } from './features/auth/routes'
import { authConfigRoutes } from './features/auth/config'
import { authDashboardRoutes } from './features/auth/dashboard'
import { gatewayRoutes, platformCall } from './gateway'
import { projectCors } from './gateway/cors'
import { createRealtime } from './features/realtime/routes'
import { storageRoutes } from './features/storage/routes'
import { objectBytesFor } from './features/storage/objects'
import { storageProduct } from './features/storage/service'
import { settingsDevRoutes, settingsRoutes } from './features/settings/routes'
import { supportRoutes } from './features/support/routes'
import { snippetRoutes } from './features/snippets/routes'
import { sqlEditorRoutes } from './features/database/sqlEditor'
import { refuseCrossSite, requireApiAuth, requireSession, startSessionSweep } from './features/session/auth'
import { publicSessionRoutes, sessionRoutes } from './features/session/routes'
import { upgradeDevRoutes, upgradeRoutes } from './features/upgrade/routes'
import { registerUpgradeLifecycle } from './features/upgrade/transitions'
import { usageDevRoutes, usageRoutes } from './features/usage/routes'
import { wireRoutes } from './features/wire/routes'
import { keysV1Routes } from './features/keys/v1'
import { organizationV1Routes } from './features/organizations/v1'
import { profileV1Routes } from './features/session/v1'
import { storageV1Routes } from './features/storage/v1'
import { databaseV1Routes } from './features/database/v1'
import { wireV1Routes } from './features/wire/v1'
import { authV1Routes } from './features/auth/v1'
import { restV1Routes } from './features/rest/v1'
import { settingsV1Routes } from './features/settings/v1'
import { usageV1Routes } from './features/usage/v1'
import { functionV1Routes } from './features/functions/v1'
import { wirePorts } from './features/wire/server'
import { addDemoGitHub, addDemoStorageAndFunctions, assignDemoSchemas, creditDemoOwner, seedDemoData } from './seed'
import { createUsageMeter } from './core/meter'
import { REQUEST_LOG_LIMIT } from '../contracts/measured'
import { dashboard } from './static'

export interface PlatformServer {
  app: Hono<AppEnv>
  engine: Engine
  /** This app's transitions and status hooks (a second app in the same process has its own). */
  lifecycle: Lifecycle
  /**
   * Tells the app the address it listens on (start.ts, once listening: PORT=0 picks the port only then), so the
   * URLs it builds point at it. PUBLIC_URL, when set, wins.
   */
  listeningOn(url: string): void
  /** Each project's own database (the app closes them in close()). */
  projectDbs: ProjectDatabases
  /** The edge function runtime (its workers and logs). */
  functionRuntime: FunctionRuntime
  /** Where stored objects keep their bytes. */
  objects: ObjectBytes
  /**
   * Routes answered on Node's request before the app, each only when the app would answer the same (the status
   * poll: features/projects/statusPoll.ts); start.ts puts them in front of the app. `app.request` never uses them.
   */
  nodeRoutes: NodeRoute[]
  /** The Node server's 'upgrade' listener: WebSockets (each project's realtime) served through the app. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Stops the engine and closes the project databases. The caller owns the Db and closes it. */
  close(): Promise<void>
}

export interface CreateAppOptions {
  db: Db
  config: ServerConfig
  clock?: Clock
  /** Seed demo data into an empty database (default true). */
  seed?: boolean
  /** Project databases made by the caller (tests place them in a temp folder); default: by config, on `db`. */
  projectDbs?: ProjectDatabases
}

/**
 * One app-wide middleware: the paths it applies to and its name. The app's list is declared once (appMiddlewares)
 * and handed to the status poll's fast path, which answers in place of the app only while it knows every entry.
 */
export interface AppMiddleware {
  name: string
  path: string
  handler: MiddlewareHandler<AppEnv>
  /** False when this configuration leaves it out (the request log): it stays on the list the fast path checks. */
  on?: boolean
}

/**
 * Every app-wide middleware, in the order it runs. `guards` run before any route, headers on every answer (421s and
 * errors included), the Host check before anything is served, the body limit before any body is read, then CSRF,
 * then what a body may be; `session` after the routes that need no session (health, sign-in), before all others.
 */
function appMiddlewares(
  deps: Deps,
  gateway: { products: readonly string[]; dispatch: (request: Request, env: unknown) => Response | Promise<Response> },
): { guards: AppMiddleware[]; session: AppMiddleware[] } {
  const { config, db, clock } = deps
  const sessionOptions = { idleTimeoutMs: config.sessionIdleTimeoutMs }
  return {
    guards: [
      // A project's active custom domain: its API paths are handed to the app again under /p/{ref}, so the guards
      // below run on them once; any other unknown Host goes on to the Host check.
      { name: 'customDomains', path: '*', handler: customDomains(deps, gateway.products, gateway.dispatch) },
      { name: 'logRequests', path: '*', handler: logRequests, on: config.logRequests },
      { name: 'securityHeaders', path: '*', handler: securityHeaders },
      { name: 'requireKnownHost', path: '*', handler: requireKnownHost(config) },
      // Each project's API answers browser apps on any origin: CORS before the guards, so their refusals carry it.
      { name: 'projectCors', path: '/p/*', handler: projectCors },
      { name: 'limitBodies', path: '*', handler: limitBodies },
      { name: 'refuseCrossSite', path: '*', handler: refuseCrossSite(config.allowedOrigins) },
      { name: 'jsonOrNoBody', path: '*', handler: jsonOrNoBody },
      { name: 'refuseNul', path: '*', handler: refuseNul },
      { name: 'addedLatency', path: '/platform/*', handler: addedLatency(deps.latency) },
      { name: 'addedLatency', path: '/v1/*', handler: addedLatency(deps.latency) },
    ],
    // A cookie on /platform; a bearer token or a cookie on /v1.
    session: [
      { name: 'requireSession', path: '/platform/*', handler: requireSession(db, clock, sessionOptions) },
      { name: 'requireApiAuth', path: '/v1/*', handler: requireApiAuth(db, clock, sessionOptions) },
    ],
  }
}

/** Every feature's transitions and status hooks, registered in one place (the order is the order hooks run in). */
function lifecycleFor(config: ServerConfig, projectDbs: ProjectDatabases): Lifecycle {
  const lifecycle = createLifecycle()
  registerKeysLifecycle(lifecycle)
  registerStatusLifecycle(lifecycle, config.lifecycle)
  registerPauseLifecycle(lifecycle, config.lifecycle)
  registerUpgradeLifecycle(lifecycle, config.lifecycle)
  registerProjectDbLifecycle(lifecycle, projectDbs)
  registerBranchingLifecycle(lifecycle, config.lifecycle, projectDbs)
  return lifecycle
}

export async function createApp(options: CreateAppOptions): Promise<PlatformServer> {
  const { db, config, clock = systemClock, seed = true } = options
  const projectDbs = options.projectDbs ?? createProjectDatabases(config, db)
  const lifecycle = lifecycleFor(config, projectDbs)
  await migrate(db, async (tx, applied) => {
    await creditDemoOwner(tx, applied)
    await assignDemoSchemas(tx, applied)
    await addDemoStorageAndFunctions(tx, applied, clock.now())
    await addDemoGitHub(tx, applied, clock.now())
    if (seed) await seedDemoData(tx, clock.now(), lifecycle, config.passwordHashCost)
  })
  // Projects past setting up that have no API keys yet (created before migration 005) get them now.
  await db.transaction((tx) => backfillProjectKeys(tx, clock.now()))

  // Each transition's project work holds its project database open: leaving one slot free keeps requests from
  // waiting on migrations for a database to open.
  const concurrency = Math.max(1, Math.min(config.lifecycle.concurrency, config.projectDb.maxOpen - 1))
  const engine = createEngine({ db, clock, tickMs: config.lifecycle.tickMs, lifecycle, concurrency })
  const objects = objectBytesFor(config)
  const deps: Deps = { db, config, clock, lifecycle, latency: { ms: 0 }, ownUrl: initialOwnUrl(config), projectDbs, objects }
  // What each project's REST endpoint serves, counted in memory and written to the store periodically and on close.
  const usageMeter = createUsageMeter({ db, clock, projectDbs, flushMs: config.usageFlushMs, logLimit: REQUEST_LOG_LIMIT })
  const functionRuntime = createFunctionRuntime(deps, { databasePort: () => wirePorts.get(projectDbs) })
  // A deleted project's (or branch's) function workers end, and their bundles and logs go, before its database.
  deps.lifecycle.onRemoval(({ id }) => functionRuntime.removeProject(id))
  const realtime = createRealtime(deps)
  const app = new Hono<AppEnv>()
  const products = [restProduct(deps), authProduct(deps), storageProduct(deps), functionsProduct(deps, functionRuntime), realtime.product]
  const middlewares = appMiddlewares(deps, { products: products.map((p) => p.name), dispatch: (request, env) => app.fetch(request, env) })

  const use = (list: AppMiddleware[]) => list.filter((m) => m.on !== false).forEach((m) => app.use(m.path, m.handler))
  use(middlewares.guards)
  // Health and sign-in need no session; everything after this point does.
  app.route('/', publicSessionRoutes(deps))
  app.route('/', publicAccountRoutes(deps))
  app.route('/', publicVerificationRoutes(deps))
  use(middlewares.session)

  app.route('/', sessionRoutes(deps))
  app.route('/', organizationRoutes(deps))
  app.route('/', accountRoutes(deps))
  app.route('/', verificationRoutes(deps))
  app.route('/', memberRoutes(deps))
  // Before the project routes: their `/v1/projects/:ref` would take `available-regions` for a ref.
  app.route('/', projectV1Routes(deps))
  app.route('/', projectRoutes(deps))
  app.route('/', pauseRoutes(deps))
  app.route('/', upgradeRoutes(deps))
  app.route('/', keysRoutes(deps))
  app.route('/', usageRoutes(deps, usageMeter, [functionRuntime.usage, realtime.usage]))
  app.route('/', databaseRoutes(deps))
  app.route('/', databaseObjectRoutes(deps))
  app.route('/', tableEditorRoutes(deps))
  app.route('/', storageRoutes(deps))
  app.route('/', functionManageRoutes(deps, functionRuntime))
  app.route('/', functionAnalyticsRoutes(deps, functionRuntime))
  app.route('/', functionFilesRoutes(deps))
  app.route('/', functionRoutes(deps, functionRuntime))
  // Git hosting: /git/* authenticates by access token itself (no session), the /platform calls by the session.
  app.route('/', gitRoutes(deps))
  app.route('/', orgSettingsRoutes(deps))
  app.route('/', aiSettingsRoutes(deps))
  app.route('/', restRoutes(deps))
  const gateway = gatewayRoutes(deps, usageMeter, products)
  app.route('/', gateway)
  app.route('/', realtime.routes)
  app.route('/', settingsRoutes(deps))
  app.route('/', authConfigRoutes(deps))
  app.route('/', authDashboardRoutes(deps, platformCall(gateway)))
  app.route('/', supportRoutes(deps))
  app.route('/', snippetRoutes(deps))
  app.route('/', sqlEditorRoutes(deps))
  app.route('/', branchingRoutes(deps))
  app.route('/', wireRoutes(deps))
  // The Management API's reads, one file each in their owning features.
  app.route('/', profileV1Routes())
  app.route('/', organizationV1Routes(deps))
  app.route('/', keysV1Routes(deps))
  app.route('/', storageV1Routes(deps))
  app.route('/', databaseV1Routes(deps))
  app.route('/', wireV1Routes(deps))
  app.route('/', authV1Routes(deps))
  app.route('/', restV1Routes(deps))
  app.route('/', settingsV1Routes(deps))
  app.route('/', usageV1Routes(deps, usageMeter))
  app.route('/', functionV1Routes(deps))
  app.route('/', pauseV1Routes(deps))
  if (config.devControls) {
    for (const routes of [devRoutes, pauseDevRoutes, keysDevRoutes, upgradeDevRoutes, usageDevRoutes]) {
      app.route('/', routes(deps))
    }
    app.route('/', settingsDevRoutes(deps))
  }

  app.use('*', dashboard(config.distDir))
  app.notFound(notFound)
  app.onError(onError)

  const nodeRoutes = [await statusPollOnNode(deps, hostAllowed(config), [...middlewares.guards, ...middlewares.session])]
  const stopSweep = startSessionSweep(db, clock, config)
  return {
    app,
    engine,
    lifecycle,
    nodeRoutes,
    upgrade: realtime.upgradeHandler(app),
    listeningOn(url) {
      if (!config.publicUrl) deps.ownUrl.origin = new URL(url).origin
    },
    projectDbs,
    functionRuntime,
    objects,
    close: async () => {
      stopSweep()
      await realtime.close()
      await engine.stop()
      await usageMeter.stop().catch((err: unknown) => console.error('usage meter: last flush failed:', (err as Error).message))
      await functionRuntime.close()
      await projectDbs.closeAll()
      gitHostFor(config).close()
    },
  }
}
