/**
 * `npm run dev`: the platform API with development controls on port API_PORT (default 8787),
 * then Vite's dev server (vite.config.ts proxies /platform, /v1 and /dev to that port).
 */
import path from 'node:path'
import { createServer } from 'vite'
import { loadConfig, repoRoot } from './config'
import { printBanner, startServer, stopOnSignals } from './start'

try {
  const config = loadConfig({ ...process.env, DEV_CONTROLS: '1', PORT: process.env.API_PORT ?? '8787' })
  // Vite's proxy rewrites Host, so the browser's Origin (Vite's URL) must be trusted explicitly.
  const api = await startServer({ ...config, allowedOrigins: [...config.allowedOrigins] })
  // vite.config.ts reads API_PORT for its proxy: give it the real port (API_PORT=0 picks one).
  process.env.API_PORT = String(api.port)
  const vite = await createServer({ configFile: path.join(repoRoot, 'vite.config.ts'), root: repoRoot })
  await vite.listen()
  const viteUrls = [...(vite.resolvedUrls?.local ?? []), ...(vite.resolvedUrls?.network ?? [])]
  for (const u of viteUrls) api.config.allowedOrigins.push(new URL(u).origin)
  await printBanner(api, 'Platform API')
  console.log(`Dashboard (Vite dev server): ${viteUrls.join('  ')}`)
  stopOnSignals(async () => {
    await vite.close()
    await api.stop()
  })
} catch (err) {
  console.error('Failed to start the development servers:', (err as Error).message)
  process.exit(1)
}
