/** Opens the store, builds the app, listens, starts the engine; returns what main.ts and dev.ts print and stop. */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createApp, type PlatformServer } from './app'
import type { ServerConfig } from './config'
import { createAccessToken } from './features/session/auth'
import { openDb, type Db } from './db'
import { DEMO_PASSWORD, demoAccounts } from './seed'

export interface RunningServer extends PlatformServer {
  db: Db
  config: ServerConfig
  url: string
  port: number
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
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: platform.app.fetch, port: config.port, hostname: config.host }, () => resolve(s))
    s.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  platform.listeningOn(url)
  platform.engine.start()

  let stopping: Promise<void> | undefined
  return {
    ...platform,
    db,
    config,
    url,
    port,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await platform.close()
        await db.close()
      })()
      return stopping
    },
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

/** Prints the URL, the demo accounts and (with dev controls) a fresh access token for the demo Owner. */
export async function printBanner(server: RunningServer, label = 'Local platform'): Promise<void> {
  const { config } = server
  const lines = [
    `${label} listening on ${server.url}`,
    `  store: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
    `  demo accounts, password ${DEMO_PASSWORD}:`,
    ...demoAccounts.map((a) => `    ${a.email.padEnd(24)} ${a.role}`),
  ]
  if (config.devControls) {
    const { rows } = await server.db.query<{ id: number }>('select id from accounts where primary_email = $1', [
      demoAccounts[0].email,
    ])
    lines.push(`  development controls: on (/dev)`)
    if (rows[0]) {
      const now = new Date()
      const created = await createAccessToken(server.db, rows[0].id, `dev-controls ${now.toISOString()}`, now)
      lines.push(
        `  access token for ${demoAccounts[0].email}: ${created.token}`,
        `    curl -H 'Authorization: Bearer ${created.token}' ${server.url}/v1/projects`,
      )
    }
  }
  console.log(lines.join('\n'))
}
