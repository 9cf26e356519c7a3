/** Opens the store, builds the app, listens, starts the engine; returns what main.ts and dev.ts print and stop. */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { createApp, type PlatformServer } from './app'
import { ACCESS_TOKEN_PATTERN, sha256 } from './core/secrets'
import { smtpDisplay, type ServerConfig } from './config'
import { ensureProjectDatabase } from './projectdb'
import { createAccessToken } from './features/session/auth'
import { openDb, type Db } from './db'
import { DEMO_PASSWORD, demoAccounts } from './seed'
import { startWireServer, type WireServer } from './features/wire/server'

export interface RunningServer extends PlatformServer {
  db: Db
  config: ServerConfig
  url: string
  port: number
  /** The Postgres port (DB_PORT). */
  wire: WireServer
  stop(): Promise<void>
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const db = await openDb(config)
  let platform: PlatformServer
  try {
    platform = await createApp({ db, config })
  } catch (err) {
    await db.close()
    throw err
  }
  const server = nodeServer(platform, config.host)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  platform.listeningOn(url)
  let wire: WireServer
  try {
    wire = await startWireServer({ db, projectDbs: platform.projectDbs, config })
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await platform.close()
    await db.close()
    throw new Error(`the Postgres port ${config.wire.port} could not be opened: ${(err as Error).message}`)
  }
  platform.engine.start()
  void prepareProjectDatabases(platform, db)

  let stopping: Promise<void> | undefined
  return {
    ...platform,
    db,
    config,
    url,
    port,
    wire,
    stop() {
      stopping ??= (async () => {
        await wire.close()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await platform.close()
        await db.close()
      })()
      return stopping
    },
  }
}

/**
 * The Node server of a platform app: the routes answered on Node's request when the app would answer the same
 * (app.ts nodeRoutes) first, then the app through @hono/node-server's listener (what its `serve` would make).
 */
export function nodeServer(platform: Pick<PlatformServer, 'app' | 'nodeRoutes'> & Partial<Pick<PlatformServer, 'upgrade'>>, hostname: string): Server {
  const appListener = getRequestListener(platform.app.fetch, { hostname })
  const server = createServer((req, res) => {
    for (const route of platform.nodeRoutes) if (route(req, res)) return
    void appListener(req, res)
  })
  // WebSocket upgrades (each project's realtime socket) go through the app too.
  if (platform.upgrade) server.on('upgrade', platform.upgrade)
  return server
}

/**
 * In the background once the server listens, outside any store transaction, one at a time:
 *  - the project database template: otherwise the first project to finish coming up would make it (an initdb on
 *    PGlite, seconds) inside its transition's transaction, which holds PGlite's one store connection, and every
 *    request would wait for it;
 *  - the databases of projects already up that have none yet (the demo's are made on first use): otherwise the first
 *    request to need one (a REST schema check with its 2 s time-out, a first query) waits for its creation.
 * A failure is logged; whatever is not made here is made when first needed.
 */
async function prepareProjectDatabases(platform: PlatformServer, db: Db): Promise<void> {
  try {
    await platform.projectDbs.prepare?.()
    const { rows } = await db.query<{ ref: string }>(`select ref from projects where status = 'ACTIVE_HEALTHY' order by id`)
    for (const { ref } of rows) await ensureProjectDatabase(db, platform.projectDbs, ref)
  } catch (err) {
    console.error(`projectdb: preparing project databases in the background stopped: ${(err as Error).message}`)
  }
}

/** Ctrl-C / SIGTERM: stop listening, let the engine finish its transaction, close the store. */
export function stopOnSignals(stop: () => Promise<void>): void {
  let count = 0
  const handler = (signal: NodeJS.Signals) => {
    if (++count > 1) process.exit(1)
    console.log(`\n${signal}: stopping…`)
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        console.error('stop failed:', err.message)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
}

/** The demo token lasts this long; a start after it expired (or after it was revoked) makes the next one. */
const DEMO_TOKEN_DAYS = 90

/**
 * The development start's access token for the demo Owner: one token, reused by every start, instead of a new
 * never-expiring token each time. The store holds only its hash, like any token; the plaintext is kept in a file
 * under DATA_DIR (`dev-access-token`, mode 0600, in a folder of mode 0700) so the next start can print it again.
 * With DATABASE_URL the file name carries a digest of the URL, so two databases do not take turns replacing it.
 * Returns undefined when there is no demo Owner (a store seeded by someone else).
 */
/** Where the development start keeps the demo token's value. */
export function demoAccessTokenFile(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): string {
  return path.join(
    config.dataDir,
    config.databaseUrl ? `dev-access-token-${sha256(config.databaseUrl).slice(0, 12)}` : 'dev-access-token',
  )
}

export async function demoAccessToken(db: Db, config: ServerConfig, now: Date): Promise<string | undefined> {
  const { rows } = await db.query<{ id: number }>('select id from accounts where primary_email = $1', [
    demoAccounts[0].email,
  ])
  const owner = rows[0]
  if (!owner) return undefined
  const file = demoAccessTokenFile(config)
  const saved = await readFile(file, 'utf8').then((text) => text.trim(), () => undefined)
  if (saved && ACCESS_TOKEN_PATTERN.test(saved)) {
    const live = await db.query(
      `select 1 from access_tokens where token_hash = $1 and account_id = $2 and (expires_at is null or expires_at > $3)`,
      [sha256(saved), owner.id, now.toISOString()],
    )
    if (live.rows.length) return saved
  }
  const created = await createAccessToken(db, owner.id, 'dev-controls (demo)', now, DEMO_TOKEN_DAYS)
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 })
  await writeFile(file, `${created.token}\n`, { mode: 0o600 })
  await chmod(file, 0o600) // `mode` applies only when the file is created
  return created.token
}

/** Prints the URL, the demo accounts and (with dev controls) the demo Owner's access token. */
export async function printBanner(server: RunningServer, label = 'Local platform'): Promise<void> {
  const { config } = server
  const lines = [
    `${label} listening on ${server.url}`,
    `  store: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
    `  Postgres port (every project's database, user postgres.<ref>): ${server.wire.port}`,
    `  auth e-mail: ${smtpDisplay(config.smtp)}`,
    `  demo accounts, password ${DEMO_PASSWORD}:`,
    ...demoAccounts.map((a) => `    ${a.email.padEnd(24)} ${a.role}`),
  ]
  if (config.devControls) {
    lines.push(`  development controls: on (/dev)`)
    const token = await demoAccessToken(server.db, config, new Date())
    if (token) {
      lines.push(
        `  access token for ${demoAccounts[0].email} (reused by every start; expires after ${DEMO_TOKEN_DAYS} days):`,
        `    ${token}`,
        `    curl -H 'Authorization: Bearer ${token}' ${server.url}/v1/projects`,
      )
    }
  }
  console.log(lines.join('\n'))
}
