/**
 * Initial JS and CSS of /project/{ref}, in gzip bytes, as a browser loads it: sign in, open a project page,
 * gzip (level 6, a server's usual) every script and stylesheet the page fetched. Budget: 120 kB gzip of JS; above it
 * the bench says OVER and exits with status 1 (so `npm run bench` fails).
 */
import { chromium } from '@playwright/test'
import { execSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { removeDir, startServer } from './support'

const BUDGET_JS = 120 * 1024

execSync('npx vite build', { stdio: 'ignore' })
const server = await startServer()
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  const context = await browser.newContext({ baseURL: server.url })
  const signIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`)
  const projects = (await (await context.request.get('/platform/projects')).json()) as Array<{ ref: string; status: string; postgrestStatus: string }>
  const project = projects.find((p) => p.status === 'ACTIVE_HEALTHY' && p.postgrestStatus === 'ONLINE')
  if (!project) throw new Error('no healthy demo project')

  const page = await context.newPage()
  const assets: Array<{ url: string; type: 'js' | 'css'; raw: number; gzip: number }> = []
  const pending: Array<Promise<void>> = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    const type = url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : null
    if (!type || url.origin !== server.url) return
    pending.push(response.body().then((body) => {
      assets.push({ url: url.pathname, type, raw: body.length, gzip: gzipSync(body, { level: 6 }).length })
    }))
  })
  await page.goto(`/project/${project.ref}`)
  await page.waitForLoadState('networkidle')
  await Promise.all(pending)

  const sum = (type: 'js' | 'css', key: 'raw' | 'gzip') => assets.filter((a) => a.type === type).reduce((n, a) => n + a[key], 0)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`
  for (const asset of assets.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${asset.url}: ${kb(asset.raw)} raw, ${kb(asset.gzip)} gzip`)
  console.log(`initial JS of /project/{ref}: ${kb(sum('js', 'gzip'))} gzip (${kb(sum('js', 'raw'))} raw) over ${assets.filter((a) => a.type === 'js').length} files; budget ${kb(BUDGET_JS)} (${((sum('js', 'gzip') / BUDGET_JS) * 100).toFixed(0)}% used)`)
  console.log(`initial CSS of /project/{ref}: ${kb(sum('css', 'gzip'))} gzip (${kb(sum('css', 'raw'))} raw)`)
  if (sum('js', 'gzip') > BUDGET_JS) {
    console.log(`OVER budget by ${kb(sum('js', 'gzip') - BUDGET_JS)} gzip`)
    process.exitCode = 1
  }
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
