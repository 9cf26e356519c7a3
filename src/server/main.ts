/** `npm start` / `tsx src/server/main.ts`: the built dashboard and the platform API on one port. */
import { loadConfig } from './config'
import { printBanner, startServer, stopOnSignals } from './start'

try {
  const server = await startServer(loadConfig())
  stopOnSignals(server.stop)
  await printBanner(server)
} catch (err) {
  console.error('Failed to start the local platform:', (err as Error).message)
  process.exit(1)
}
